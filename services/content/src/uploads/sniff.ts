/**
 * Media type detection from a file's first bytes (its signature), never from its name or the
 * browser's claim. `file-type` does this too, but its releases are ESM-only and the test runner
 * cannot load them; this covers the formats a browser can show or play, which are the only ones a
 * media block may hold. SVG is deliberately not an image here: it can carry script.
 */
export interface SniffedMedia {
  kind: 'image' | 'video' | 'audio';
  mimeType: string;
  ext: string;
}

/** How many leading bytes detection needs. */
export const SNIFF_BYTES = 4100;

const ascii = (buf: Buffer, offset: number, text: string) =>
  buf.length >= offset + text.length && buf.toString('latin1', offset, offset + text.length) === text;
const bytes = (buf: Buffer, offset: number, values: number[]) =>
  buf.length >= offset + values.length && values.every((v, i) => buf[offset + i] === v);

const image = (mimeType: string, ext: string): SniffedMedia => ({ kind: 'image', mimeType, ext });
const video = (mimeType: string, ext: string): SniffedMedia => ({ kind: 'video', mimeType, ext });
const audio = (mimeType: string, ext: string): SniffedMedia => ({ kind: 'audio', mimeType, ext });

/** ISO base media (MP4 family): the brand after 'ftyp' tells image, audio and video apart. */
function isoMedia(buf: Buffer): SniffedMedia | null {
  if (!ascii(buf, 4, 'ftyp')) return null;
  const brand = buf.toString('latin1', 8, 12);
  if (brand === 'avif' || brand === 'avis') return image('image/avif', 'avif');
  if (brand === 'M4A ' || brand === 'M4B ' || brand === 'F4A ') return audio('audio/mp4', 'm4a');
  if (brand === 'qt  ') return video('video/quicktime', 'mov');
  if (brand.startsWith('3g')) return video('video/3gpp', '3gp');
  if (/^(iso[2-9m]|isom|mp4[12]|avc1|M4V |M4VH|M4VP|dash|mmp4|MSNV|NDAS|F4V |f4v )$/.test(brand))
    return video('video/mp4', 'mp4');
  return null;
}

/** Matroska and WebM share one container; the document type says which. */
function matroska(buf: Buffer): SniffedMedia | null {
  if (!bytes(buf, 0, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  const head = buf.toString('latin1', 0, Math.min(buf.length, 64));
  if (head.includes('webm')) return video('video/webm', 'webm');
  if (head.includes('matroska')) return video('video/x-matroska', 'mkv');
  return null;
}

function ogg(buf: Buffer): SniffedMedia | null {
  if (!ascii(buf, 0, 'OggS')) return null;
  const head = buf.toString('latin1', 0, Math.min(buf.length, 128));
  if (head.includes('theora')) return video('video/ogg', 'ogv');
  if (head.includes('OpusHead')) return audio('audio/ogg', 'opus');
  return audio('audio/ogg', 'ogg');
}

/** An MPEG audio frame header: 11 sync bits, a known version, a known layer. */
function mpegAudio(buf: Buffer): SniffedMedia | null {
  if (ascii(buf, 0, 'ID3')) return audio('audio/mpeg', 'mp3');
  if (buf.length < 2 || buf[0] !== 0xff || (buf[1] & 0xe0) !== 0xe0) return null;
  const version = (buf[1] >> 3) & 0x03;
  const layer = (buf[1] >> 1) & 0x03;
  if (layer === 0 && (buf[1] & 0xf6) === 0xf0) return audio('audio/aac', 'aac'); // ADTS
  if (version === 1 || layer === 0 || buf.length < 3) return null;
  if ((buf[2] & 0xf0) === 0xf0 || (buf[2] & 0x0c) === 0x0c) return null; // bad bitrate or sample rate
  return audio('audio/mpeg', 'mp3');
}

export function sniffMedia(buf: Buffer): SniffedMedia | null {
  if (bytes(buf, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png', 'png');
  if (bytes(buf, 0, [0xff, 0xd8, 0xff])) return image('image/jpeg', 'jpg');
  if (ascii(buf, 0, 'GIF87a') || ascii(buf, 0, 'GIF89a')) return image('image/gif', 'gif');
  if (ascii(buf, 0, 'RIFF') && ascii(buf, 8, 'WEBP')) return image('image/webp', 'webp');
  if (ascii(buf, 0, 'RIFF') && ascii(buf, 8, 'WAVE')) return audio('audio/wav', 'wav');
  if (ascii(buf, 0, 'RIFF') && ascii(buf, 8, 'AVI ')) return video('video/x-msvideo', 'avi');
  if (ascii(buf, 0, 'BM') && buf.length >= 26 && bytes(buf, 6, [0, 0, 0, 0])) return image('image/bmp', 'bmp');
  if (bytes(buf, 0, [0x00, 0x00, 0x01, 0x00]) && buf.length >= 6 && buf[4] > 0) return image('image/x-icon', 'ico');
  if (ascii(buf, 0, 'fLaC')) return audio('audio/flac', 'flac');
  if (ascii(buf, 0, 'FORM') && (ascii(buf, 8, 'AIFF') || ascii(buf, 8, 'AIFC'))) return audio('audio/aiff', 'aiff');
  if (ascii(buf, 0, 'MThd')) return audio('audio/midi', 'mid');
  if (bytes(buf, 0, [0x00, 0x00, 0x01, 0xba]) || bytes(buf, 0, [0x00, 0x00, 0x01, 0xb3])) return video('video/mpeg', 'mpg');
  return isoMedia(buf) ?? matroska(buf) ?? ogg(buf) ?? mpegAudio(buf);
}
