import type { UploadAccept } from '@portal/contracts';
import { formatFileSize } from './format';

/** The content service's UPLOAD_MAX_BYTES by default (and the gateway's upload body limit). */
export const DEFAULT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

const WANTED: Record<Exclude<UploadAccept, 'any'>, { prefixes: string[]; text: string; hint: string }> = {
  image: {
    prefixes: ['image/'],
    text: 'нужно изображение (PNG, JPEG, GIF, WebP или SVG)',
    hint: 'Изображение (PNG, JPEG, GIF, WebP или SVG)',
  },
  video: { prefixes: ['video/'], text: 'нужно видео (MP4, WebM или OGG)', hint: 'Видео (MP4, WebM или OGG)' },
  audio: { prefixes: ['audio/'], text: 'нужен звук (MP3, WAV, OGG или M4A)', hint: 'Звук (MP3, WAV, OGG или M4A)' },
  media: {
    prefixes: ['image/', 'video/', 'audio/'],
    text: 'нужно изображение, видео или звук',
    hint: 'Изображение, видео или звук',
  },
};

const MIB = 1024 * 1024;
/** A limit is a round figure: «50 МБ», not the «50,00 МБ» a file's own size reads as. */
const limitText = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB}\u00a0МБ` : formatFileSize(bytes));

/** What an upload field takes, in words: «Изображение (PNG, …), до 50 МБ», not `image/*`. */
export const uploadHint = (accept: UploadAccept, maxBytes = DEFAULT_UPLOAD_MAX_BYTES): string =>
  `${accept === 'any' ? 'Файл любого типа' : WANTED[accept].hint}, до ${limitText(maxBytes)}`;

/**
 * Why a chosen file will not be sent, in words a person reads, or null when it may go. The server
 * checks again (the content, not only the name); a file whose type the browser does not know is
 * left to it.
 */
export function uploadProblem(
  file: { name: string; size: number; type: string },
  accept: UploadAccept,
  maxBytes = DEFAULT_UPLOAD_MAX_BYTES,
): string | null {
  if (file.size === 0) return `Файл «${file.name}» пуст`;
  if (file.size > maxBytes)
    return `Файл «${file.name}» весит ${formatFileSize(file.size)}, а загрузить можно не больше ${limitText(maxBytes)}`;
  if (accept !== 'any' && file.type) {
    const wanted = WANTED[accept];
    if (!wanted.prefixes.some((p) => file.type.startsWith(p))) return `Файл «${file.name}» не подходит: ${wanted.text}`;
  }
  return null;
}
