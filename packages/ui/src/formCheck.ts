import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';

/**
 * What a form's own check answers: the values to send, or a Russian message for each field in
 * error, keyed by the field's path in the form (`topic`, `goals.2.text`; a list's own message under
 * the list's name, `goals`).
 */
export type FormCheck<Output> = { ok: true; values: Output } | { ok: false; errors: Record<string, string> };

/**
 * A react-hook-form resolver over a plain check function, for a form whose values are not the
 * request a schema reads (a number typed as text, an audience chosen in parts). The messages land
 * where a schema resolver's would: each under its field, a list's on the list (`errors.goals.root`).
 */
export function checkResolver<Input extends FieldValues, Output>(
  check: (values: Input) => FormCheck<Output>,
): Resolver<Input, unknown, Output> {
  return (values, _context, options) => {
    const result = check(values);
    if (result.ok) {
      if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
      return { values: result.values, errors: {} };
    }
    const errors: Record<string, FieldError> = {};
    for (const [path, message] of Object.entries(result.errors)) errors[path] = { type: 'check', message };
    return { values: {}, errors: toNestErrors<Input>(errors, options) };
  };
}

/** One problem a schema found, as zod (and the server's refusals) name it: a path and a message. */
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * The first message for each form field from a schema's issues; `fieldOf` says which field of the
 * form an issue's path is about (null: none of them, the issue is left out).
 */
export function messagesByField(
  issues: readonly Issue[],
  fieldOf: (path: readonly PropertyKey[]) => string | null,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    if (field && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}
