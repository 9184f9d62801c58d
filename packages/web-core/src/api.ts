/** The portal's one HTTP client: the error semantics of spec section 8. */
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
}

/** An answer with its headers, for the few calls that read one (a list's X-Total-Count). */
export interface ApiResponse<T> {
  body: T;
  headers: Headers;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiResponse<T>(path, options)).body;
}

export async function apiResponse<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
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

/** One call with the token, the 401 handling and the error of a refusal; the answer is read by the caller. */
async function send(path: string, { method = 'GET', body, query, signal }: RequestOptions): Promise<Response> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const url = `${API_BASE}${path}${params.size ? `?${params}` : ''}`;
  const token = getToken();
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      signal,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('Нет связи с сервером. Проверьте подключение', 0);
  }
  if (res.status === 401) {
    setToken(null);
    unauthorizedListeners.forEach((listener) => listener());
  }
  if (!res.ok) {
    let message = 'Произошла ошибка сервера';
    let field: string | undefined;
    try {
      const data = (await res.json()) as { message?: string; field?: string };
      message = data.message || `HTTP error! status: ${res.status}`;
      field = data.field;
    } catch {
      /* unreadable body: the spec's fallback */
    }
    throw new ApiError(message, res.status, field);
  }
  return res;
}

/** The reader's IANA time zone, in which the server counts days and writes the times of an export. */
export const readerTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/** A message a person can read, for any failure (spec: 'Произошла неизвестная ошибка'). */
export const errorMessage = (err: unknown, fallback = 'Произошла неизвестная ошибка'): string =>
  err instanceof Error && err.message ? err.message : fallback;
