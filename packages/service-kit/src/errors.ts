import { MSG } from '@portal/contracts';

/** An error whose message is safe to show a person. Anything else becomes a 500 with a generic text. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly id: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string = MSG.validation, field?: string) => new HttpError(400, message, 'bad_request', field);
export const unauthorized = (message: string = MSG.unauthorized) => new HttpError(401, message, 'unauthorized');
export const forbidden = (message: string = MSG.forbidden) => new HttpError(403, message, 'forbidden');
export const notFound = (message: string = MSG.notFound) => new HttpError(404, message, 'not_found');
export const conflict = (message: string, field?: string) => new HttpError(409, message, 'conflict', field);
export const payloadTooLarge = (message: string = MSG.bodyTooLarge) => new HttpError(413, message, 'too_large');
export const unsupportedMedia = (message: string) => new HttpError(415, message, 'unsupported_media');
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, 'too_many_requests', undefined, { 'Retry-After': String(retryAfterSeconds) });
export const unavailable = (message: string = MSG.storeUnavailable) => new HttpError(503, message, 'unavailable');
