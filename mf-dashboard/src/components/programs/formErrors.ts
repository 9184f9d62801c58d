/**
 * The program form's problems by field: `title`, `description`, `stages`, `stages.2.required`...
 * One shape for what the contracts' schema finds before saving and for a server 400 with `field`.
 */
export type FieldErrors = Record<string, string>;

/** `stages[2].required` or `stages.2.required` → `stages.2.required`. */
export const fieldKey = (field: string): string => field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');

/** The first message of each field (a zod issue's path joined by dots). */
export function errorsOfIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = fieldKey(issue.path.map(String).join('.'));
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * One stage's problems, by the stage's own field (`title`, `required`, `courseIds`...), and `''` for
 * the stage as a whole.
 */
export function stageErrorsOf(errors: FieldErrors, index: number): FieldErrors {
  const prefix = `stages.${index}`;
  const mine: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    if (key === prefix) mine[''] ??= message;
    else if (key.startsWith(`${prefix}.`)) mine[key.slice(prefix.length + 1).split('.')[0]] ??= message;
  }
  return mine;
}

/** The problems no field shows (the program's stages as a whole, or a field the form does not have). */
export function formWideErrors(errors: FieldErrors): string[] {
  const shown = (key: string) => key === 'title' || key === 'description' || /^stages\.\d+/.test(key);
  return [
    ...new Set(
      Object.entries(errors)
        .filter(([key]) => !shown(key))
        .map(([, message]) => message),
    ),
  ];
}
