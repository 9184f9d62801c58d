import Router from '@koa/router';
import { isValidObjectId } from 'mongoose';
import { z } from 'zod';
import { notFound } from './errors';
import { requireInternal } from './auth';
import { escapeRegExp } from './mongo';
import { parse } from './validate';

/**
 * What a service holds about one person and how it forgets them (152-FZ data-subject requests).
 * The gateway asks every service and puts the answers together; the services never call each other.
 */
export interface SubjectData {
  /** Collection (as people read it: «Попытки квизов») → that person's documents, as stored. */
  [collection: string]: unknown[];
}

export interface SubjectHandlers {
  /** Everything this service holds about the person, bounded per collection (SUBJECT_EXPORT_LIMIT). */
  collect(userId: string, who: Pick<SubjectIdentity, 'fullName' | 'email'>): Promise<SubjectData>;
  /**
   * Replaces the person's identity (name, email, phone) with `alias` wherever this service keeps
   * it, leaving results and statistics in place; answers how many documents changed, per collection.
   */
  anonymise(userId: string, identity: SubjectIdentity): Promise<Record<string, number>>;
}

/** Who is being forgotten: as the auth service knew them, and what they become. */
export interface SubjectIdentity {
  alias: string;
  fullName: string;
  email: string;
}

/** The most documents of one collection an export reads. */
export const SUBJECT_EXPORT_LIMIT = 10_000;

const whoSchema = z.object({
  fullName: z.string().max(300).default(''),
  email: z.string().max(320).default(''),
});
const identitySchema = whoSchema.extend({ alias: z.string().min(1).max(200) });

/** GET /internal/subjects/:userId and POST /internal/subjects/:userId/anonymise, for the gateway only. */
export function subjectRouter(internalToken: string, handlers: SubjectHandlers): Router {
  const router = new Router({ prefix: '/internal/subjects' });
  router.use(requireInternal(internalToken));
  const userId = (id: string) => {
    if (!isValidObjectId(id)) throw notFound('Пользователь не найден');
    return id;
  };
  router.get('/:userId', async (ctx) => {
    ctx.body = await handlers.collect(userId(ctx.params.userId), parse(whoSchema, ctx.query));
  });
  router.post('/:userId/anonymise', async (ctx) => {
    ctx.body = await handlers.anonymise(userId(ctx.params.userId), parse(identitySchema, ctx.request.body));
  });
  return router;
}

/** Every occurrence of a text in a string, literally (an email's dots are dots), in any case. */
export const everyOccurrence = (text: string): RegExp => new RegExp(escapeRegExp(text), 'gi');
