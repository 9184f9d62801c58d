import { ApiError, errorMessage } from '@portal/web-core';

// Apart from the form's resolver, so that a screen that only reads a refusal loads no form library.
/** A server's refusal as a form shows it: its Russian message, and the field it names, if any (`audience.department`). */
export interface Refusal {
  message: string;
  field?: string;
}

/** The refusal in an error a call threw: the server's message and field, or `fallback` for anything else. */
export const refusalOf = (err: unknown, fallback?: string): Refusal => ({
  message: errorMessage(err, fallback),
  field: err instanceof ApiError ? err.field : undefined,
});
