/** The portal's one HTTP client: every refusal is an `ApiError` with the server's Russian `message`, its status and `field`; a 401 signs the person out. */
export const TOKEN_KEY = 'authToken';
export const API_BASE = '/api';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();
/** Called whenever any call answers 401 (after the token has been dropped). */
export const onUnauthorized = (listener: UnauthorizedListener) => {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
};

export const getToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
};
export const setToken = (token: string | null): void => {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
};

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
  /** Sent through to the end even if the page is left or reloaded meanwhile (fetch's keepalive; bodies up to 64 KiB). */
  keepalive?: boolean;
}

/** An answer with its headers, for the few calls that read one (a list's X-Total-Count). */
export interface ApiResponse<T> {
  body: T;
  headers: Headers;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiResponse<T>(path, options)).body;
}

export function apiResponse<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const early = (options.method ?? 'GET') === 'GET' ? takeEarly(urlOf(path, options.query)) : undefined;
  return (early as Promise<ApiResponse<T>> | undefined) ?? read<T>(path, options);
}

/** Answers started before the code that wants them had loaded, by address; each is taken once. */
const started = new Map<string, { at: number; answer: Promise<ApiResponse<unknown>> }>();
/** How long an answer started early waits for its caller; after that the caller asks again. */
const EARLY_ANSWER_MS = 10_000;

const takeEarly = (url: string): Promise<ApiResponse<unknown>> | undefined => {
  const entry = started.get(url);
  if (!entry) return undefined;
  started.delete(url);
  return Date.now() - entry.at <= EARLY_ANSWER_MS ? entry.answer : undefined;
};

/**
 * Starts GET calls ahead of their callers (the shell does, with the page's first reads, while the
 * remote that makes them is still loading): the first call of the same address within 10 s takes
 * that answer, or its refusal, instead of asking again. Nothing is started without a token.
 */
export function startEarly(paths: readonly string[]): void {
  if (!getToken()) return;
  for (const path of paths) {
    const answer = read<unknown>(path, {});
    // A refusal is the caller's to see; one that no caller takes is dropped here.
    answer.catch(() => undefined);
    started.set(urlOf(path, undefined), { at: Date.now(), answer });
  }
}

async function read<T>(path: string, options: RequestOptions): Promise<ApiResponse<T>> {
  const res = await send(path, options);
  if (res.status === 204) return { body: undefined as T, headers: res.headers };
  const type = res.headers.get('content-type') ?? '';
  return { body: (type.includes('application/json') ? await res.json() : await res.text()) as T, headers: res.headers };
}

/**
 * Downloads a file the server builds (an export) and hands it to the browser under `fileName`.
 * Read as bytes, not text, so a CSV's BOM stays in the file; failures are ApiErrors like any call's.
 */
export async function downloadFile(path: string, fileName: string, options: RequestOptions = {}): Promise<void> {
  const res = await send(path, options);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A file of the portal (`/api/files/…`) read with the person's token, as an object URL for <img>,
 * <video> or <audio>: a learner's answer or a draft course's picture is not public.
 * The caller revokes it.
 */
export async function authorizedFileUrl(src: string, signal?: AbortSignal): Promise<string> {
  const res = await send(src.replace(/^\/api(?=\/)/, ''), { signal });
  return URL.createObjectURL(await res.blob());
}

const urlOf = (path: string, query: RequestOptions['query']): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  return `${API_BASE}${path}${params.size ? `?${params}` : ''}`;
};

const signedOut = (status: number) => {
  if (status !== 401) return;
  setToken(null);
  unauthorizedListeners.forEach((listener) => listener());
};

/** The error of a refusal: the server's `{message, field}`, or the spec's fallback for an unreadable body. */
const refusal = (status: number, text: string): ApiError => {
  try {
    const data = JSON.parse(text) as { message?: string; field?: string };
    return new ApiError(data.message || `HTTP error! status: ${status}`, status, data.field);
  } catch {
    return new ApiError('Произошла ошибка сервера', status);
  }
};

const OFFLINE = 'Нет связи с сервером. Проверьте подключение';

/** One call with the token, the 401 handling and the error of a refusal; the answer is read by the caller. */
async function send(path: string, { method = 'GET', body, query, signal, keepalive }: RequestOptions): Promise<Response> {
  const url = urlOf(path, query);
  const token = getToken();
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      signal,
      keepalive,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(OFFLINE, 0);
  }
  signedOut(res.status);
  if (!res.ok) throw refusal(res.status, await res.text().catch(() => ''));
  return res;
}

export interface UploadOptions {
  query?: RequestOptions['query'];
  /** Called as the bytes go out, with 0..100. */
  onProgress?: (percent: number) => void;
  /** Aborting cancels the upload: the promise rejects with an AbortError. */
  signal?: AbortSignal;
}

/**
 * A multipart POST that reports how much has been sent (fetch cannot: XMLHttpRequest's upload
 * progress), with the same token, 401 handling and errors as every other call.
 */
export function uploadForm<T>(path: string, form: FormData, { query, onProgress, signal }: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(new DOMException('Загрузка отменена', 'AbortError'));
    if (signal?.aborted) return aborted();
    const xhr = new XMLHttpRequest();
    xhr.open('POST', urlOf(path, query));
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(100, (e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      signedOut(xhr.status);
      if (xhr.status < 200 || xhr.status >= 300) return reject(refusal(xhr.status, xhr.responseText));
      try {
        resolve(JSON.parse(xhr.responseText) as T);
      } catch {
        reject(new ApiError('Произошла ошибка сервера', xhr.status));
      }
    };
    xhr.onerror = () => reject(new ApiError(OFFLINE, 0));
    xhr.onabort = aborted;
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** The reader's IANA time zone, in which the server counts days and writes the times of an export. */
export const readerTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/** The record asked for is not there (or not this person's to see): 404, or 400 for an id that cannot be one. */
export const isMissing = (err: unknown): boolean => err instanceof ApiError && (err.status === 404 || err.status === 400);

/** A message a person can read, for any failure (spec: 'Произошла неизвестная ошибка'). */
export const errorMessage = (err: unknown, fallback = 'Произошла неизвестная ошибка'): string =>
  err instanceof Error && err.message ? err.message : fallback;

/** A query's retry rule: one more try, but not after a refusal (4xx), which a second try would only repeat. */
export const retriedUnlessRefused = (failures: number, err: Error): boolean =>
  failures < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500);
