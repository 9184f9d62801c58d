import { Types } from 'mongoose';
import { CONTENT_MSG, invalidIdMessage, isObjectIdHex, isValidId } from '@portal/contracts';
import { badRequest, notFound } from '@portal/service-kit';

/**
 * Reads an id from a path or payload: one that breaks the id rule (`idSchema` in contracts) is a 400 naming
 * the field; one that keeps it but cannot be ours (we issue ObjectIds) is simply not found.
 */
export function readId(raw: unknown, field: string, missing: string): Types.ObjectId {
  if (!isValidId(raw)) throw badRequest(invalidIdMessage(field), field);
  if (!isObjectIdHex(raw)) throw notFound(missing);
  return new Types.ObjectId(raw);
}

export const readCourseId = (raw: unknown, field = 'courseId') => readId(raw, field, CONTENT_MSG.courseNotFound);
export const readBlockId = (raw: unknown, field = 'id') => readId(raw, field, CONTENT_MSG.blockNotFound);
