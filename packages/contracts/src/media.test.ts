import { VIDEO_EMBED_ORIGINS, parseMediaOrigins, videoEmbedOf } from './media';

describe('videoEmbedOf: links to a video on YouTube, RuTube or VK Video become their players', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&list=PL1&t=1m30s', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=90'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=42', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    [
      'https://rutube.ru/video/c6cc4d620b1d4338901770a44b3e82f4/',
      'https://rutube.ru/play/embed/c6cc4d620b1d4338901770a44b3e82f4',
    ],
    [
      'https://rutube.ru/play/embed/c6cc4d620b1d4338901770a44b3e82f4',
      'https://rutube.ru/play/embed/c6cc4d620b1d4338901770a44b3e82f4',
    ],
    [
      'https://rutube.ru/video/private/c6cc4d620b1d4338901770a44b3e82f4/?p=aB_1',
      'https://rutube.ru/play/embed/c6cc4d620b1d4338901770a44b3e82f4?p=aB_1',
    ],
    ['https://vkvideo.ru/video-22822305_456241864', 'https://vkvideo.ru/video_ext.php?oid=-22822305&id=456241864'],
    ['https://vk.com/video-22822305_456241864', 'https://vkvideo.ru/video_ext.php?oid=-22822305&id=456241864'],
    [
      'https://vk.com/videos-22822305?z=video-22822305_456241864%2Fpl_-22822305_-2',
      'https://vkvideo.ru/video_ext.php?oid=-22822305&id=456241864',
    ],
    [
      'https://vk.com/video_ext.php?oid=-22822305&id=456241864&hash=e037414127166efe',
      'https://vkvideo.ru/video_ext.php?oid=-22822305&id=456241864&hash=e037414127166efe',
    ],
  ])('%s', (link, player) => {
    const embed = videoEmbedOf(link);
    expect(embed?.src).toBe(player);
    // The gateway's frame-src admits every player address given.
    expect(VIDEO_EMBED_ORIGINS).toContain(new URL(player).origin);
  });

  it.each([
    '/api/files/0b7f3c9e-1a2b-4c5d-8e9f-001122334455.mp4',
    'https://cdn.example.ru/lesson.mp4',
    'https://www.youtube.com/@channel',
    'https://www.youtube.com/watch?v=short',
    'https://rutube.ru/channel/123/',
    'https://vk.com/id1',
    'https://evil.example/youtube.com/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)',
    'не ссылка',
    '',
  ])('%s is not a video host’s link', (link) => {
    expect(videoEmbedOf(link)).toBeNull();
  });
});

describe('parseMediaOrigins (MEDIA_ORIGINS)', () => {
  it('keeps https origins, without repeats and trailing slashes', () => {
    expect(parseMediaOrigins(' https://cdn.example.ru, https://Video.Example.com/ ,https://cdn.example.ru,')).toEqual({
      origins: ['https://cdn.example.ru', 'https://video.example.com'],
      invalid: [],
    });
    expect(parseMediaOrigins('')).toEqual({ origins: [], invalid: [] });
  });

  it('names what is not an https origin', () => {
    expect(
      parseMediaOrigins(
        'http://cdn.example.ru,https://cdn.example.ru/videos,https://*.example.ru,cdn.example.ru,https://u:p@x.ru',
      ).invalid,
    ).toEqual([
      'http://cdn.example.ru',
      'https://cdn.example.ru/videos',
      'https://*.example.ru',
      'cdn.example.ru',
      'https://u:p@x.ru',
    ]);
  });
});
