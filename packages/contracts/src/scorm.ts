import { z } from 'zod';
import { entityIdField, type ModuleOutline } from './content';
import type { ScormVersion } from './scormBlock';
import { SCORM_MSG } from './scormRules';

export { SCORM_MSG } from './scormRules';

/**
 * SCORM packages: a course a company already owns (iSpring, Storyline, Captivate, CourseLab) is
 * uploaded as a zip, validated before anything is stored, kept in the store so every replica serves
 * it, and played in a sandboxed frame whose runtime API (scorm-again) lives in the portal's page.
 * Shapes shared by the content service (packages, launch), the progress service (attempts, commits)
 * and the player and editor.
 */

export { SCORM_VERSIONS, scormBlockContentSchema, type ScormBlockContent, type ScormVersion } from './scormBlock';

/** Limits a package is checked against before anything is stored (a zip bomb is refused by them). */
export const SCORM_LIMITS = {
  /** The zip as uploaded. */
  maxZipBytes: 300 * 1024 * 1024,
  /** All entries unpacked. */
  maxUnpackedBytes: 1024 * 1024 * 1024,
  maxFiles: 10_000,
  /** Unpacked / packed, for the whole archive and for any one entry bigger than a megabyte. */
  maxCompressionRatio: 100,
  /** The manifest itself, parsed in memory. */
  maxManifestBytes: 2 * 1024 * 1024,
  /** How long a launch address opens the package's files. */
  launchTtlSeconds: 4 * 60 * 60,
} as const;

/** The path package files are served from, outside /api: a sandboxed frame's requests carry `Origin: null`. */
export const SCORM_FILES_PATH = '/scorm';

/**
 * Where a player page of the portal's own lives on the package origin (SCORM_ORIGIN): it holds the
 * runtime API and frames the SCO, so the ADL discovery (which looks on `window.parent` first) finds
 * the API on a window of the SCO's own origin. `?sco=<launch>` names the SCO's page.
 */
export const SCORM_PLAYER_PAGE = '__portal__/player.html';

/**
 * SCORM_ORIGIN, the origin package files are served from (`https://scorm.learn.example.ru`): an
 * http(s) origin, nothing after the port; '' (not set) plays packages in an opaque sandbox on the
 * portal's own origin. null when the value is not an origin.
 */
export function parseScormOrigin(raw: string): string | null {
  const entry = raw.trim();
  if (!entry) return '';
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return null;
  }
  const bare = !url.username && !url.password && `${url.pathname}${url.search}${url.hash}` === '/';
  if (!bare || !/^https?:$/.test(url.protocol) || entry.replace(/\/$/, '').toLowerCase() !== url.origin) return null;
  return url.origin;
}

/** SCORM_ORIGIN: an http(s) origin or nothing ('' once parsed). */
export const scormOriginSchema = z
  .string()
  .default('')
  .transform((raw, ctx) => {
    const origin = parseScormOrigin(raw);
    if (origin === null)
      ctx.addIssue({ code: 'custom', message: `not an http(s) origin (http[s]://host[:port], no path): ${raw}` });
    return origin ?? '';
  });

/** One SCO of a package as the manifest's organization lists it. */
export interface ScormSco {
  /** The item's identifier in the manifest. */
  id: string;
  title: string;
  /** The resource's href with the item's parameters, relative to the package root. */
  launch: string;
  /** Titles of the enclosing items, outermost first (for a whole course: the first is the module). */
  path: string[];
}

export interface ScormPackageSummary {
  id: string;
  courseId: string;
  title: string;
  version: ScormVersion;
  /** '1.2', '2004 2nd Edition', '2004 3rd Edition', '2004 4th Edition' as read from the manifest. */
  edition: string;
  scos: ScormSco[];
  files: number;
  bytes: number;
  createdAt: string;
}

/** `lesson`: the package is stored for a lesson's block; `course`: its organization becomes the course's modules and lessons. */
export const SCORM_UPLOAD_MODES = ['lesson', 'course'] as const;
export type ScormUploadMode = (typeof SCORM_UPLOAD_MODES)[number];

/** POST /api/scorm/packages?courseId=…&mode=lesson|course, the zip in the multipart field `file`. */
export const scormUploadQuerySchema = z.object({
  courseId: entityIdField('courseId'),
  mode: z.enum(SCORM_UPLOAD_MODES, { error: SCORM_MSG.modeInvalid }).default('lesson'),
});
export type ScormUploadQuery = z.input<typeof scormUploadQuerySchema>;

/**
 * The answer of a `mode=course` upload: the package, and the modules made of its organization (each
 * top-level item a module, a single-level organization one module titled as the organization; each
 * SCO a published lesson holding one 'scorm' block), appended after the course's own modules.
 */
