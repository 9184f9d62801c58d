/**
 * Where a lesson's video and audio may come from. The portal's Content-Security-Policy decides what
 * a browser plays: its own files, the https origins an administrator lists (`MEDIA_ORIGINS` of the
 * gateway), and the players of three video hosts, embedded as frames. One definition for the
 * gateway (the policy), the editor (what it says while a link is typed) and the player.
 */

export type VideoHost = 'youtube' | 'rutube' | 'vk';

export const VIDEO_HOST_LABELS: Record<VideoHost, string> = {
  youtube: 'YouTube',
  rutube: 'RuTube',
  vk: 'VK Видео',
};

/** The embed addresses `videoEmbedOf` gives: the gateway's `frame-src` lists exactly these. */
export const VIDEO_EMBED_ORIGINS = ['https://www.youtube-nocookie.com', 'https://rutube.ru', 'https://vkvideo.ru'] as const;

export interface VideoEmbed {
  host: VideoHost;
  /** The address of the host's player, for an iframe. */
  src: string;
}

const YOUTUBE_ID = /^[\w-]{11}$/;
const RUTUBE_ID = /^[0-9a-f]{32}$/i;
const VK_VIDEO = /^video(-?\d+)_(\d+)$/;

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^(www|m)\./, '');

/** «90», «1m30s», «1h2m3s» → seconds; anything else → 0. */
function startSeconds(raw: string | null): number {
  if (!raw) return 0;
  if (/^\d+s?$/.test(raw)) return Number.parseInt(raw, 10);
  const parts = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(raw);
  if (!parts) return 0;
  return Number(parts[1] ?? 0) * 3600 + Number(parts[2] ?? 0) * 60 + Number(parts[3] ?? 0);
}

function youtube(url: URL): VideoEmbed | null {
  const host = hostOf(url);
  const path = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  if (host === 'youtu.be') id = path[0];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (path[0] === 'watch') id = url.searchParams.get('v') ?? undefined;
    else if (['embed', 'shorts', 'live', 'v'].includes(path[0] ?? '')) id = path[1];
  } else return null;
  if (!id || !YOUTUBE_ID.test(id)) return null;
  const start = startSeconds(url.searchParams.get('t') ?? url.searchParams.get('start'));
  return { host: 'youtube', src: `https://www.youtube-nocookie.com/embed/${id}${start ? `?start=${start}` : ''}` };
}

function rutube(url: URL): VideoEmbed | null {
  if (hostOf(url) !== 'rutube.ru') return null;
  const path = url.pathname.split('/').filter(Boolean);
  // /video/{id}/, /video/private/{id}/?p=key, /shorts/{id}/, /play/embed/{id}
  const id = path.find((part) => RUTUBE_ID.test(part));
  if (!id || !['video', 'shorts', 'play'].includes(path[0] ?? '')) return null;
  const key = url.searchParams.get('p');
  return { host: 'rutube', src: `https://rutube.ru/play/embed/${id.toLowerCase()}${key ? `?p=${encodeURIComponent(key)}` : ''}` };
}

function vk(url: URL): VideoEmbed | null {
  const host = hostOf(url);
  if (!['vk.com', 'vk.ru', 'vkvideo.ru'].includes(host)) return null;
  let oid: string | null = null;
  let id: string | null = null;
  const hash = url.searchParams.get('hash');
  if (url.pathname === '/video_ext.php') {
    oid = url.searchParams.get('oid');
    id = url.searchParams.get('id');
    if (!oid || !/^-?\d+$/.test(oid) || !id || !/^\d+$/.test(id)) return null;
  } else {
    // vkvideo.ru/video-1_2, vk.com/video-1_2, vk.com/videos-1?z=video-1_2%2Fpl_…
    const named = url.pathname.slice(1).replace(/\/$/, '');
    const match = VK_VIDEO.exec(named) ?? VK_VIDEO.exec((url.searchParams.get('z') ?? '').split('/')[0]);
    if (!match) return null;
    [, oid, id] = match;
  }
  const query = new URLSearchParams({ oid, id });
  if (hash && /^\w+$/.test(hash)) query.set('hash', hash);
  return { host: 'vk', src: `https://vkvideo.ru/video_ext.php?${query}` };
}

/**
 * A link to a video on YouTube, RuTube or VK Video, as the address of that host's player; null for
 * anything else (a file, another site, a link to a channel rather than a video).
 */
export function videoEmbedOf(address: string): VideoEmbed | null {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return youtube(url) ?? rutube(url) ?? vk(url);
}

/**
 * `MEDIA_ORIGINS`: https origins separated by commas («https://cdn.example.ru, https://video.example.com»).
 * Each is normalised to its origin; entries that are not an https origin (a path, http, a wildcard)
 * are returned as invalid, so the gateway refuses to start with them named.
 */
export function parseMediaOrigins(raw: string): { origins: string[]; invalid: string[] } {
  const origins: string[] = [];
  const invalid: string[] = [];
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    const bare =
      url && url.protocol === 'https:' && !url.username && !url.password && `${url.pathname}${url.search}${url.hash}` === '/';
    if (url && bare && !entry.includes('*') && entry.replace(/\/$/, '').toLowerCase() === url.origin) {
      if (!origins.includes(url.origin)) origins.push(url.origin);
    } else invalid.push(entry);
  }
  return { origins, invalid };
}
