import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PORTS, scormOriginSchema } from '@portal/contracts';
import { baseConfigSchema, loadConfig } from '@portal/service-kit';

/** services/content/{src,dist} → the repository root; its git-ignored .data folder holds the scratch files of uploads. */
const DEFAULT_UPLOAD_DIR = path.resolve(__dirname, '../../../.data/uploads');

/** An empty environment variable means "not set" (compose files and .env often leave them blank). */
const blankAsUnset = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' ? undefined : v), schema);

export const contentConfigSchema = baseConfigSchema
  .extend({
    PORT: z.coerce.number().int().default(DEFAULT_PORTS.content),
    /**
     * Scratch space for uploads being received. Files are kept in the store (GridFS); files found
     * here from before that (`<uuid>.<ext>`) are moved into the store at start, once.
     */
    UPLOAD_DIR: z.string().min(1).default(DEFAULT_UPLOAD_DIR),
    /** Per file; the gateway's UPLOAD_BODY_LIMIT bounds the whole request. */
    UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(50 * 1024 * 1024),
    UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(100).default(10),
    /** Per user: the bytes of all their stored files (files not in any lesson count until swept). */
    UPLOAD_QUOTA_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(2 * 1024 * 1024 * 1024),
    /** Per user: upload requests a minute (counted in Redis, so across every replica). */
    UPLOAD_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
    /** A stored file no lesson refers to is deleted once it is this old (the author's editor may not have saved yet). */
    UPLOAD_ORPHAN_GRACE_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .default(24 * 60 * 60),
    /** How often one replica (whichever takes the Redis lock) looks for such files. */
    UPLOAD_SWEEP_INTERVAL_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(60 * 60),

    /* The course builder. Provider on ⇔ AI_BASE_URL and AI_MODEL set; otherwise the built-in template builds. */
    /** An OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 (Ollama). Blank = none. */
    AI_BASE_URL: blankAsUnset(z.string().url().optional()),
    /** Sent as a bearer token, never logged or answered; local servers need none. */
    AI_API_KEY: blankAsUnset(z.string().optional()),
    AI_MODEL: blankAsUnset(z.string().max(200).optional()),
    /** Per provider call. */
    AI_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
    /** max_tokens per provider call. */
    AI_MAX_TOKENS: z.coerce.number().int().min(1).default(4000),
    /** Generations and regenerations per user per window, template included. */
    AI_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    AI_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
    /** Provider tokens per user per (UTC) day. */
    AI_DAILY_TOKEN_BUDGET: z.coerce.number().int().min(1).default(200_000),
    /** Course-builder jobs this process works at once (every replica works the shared queue). */
    GENERATION_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
    /**
     * A replica that has not renewed a job's lock this long is taken for dead: another one takes the
     * job over (once; a second time it fails with a clear message). Also how often replicas look.
     */
    GENERATION_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
    /**
     * The origin SCORM package files are served from, the gateway's own under another name
     * (`https://scorm.learn.example.ru`). Set, packages play there with same-origin rights among their
     * own frames (a frameset, the ADL discovery through window.parent); not set, each page plays in an
     * opaque sandbox on the portal's origin. The gateway reads the same variable.
     */
    SCORM_ORIGIN: scormOriginSchema,

    /*
     * Where file bytes live (uploads, answer files, SCORM packages): `gridfs` in the store itself (the
     * default: nothing more to run), or `s3`, an S3-compatible object storage for production at scale.
     */
    STORAGE_BACKEND: z.enum(['gridfs', 's3']).default('gridfs'),
    /** The S3 API's address; blank for AWS itself. E.g. https://storage.yandexcloud.net or http://seaweedfs-s3:8333. */
    S3_ENDPOINT: blankAsUnset(z.string().url().optional()),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** One bucket, made beforehand; uploads go under `files/`, packages under `scorm/`. */
    S3_BUCKET: blankAsUnset(z.string().min(3).max(63).optional()),
    /** Never logged or answered; blank to take the SDK's own chain (an IAM role, AWS_* variables). */
    S3_ACCESS_KEY_ID: blankAsUnset(z.string().optional()),
    S3_SECRET_ACCESS_KEY: blankAsUnset(z.string().optional()),
    /** Path-style addresses (`<endpoint>/<bucket>/<key>`), which SeaweedFS, Ceph and MinIO-like servers expect. */
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false', '1', '0'])
      .default('true')
      .transform((v) => v === 'true' || v === '1'),
  })
  .superRefine((config, ctx) => {
    if (config.STORAGE_BACKEND === 's3' && !config.S3_BUCKET)
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when STORAGE_BACKEND is s3' });
    if (config.AI_BASE_URL && !config.AI_MODEL)
      ctx.addIssue({ code: 'custom', path: ['AI_MODEL'], message: 'required when AI_BASE_URL is set' });
  });
export type ContentConfig = z.infer<typeof contentConfigSchema>;
export const loadContentConfig = (env = process.env): ContentConfig => loadConfig(contentConfigSchema, env);