export interface ScormCourseUpload extends ScormPackageSummary {
  modules: ModuleOutline[];
}

/** POST /api/scorm/launch: a learner (or an author previewing) opens a lesson's SCO. */
export const scormLaunchSchema = z.object({ lessonId: entityIdField('lessonId') });
export type ScormLaunchInput = z.input<typeof scormLaunchSchema>;

export interface ScormLaunch {
  packageId: string;
  scoId: string;
  version: ScormVersion;
  /**
   * The frame's address, good for `SCORM_LIMITS.launchTtlSeconds`: `/scorm/<signed token>/<launch>`,
   * or, when packages have an origin of their own (SCORM_ORIGIN), that origin's player page
   * `<origin>/scorm/<signed token>/__portal__/player.html?sco=<launch>`.
   */
  url: string;
  expiresAt: string;
}

/** POST /api/scorm/attempts: the learner's current attempt at a lesson's SCO, started if there is none. */
export const scormAttemptOpenSchema = z.object({
  courseId: entityIdField('courseId'),
  lessonId: entityIdField('lessonId'),
  /** Start a new attempt after a completed one (refused unless the lesson allows it). */
  fresh: z.boolean().optional(),
});
export type ScormAttemptOpenInput = z.input<typeof scormAttemptOpenSchema>;

export interface ScormScore {
  raw: number | null;
  min: number | null;
  max: number | null;
  scaled: number | null;
}

export interface ScormInteraction {
  id: string;
  type: string;
  response: string;
  result: string;
  /** Seconds. */
  latency: number | null;
  correctResponses: string[];
}

export interface ScormAttemptState {
  id: string;
  courseId: string;
  lessonId: string;
  packageId: string;
  scoId: string;
  /** 1, 2, … per learner and lesson. */
  number: number;
  /** 'ab-initio' for a new attempt, 'resume' when the learner left it suspended. */
  entry: 'ab-initio' | 'resume';
  /** The CMI tree last committed (scorm-again's `runtimeData`), to `loadFromJSON` on launch; null when new. */
  cmi: Record<string, unknown> | null;
  /** The highest commit sequence stored: a commit at or below it changes nothing. */
  sequence: number;
  completionStatus: string;
  successStatus: string;
  completed: boolean;
  mayStartNew: boolean;
}

/**
 * POST /api/scorm/attempts/:id/commit, as scorm-again sends it with `renderCommonCommitFields`
 * and `includeCommitSequence`; its answer is `{ result: true, errorCode: 0 }`.
 */
export const scormCommitSchema = z
  .object({
    commitSequence: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    completionStatus: z.string().max(100).optional(),
    successStatus: z.string().max(100).optional(),
    totalTimeSeconds: z.number().min(0).max(1e9).optional(),
    score: z
      .object({
        raw: z.number().nullish(),
        min: z.number().nullish(),
        max: z.number().nullish(),
        scaled: z.number().nullish(),
      })
      .partial()
      .nullish(),
    runtimeData: z.record(z.string(), z.unknown()),
  })
  .loose();
export type ScormCommitInput = z.input<typeof scormCommitSchema>;

/** One attempt as a curator sees it (GET /api/scorm/attempts?courseId=…). */
export interface ScormAttemptSummary {
  id: string;
  userId: string;
  userName: string;
  courseId: string;
  lessonId: string;
  lessonTitle: string;
  number: number;
  completionStatus: string;
  successStatus: string;
  score: ScormScore;
  totalTimeSeconds: number;
  sessionTimeSeconds: number;
  interactions: ScormInteraction[];
  startedAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** One interaction of a package across the learners' latest records of it. */
export interface ScormInteractionStats {
  id: string;
  type: string;
  /** Attempts that answered it. */
  answered: number;
  correct: number;
  /** correct / answered, 0–100, rounded. */
  correctPercentage: number;
  /** Mean seconds, over the answers that report one; null when none does. */
  averageLatency: number | null;
}

export interface ScormLessonAnalysis {
  courseId: string;
  lessonId: string;
  attempts: number;
  interactions: ScormInteractionStats[];
}

/** What counts as done: a completed (1.2: completed or passed) SCO completes its lesson. */
export const scormCountsAsCompleted = (completionStatus: string, successStatus: string): boolean =>
  completionStatus === 'completed' || completionStatus === 'passed' || successStatus === 'passed';

/**
 * What the progress service asks the content service of a lesson before it opens or stores an attempt
 * (GET /internal/scorm/lessons/:lessonId): the lesson's SCO and its attempt setting; 404 when the
 * lesson holds no SCORM block.
 */
export interface ScormLessonBinding {
  courseId: string;
  lessonId: string;
  lessonTitle: string;
  packageId: string;
  scoId: string;
  version: ScormVersion;
  allowNewAttempt: boolean;
}
