import type Router from '@koa/router';
import { CONTENT_MSG, type AuditEventOf, type UploadAccept, type UploadedFile } from '@portal/contracts';
import {
  HttpError,
  declaredRouter,
  forbidden,
  implement,
  notFound,
  type Principal,
  type ServiceContext,
} from '@portal/service-kit';
import type { Context } from 'koa';
import { findQuizForLearner } from '../../commands/quizzes';
import type { ContentModels } from '../../models';
import type { UploadDoc } from '../../models/upload';
import type { UploadQuota } from '../../uploads/limits';
import { fileAccess, mayReadPrivateFile } from '../../uploads/access';
import { STORED_NAME, presentUpload, type UploadStore } from '../../uploads/store';
import { downloadFile, uploadAnswerFile, uploadFile, uploadFiles } from './declarations';

/** One byte range ("bytes=a-b", "bytes=a-", "bytes=-n"), so video and audio can seek; anything else is the whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * POST /api/upload/file (field `file`) and /api/upload/files (field `files`), and the files served
 * back at /api/files/<name> by any replica (the bytes are in GridFS), whole or by byte ranges.
 * `?accept=image|video|audio|media` is what a media block sends; the
 * file block sends nothing and may upload any type, which is then only ever served as a download.
 */
export function uploadsRouter(service: ServiceContext, models: ContentModels, store: UploadStore, quota: UploadQuota): Router {
  const { authenticate } = service;

  /**
   * Stores the multipart body's files as it streams in: counted against the uploader's quota before
   * its bytes arrive, sniffed for their type, and recorded (an answer with its quiz and course).
   */
  const receiveFiles = async (
    ctx: Context,
    field: 'file' | 'files',
    accept: UploadAccept,
    answered: { quiz: { _id: unknown }; course: { _id: unknown } } | null,
    record: (event: AuditEventOf<'file.uploaded'> & { entityId: string }) => void,
  ): Promise<UploadedFile[]> => {
    // Counted before the body is read, so a flood is refused before its bytes arrive.
    await quota.takeUpload(ctx.state.user.id);
    const received = await store.receive(ctx.req, ctx.res, field);
    try {
      await quota.assertRoom(
        ctx.state.user.id,
        received.reduce((sum, f) => sum + f.size, 0),
      );
    } catch (err) {
      await store.discard(received);
      throw err;
    }
    const kept = await store.keep(received, accept, ctx.state.user.id);
    try {
      // A learner's answer is kept for its reviewers though no lesson names it (see sweepOrphanUploads).
      await models.uploads.insertMany(
        answered
          ? kept.map((file) => ({
              ...file,
              purpose: 'answer' as const,
              quizId: String(answered.quiz._id),
              courseId: String(answered.course._id),
            }))
          : kept,
      );
    } catch (err) {
      await store.remove(kept.map((k) => k._id));
      throw err;
    }
    for (const file of kept) {
      record({
        code: 'file.uploaded',
        data: {
          name: file.originalName,
          bytes: file.size,
          ...(answered ? { answer: true, quizId: String(answered.quiz._id), courseId: String(answered.course._id) } : {}),
        },
        entityId: file._id,
      });
    }
    return kept.map(presentUpload);
  };

  // A file a learner of a published course is shown needs no token (<img>, <video> and download
  // links cannot send one) and may be cached a short while, so unpublishing hides it soon from shared
  // caches too. Anything else (an answer, a draft course's file) needs the bearer token of someone who
  // may read it, and is never stored by a cache.
  const serveFile = async (ctx: Context, name: string) => {
    if (!STORED_NAME.test(name)) throw notFound(CONTENT_MSG.fileNotFound);
    const doc = await models.uploads.findById(name).lean<UploadDoc>();
    if (!doc) throw notFound(CONTENT_MSG.fileNotFound);
    const access = await fileAccess(models, doc);
    if (!access.public) {
      await authenticate(ctx, async () => undefined);
      if (!mayReadPrivateFile(ctx.state.user as Principal, doc, access)) throw forbidden(CONTENT_MSG.fileForbidden);
    }
    const file = await store.read(name);
    if (!file) throw notFound(CONTENT_MSG.fileNotFound);

    ctx.set('X-Content-Type-Options', 'nosniff');
    // Replaces the gateway's policy for this answer, so it carries frame-ancestors itself.
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox; frame-ancestors 'none'");
    ctx.set('Cache-Control', access.public ? 'public, max-age=300' : 'private, no-store');
    // The name is the content's: a cache may revalidate with it after max-age.
    ctx.set('ETag', `"${name}"`);
    ctx.set('Accept-Ranges', 'bytes');
    // Only what we recognised as media is shown inline; everything else is a download. (attachment()
    // guesses a type from the name, so the stored type is set after it.)
    ctx.attachment(doc.originalName || name, { type: doc.kind === 'file' ? 'attachment' : 'inline' });
    ctx.type = doc.mimeType;

    const range = parseRange(ctx.get('range') || undefined, file.size);
    if (range === 'unsatisfiable') {
      throw new HttpError(416, CONTENT_MSG.rangeNotSatisfiable, 'range_not_satisfiable', undefined, {
        'Content-Range': `bytes */${file.size}`,
      });
    }
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
      ctx.length = range.end - range.start + 1;
      ctx.body = file.stream(range);
      return;
    }
    ctx.length = file.size;
    ctx.body = file.stream();
  };

  return declaredRouter(service, [
    implement(uploadFile, async (ctx, { query, record }) => (await receiveFiles(ctx, 'file', query.accept, null, record))[0]),
    implement(uploadFiles, (ctx, { query, record }) => receiveFiles(ctx, 'files', query.accept, null, record)),
    // A learner's answer to a file_upload question: the same checks, quota and storage as every upload.
    // It may be of any type: like the file block's, it is only ever served as a download. Its quiz is
    // one the learner may take, and the authors of its course read the file.
    implement(uploadAnswerFile, async (ctx, { query, record }) => {
      const answered = await findQuizForLearner(models, ctx.state.user, query.quizId);
      return (await receiveFiles(ctx, 'file', 'any', answered, record))[0];
    }),
    implement(downloadFile, (ctx, { params }) => serveFile(ctx, params.name)),
  ]);
}
