import { useCallback, useEffect, useState, type ImgHTMLAttributes } from 'react';
import { authorizedFileUrl, downloadFile } from './api';

/** A file stored by the portal (`/api/files/<name>`), as lessons and answers name them. */
export const isPortalFile = (src: string | null | undefined): src is string => !!src && /^\/api\/files\/[^/?#]+$/.test(src);

/**
 * The address to show a portal file from. A file a learner of a published course is shown loads by
 * its plain address (no token needed, cacheable); anything else answers 401 or 403 to a bare <img>,
 * so on the element's error the file is read again with the person's token and shown from an object
 * URL (issue 49, item 2). Pass `onError` to the <img>, <video> or <audio>.
 */
export function usePortalFileSrc(src: string | null | undefined): { src: string | undefined; onError: () => void } {
  const [authorized, setAuthorized] = useState<{ for: string; url: string } | null>(null);
  const [tried, setTried] = useState<string | null>(null);
  useEffect(() => {
    if (!authorized) return;
    return () => URL.revokeObjectURL(authorized.url);
  }, [authorized]);
  const onError = useCallback(() => {
    if (!isPortalFile(src) || tried === src) return;
    setTried(src);
    authorizedFileUrl(src).then(
      (url) => setAuthorized({ for: src, url }),
      () => undefined, // The element keeps its broken state; the lesson goes on.
    );
  }, [src, tried]);
  return { src: authorized && authorized.for === src ? authorized.url : (src ?? undefined), onError };
}

/** Downloads a portal file with the person's token (an answer file is never public), under its name. */
export const downloadPortalFile = (src: string, fileName: string) => downloadFile(src.replace(/^\/api(?=\/)/, ''), fileName);

/** An <img> of a portal file (or any address), read with the token when the file is not public. */
export function PortalImage({ src, ...rest }: Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & { src?: string }) {
  const file = usePortalFileSrc(src);
  return <img {...rest} src={file.src} onError={file.onError} />;
}
