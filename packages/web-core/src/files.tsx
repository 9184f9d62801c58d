import { useCallback, useEffect, useState, type ImgHTMLAttributes } from 'react';
import { authorizedFileUrl, downloadFile } from './api';

/** A file stored by the portal (`/api/files/<name>`), as lessons and answers name them. */
export const isPortalFile = (src: string | null | undefined): src is string => !!src && /^\/api\/files\/[^/?#]+$/.test(src);

/**
 * The address to show a portal file from. A file a learner of a published course is shown loads by
 * its plain address (no token needed, cacheable); anything else answers 401 or 403 to a bare <img>,
 * so on the element's error the file is read again with the person's token and shown from an object
 * URL. Pass `onError` to the <img>, <video> or <audio>. `withToken`: read with
 * the token at once (an author's screens, whose files are mostly a draft's), without a refused first try.
 */
export function usePortalFileSrc(
  src: string | null | undefined,
  { withToken = false }: { withToken?: boolean } = {},
): { src: string | undefined; onError: () => void } {
  const [authorized, setAuthorized] = useState<{ for: string; url: string } | null>(null);
  const [tried, setTried] = useState<string | null>(null);
  useEffect(() => {
    if (!authorized) return;
    return () => URL.revokeObjectURL(authorized.url);
  }, [authorized]);
  const readWithToken = useCallback((file: string) => {
    setTried(file);
    authorizedFileUrl(file).then(
      (url) => setAuthorized({ for: file, url }),
      () => undefined, // The element keeps its broken state; the lesson goes on.
    );
  }, []);
  const early = withToken && isPortalFile(src);
  useEffect(() => {
    if (early && src && tried !== src) readWithToken(src);
  }, [early, src, tried, readWithToken]);
  const onError = useCallback(() => {
    if (isPortalFile(src) && tried !== src) readWithToken(src);
  }, [src, tried, readWithToken]);
  if (authorized && authorized.for === src) return { src: authorized.url, onError };
  return { src: early ? undefined : (src ?? undefined), onError };
}

/** Downloads a portal file with the person's token (an answer file is never public), under its name. */
export const downloadPortalFile = (src: string, fileName: string) => downloadFile(src.replace(/^\/api(?=\/)/, ''), fileName);

/** An <img> of a portal file (or any address), read with the token when the file is not public. */
export function PortalImage({
  src,
  withToken,
  ...rest
}: Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & { src?: string; withToken?: boolean }) {
  const file = usePortalFileSrc(src, { withToken });
  return <img {...rest} src={file.src} onError={file.onError} />;
}
