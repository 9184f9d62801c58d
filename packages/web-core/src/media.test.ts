import { mediaAllowed, mediaPolicyOf, videoSourceOf } from './media';

const PAGE = 'https://portal.example.ru';
const CSP =
  "default-src 'self';media-src 'self' blob: https://cdn.example.ru;frame-src https://www.youtube-nocookie.com https://rutube.ru https://vkvideo.ru";

describe('the media policy read from the gateway’s Content-Security-Policy', () => {
  const policy = mediaPolicyOf(CSP);

  it('allows the portal’s own files, blobs and the listed origins', () => {
    expect(mediaAllowed('/api/files/0b7f3c9e.mp4', policy, PAGE)).toBe(true);
    expect(mediaAllowed(`${PAGE}/api/files/x.mp4`, policy, PAGE)).toBe(true);
    expect(mediaAllowed('blob:https://portal.example.ru/123', policy, PAGE)).toBe(true);
    expect(mediaAllowed('https://cdn.example.ru/courses/intro.mp4', policy, PAGE)).toBe(true);
  });

  it('refuses other origins, plain http of a listed host, and other schemes', () => {
    expect(mediaAllowed('https://other.example.com/intro.mp4', policy, PAGE)).toBe(false);
    expect(mediaAllowed('http://cdn.example.ru/intro.mp4', policy, PAGE)).toBe(false);
    expect(mediaAllowed('data:video/mp4;base64,AAAA', policy, PAGE)).toBe(false);
  });

  it('falls back to default-src, and blocks nothing without a policy', () => {
    expect(mediaAllowed('https://cdn.example.ru/a.mp4', mediaPolicyOf("default-src 'self'"), PAGE)).toBe(false);
    expect(mediaAllowed('https://anything.example/a.mp4', mediaPolicyOf(null), PAGE)).toBe(true);
  });

  it('shows a video host’s link as its player, a permitted file as a file, anything else as refused with its origin', () => {
    expect(videoSourceOf('https://youtu.be/dQw4w9WgXcQ', policy, PAGE)).toEqual({
      kind: 'embed',
      host: 'YouTube',
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    });
    expect(videoSourceOf('/api/files/a.mp4', policy, PAGE)).toEqual({ kind: 'file', src: '/api/files/a.mp4' });
    expect(videoSourceOf('https://other.example.com/v/intro.mp4', policy, PAGE)).toEqual({
      kind: 'blocked',
      origin: 'https://other.example.com',
    });
  });
});
