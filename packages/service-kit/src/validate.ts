import type { z } from 'zod';
import { badRequest } from './errors';

/** Parses input with a zod schema; the first problem becomes a 400 that names the field. */
export function parse<S extends z.ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.join('.') || undefined;
  throw badRequest(issue.message, field);
}
