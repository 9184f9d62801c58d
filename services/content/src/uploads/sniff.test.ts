import { sniffMedia } from './sniff';

const b = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const pad = (buf: Buffer, size = 64) => Buffer.concat([buf, Buffer.alloc(Math.max(0, size - buf.length))]);

describe('sniffMedia', () => {
  it.each([
    ['png', b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image', 'image/png'],
    ['jpeg', b([0xff, 0xd8, 0xff, 0xe0]), 'image', 'image/jpeg'],
    ['gif', b('GIF89a'), 'image', 'image/gif'],
    ['webp', b('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image', 'image/webp'],
    ['avif', b([0, 0, 0, 0x1c], 'ftypavif'), 'image', 'image/avif'],
    ['bmp', b('BM', [0x36, 0, 0, 0, 0, 0, 0, 0]), 'image', 'image/bmp'],
    ['mp4', b([0, 0, 0, 0x20], 'ftypisom'), 'video', 'video/mp4'],
    ['mov', b([0, 0, 0, 0x14], 'ftypqt  '), 'video', 'video/quicktime'],
    ['webm', b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], 'webm'), 'video', 'video/webm'],
    ['avi', b('RIFF', [0, 0, 0, 0], 'AVI LIST'), 'video', 'video/x-msvideo'],
    ['ogv', b('OggS', [0, 2], 'xxxxxxxxxxxxxxxxxxxxxx', [0x80], 'theora'), 'video', 'video/ogg'],
    ['mp3 with ID3', b('ID3', [3, 0]), 'audio', 'audio/mpeg'],
    ['mp3 frame', b([0xff, 0xfb, 0x90, 0x64]), 'audio', 'audio/mpeg'],
    ['aac', b([0xff, 0xf1, 0x50, 0x80]), 'audio', 'audio/aac'],
    ['wav', b('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'audio', 'audio/wav'],
    ['m4a', b([0, 0, 0, 0x20], 'ftypM4A '), 'audio', 'audio/mp4'],
    ['ogg', b('OggS', [0, 2], 'vorbis'), 'audio', 'audio/ogg'],
    ['flac', b('fLaC'), 'audio', 'audio/flac'],
  ])('recognises %s by its signature', (_name, head, kind, mimeType) => {
    expect(sniffMedia(pad(head))).toMatchObject({ kind, mimeType });
  });

  it.each([
    ['plain text', b('Hello, world')],
    ['svg', b('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['html', b('<!doctype html><html>')],
    ['pdf', b('%PDF-1.7')],
    ['zip', b('PK', [3, 4])],
    ['heic (no browser shows it)', b([0, 0, 0, 0x18], 'ftypheic')],
    ['empty', Buffer.alloc(0)],
    ['a lone 0xff', b([0xff])],
  ])('does not take %s for media', (_name, head) => {
    expect(sniffMedia(head)).toBeNull();
  });
});
