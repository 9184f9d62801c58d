import { isObjectIdOrHexString, Types } from 'mongoose';
import { notFound } from '@portal/service-kit';

/** An id from a path or body as an ObjectId; anything malformed is simply "not found". */
export const objectIdOr404 = (id: unknown, message: string): Types.ObjectId => {
  if (typeof id !== 'string' || !isObjectIdOrHexString(id)) throw notFound(message);
  return new Types.ObjectId(id);
};

export const isDuplicateKey = (err: unknown): boolean => (err as { code?: number })?.code === 11000;
