import { useEffect, useState } from 'react';
// The media-only entry: the shell must not pull zod in at start.
import { VIDEO_HOST_LABELS, videoEmbedOf } from '@portal/contracts/media';

/**
 * What the portal's Content-Security-Policy lets a lesson play. The policy the gateway sends is the
 * one truth (MEDIA_ORIGINS is only ever read there): the client reads its `media-src` from a
 * response header and says in Russian when a source is not allowed, instead of a black player.
 */
export interface MediaPolicy {
  /** false when no policy is sent (nothing is blocked). */
  enforced: boolean;
  /** The media-src sources (default-src when there is none), as written. */
  sources: string[];
}

const ANY: MediaPolicy = { enforced: false, sources: [] };

/** The media-src of a Content-Security-Policy header (or its default-src). */
export function mediaPolicyOf(header: string | null): MediaPolicy {
  if (!header) return ANY;
  const directives = new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name.toLowerCase(), sources] as const),
  );
  const sources = directives.get('media-src') ?? directives.get('default-src');
  return sources ? { enforced: true, sources } : ANY;
}

/** Whether the browser will load `src` as media under the policy (CSP source matching, the forms the gateway writes). */
export function mediaAllowed(src: string, policy: MediaPolicy, pageOrigin: string): boolean {
  if (!policy.enforced || !src.trim()) return true;
  let url: URL;
  try {
    url = new URL(src.trim(), pageOrigin);
  } catch {
    return false;
  }
  return policy.sources.some((source) => {
    const s = source.toLowerCase();
    if (s === "'self'") return url.origin === pageOrigin;
    if (/^[a-z][a-z0-9+.-]*:$/.test(s)) return url.protocol === s;
    if (s.startsWith("'")) return false;
    try {
      return new URL(s).origin === url.origin;
    } catch {
      return false;
    }
  });
}

/** The origin a media address points to, for messages («https://cdn.example.ru»); the address itself if it has none. */
export const mediaOriginOf = (src: string): string => {
  try {
    return new URL(src.trim()).origin;
  } catch {
    return src.trim();
  }
};

const HOSTS = Object.values(VIDEO_HOST_LABELS)
  .join(', ')
  .replace(/, ([^,]+)$/, ' или $1');

export const MEDIA_MSG = {
  /** The editor, while an address is typed. */
  notAllowedForAuthor: (origin: string) =>
    `Источник ${origin} не разрешён настройками портала: слушатели не увидят это видео. Загрузите файл, вставьте ссылку ${HOSTS} или попросите администратора добавить источник в MEDIA_ORIGINS.`,
  audioNotAllowedForAuthor: (origin: string) =>
    `Источник ${origin} не разрешён настройками портала: слушатели не услышат эту запись. Загрузите файл или попросите администратора добавить источник в MEDIA_ORIGINS.`,
  embedded: (host: string) => `Ссылка ${host}: слушатели увидят встроенный плеер ${host}.`,
  /** The player, instead of a black box. */
  notAllowedForLearner: (kind: 'video' | 'audio', origin: string) =>
    `${kind === 'video' ? 'Видео' : 'Аудиозапись'} недоступн${kind === 'video' ? 'о' : 'а'}: источник ${origin} не разрешён настройками портала. Сообщите автору курса.`,
};

/** How a video address will be shown: a host's player, a file the policy allows, or refused. */
export type VideoSource =
  { kind: 'embed'; src: string; host: string } | { kind: 'file'; src: string } | { kind: 'blocked'; origin: string };

export function videoSourceOf(src: string, policy: MediaPolicy, pageOrigin: string): VideoSource {
  const embed = videoEmbedOf(src);
  if (embed) return { kind: 'embed', src: embed.src, host: VIDEO_HOST_LABELS[embed.host] };
  return mediaAllowed(src, policy, pageOrigin) ? { kind: 'file', src } : { kind: 'blocked', origin: mediaOriginOf(src) };
}

let policyRead: Promise<MediaPolicy> | null = null;

/** The policy the gateway sends with every answer, read once per page (a HEAD of the small runtime manifest). */
export function readMediaPolicy(): Promise<MediaPolicy> {
  policyRead ??= fetch('/remotes.json', { method: 'HEAD', cache: 'no-store' })
    .then((res) => mediaPolicyOf(res.headers.get('content-security-policy')))
    .catch(() => {
      policyRead = null; // read again next time; meanwhile block nothing (the browser still enforces)
      return ANY;
    });
  return policyRead;
}

/** The media policy, or null while it is being read. */
export function useMediaPolicy(): MediaPolicy | null {
  const [policy, setPolicy] = useState<MediaPolicy | null>(null);
  useEffect(() => {
    let live = true;
    void readMediaPolicy().then((p) => live && setPolicy(p));
    return () => {
      live = false;
    };
  }, []);
  return policy;
}
