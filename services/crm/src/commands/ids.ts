import { isObjectIdOrHexString, Types } from 'mongoose';
import { isDuplicateKey, notFound, type HttpError } from '@portal/service-kit';

/** An id from a path or body as an ObjectId; anything malformed is simply "not found". */
export const objectIdOr404 = (id: unknown, message: string): Types.ObjectId => {
  if (typeof id !== 'string' || !isObjectIdOrHexString(id)) throw notFound(message);
  return new Types.ObjectId(id);
};

/** The fields an edit names; those it leaves out stay as they are. */
export const namedFields = <T>(input: object): Partial<T> =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * A write of a unique field (an organization's ИНН, a contact's email in its organization): the
 * check before it answers the usual case; two writers of one value at the same moment are told
 * apart by the unique index, and the loser gets `taken`.
 */
export async function uniquely<T>(write: () => Promise<T>, taken: () => HttpError): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isDuplicateKey(err)) throw taken();
    throw err;
  }
}
