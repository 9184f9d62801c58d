import type { z } from 'zod';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

const MAX_PROBLEMS = 20;

/** Models often wrap JSON in a Markdown fence, with or without a language tag, sometimes with words around it. */
export function stripFences(text: string): string {
  const trimmed = text.trim();
  const fenced = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/.exec(trimmed);
  return (fenced ? fenced[1] : trimmed).trim();
}

/**
 * A model's answer read as JSON and checked against a draft schema. Problems are short lines
 * (path: what is wrong) meant to be sent back to the model in the one repair attempt.
 */
export function parseModelJson<S extends z.ZodType>(text: string, schema: S): ParseResult<z.output<S>> {
  const body = stripFences(text);
  if (!body) return { ok: false, problems: ['Ответ пуст: нужен один JSON-объект'] };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (err) {
    return { ok: false, problems: [`Ответ не является корректным JSON: ${(err as Error).message}`] };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues
    .slice(0, MAX_PROBLEMS)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(корень)'}: ${issue.message}`);
  return { ok: false, problems };
}
