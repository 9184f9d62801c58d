import { z } from 'zod';
import './zod-ru';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const CUID = /^c[a-z0-9]{24}$/;
const SLUG = /^[A-Za-z0-9_-]{1,50}$/;

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** An id the portal's store issues (an ObjectId's 24 hex digits): the one form of the spec's rule it can hold. */
export const isObjectIdHex = (value: unknown): value is string => typeof value === 'string' && OBJECT_ID.test(value);

/** The course id rule: a UUID, a cuid or a slug. Mongo ObjectIds (24 hex characters) satisfy the third form. */
export const isValidId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && (UUID.test(value) || CUID.test(value) || SLUG.test(value));

/**
 * Wholly Russian (docs/decisions/invalid-id-message.md): the spec's English wording ('Invalid courseId
 * ... must be a valid ID') reached people as a bracketed half-sentence; clients read the status and the field.
 */
export const invalidIdMessage = (field: string) =>
  `Некорректный идентификатор «${field}»: ожидается UUID, cuid или код из латинских букв, цифр, «_» и «-» (до 50 символов)`;

export const idSchema = (field = 'id') => z.string().refine(isValidId, { message: invalidIdMessage(field) });
