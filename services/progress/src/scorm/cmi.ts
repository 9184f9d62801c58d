import type { ScormInteraction, ScormScore } from '@portal/contracts';

/**
 * Reading scorm-again's `runtimeData.cmi` (SCORM 1.2 and 2004 alike): what is stored of a commit
 * beside the tree itself. The tree was already checked by scorm-again's data model in the page; here
 * it is only read, never trusted for shape: anything missing or odd reads as empty.
 */

type Tree = Record<string, unknown>;

/** Interactions kept per attempt, and the length of each text kept of one (the tree keeps them whole). */
const MAX_INTERACTIONS = 500;
const MAX_TEXT = 4000;

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);
const child = (tree: unknown, key: string): unknown => (isTree(tree) ? tree[key] : undefined);
/** At most MAX_TEXT characters, never cutting a surrogate pair in two (the driver would store U+FFFD). */
const clipped = (value: string): string => {
  if (value.length <= MAX_TEXT) return value;
  const cut = value.slice(0, MAX_TEXT);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
};
const text = (value: unknown): string =>
  typeof value === 'string' ? clipped(value) : typeof value === 'number' ? String(value) : '';

/** The members of a SCORM collection, which scorm-again renders as {"0": …, "1": …} (an array when loaded so). */
const membersOf = (collection: unknown): unknown[] =>
  Array.isArray(collection)
    ? collection
    : isTree(collection)
      ? Object.keys(collection)
          .filter((k) => /^\d+$/.test(k))
          .sort((a, b) => Number(a) - Number(b))
          .map((k) => collection[k])
      : [];

/** The first of the keys that holds a non-empty value: the 2004 name, then the 1.2 one. */
const pick = (tree: unknown, ...paths: string[][]): string => {
  for (const path of paths) {
    const value = text(path.reduce<unknown>((node, key) => child(node, key), tree));
    if (value) return value;
  }
  return '';
};

/**
 * Seconds of a SCORM time span: 2004's ISO 8601 duration (`PT1H2M3.5S`, `P1DT2H`) or 1.2's
 * `HHHH:MM:SS.SS`; null when it is neither.
 */
export function durationSeconds(value: string): number | null {
  const clock = /^(\d{1,4}):(\d{2}):(\d{2}(?:\.\d{1,2})?)$/.exec(value);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  const iso =
    /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      value,
    );
  if (!iso || value === 'P' || value.endsWith('T')) return null;
  const [years, months, days, hours, minutes, seconds] = iso.slice(1).map((v) => Number(v ?? 0));
  const total = (((years * 365 + months * 30 + days) * 24 + hours) * 60 + minutes) * 60 + seconds;
  return Math.round(total * 100) / 100;
}

/** The interactions the package recorded: 2004's learner_response, 1.2's student_response. */
export function interactionsOf(cmi: unknown): ScormInteraction[] {
  return membersOf(child(cmi, 'interactions'))
    .slice(0, MAX_INTERACTIONS)
    .filter(isTree)
    .map((item) => ({
      id: text(item.id),
      type: text(item.type),
      response: text(item.learner_response ?? item.student_response),
      result: text(item.result),
      latency: durationSeconds(text(item.latency)),
      correctResponses: membersOf(item.correct_responses)
        .map((r) => text(child(r, 'pattern')))
        .filter(Boolean),
    }));
}

/** How the package left its session: cmi.exit (2004) or cmi.core.exit (1.2). */
export const exitOf = (cmi: unknown): string => pick(cmi, ['exit'], ['core', 'exit']);

export const sessionSecondsOf = (cmi: unknown): number =>
  durationSeconds(pick(cmi, ['session_time'], ['core', 'session_time'])) ?? 0;

/**
 * Whether a launch resumes: the package left a bookmark (suspend data, a location) or suspended
 * its session. Otherwise it starts from the beginning.
 */
export const resumes = (cmi: unknown): boolean =>
  exitOf(cmi) === 'suspend' || !!pick(cmi, ['suspend_data'], ['location'], ['core', 'lesson_location']);

/** The stored tree with `entry` set as this launch has it, for scorm-again's loadFromJSON. */
export function withEntry(cmi: Tree, entry: 'ab-initio' | 'resume'): Tree {
  const core = child(cmi, 'core');
  // 1.2 keeps entry under cmi.core; 2004 at the top.
  return isTree(core) ? { ...cmi, core: { ...core, entry } } : { ...cmi, entry };
}

const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The score of a commit, each part null when the package did not report it. */
export const scoreOf = (score: Partial<Record<keyof ScormScore, number | null | undefined>> | null | undefined): ScormScore => ({
  raw: finite(score?.raw),
  min: finite(score?.min),
  max: finite(score?.max),
  scaled: finite(score?.scaled),
});

/**
 * The stored runtimeData (JSON) with the learner's name replaced (2004's cmi.learner_name, 1.2's
 * cmi.core.student_name): what anonymisation leaves of a tree the player filled with the name.
 */
export function renamedLearner(runtimeData: string, alias: string): string {
  if (!runtimeData) return runtimeData;
  const data = JSON.parse(runtimeData) as { cmi?: unknown };
  const cmi = data.cmi;
  if (!isTree(cmi)) return runtimeData;
  const core = child(cmi, 'core');
  const renamed = isTree(core) && 'student_name' in core ? { ...cmi, core: { ...core, student_name: alias } } : cmi;
  return JSON.stringify({ ...data, cmi: 'learner_name' in renamed ? { ...renamed, learner_name: alias } : renamed });
}
