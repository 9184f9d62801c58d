import {
  MAX_PROGRAM_STAGES,
  MAX_STAGE_COURSES,
  type Program,
  type ProgramCourse,
  type ProgramInput,
  type StageDueFrom,
} from '@portal/contracts';

/**
 * The program editor's draft, pure: what the form holds between reading a program and saving it, and
 * every change the editor makes to it. The first stage's rules (its deadline counts from the
 * assignment, it is never locked) are kept after every change, so a stage dragged to the top obeys
 * them without the author having to fix it.
 */

export interface DraftStage {
  /** Stable across edits (a person's extension names it); also the drag-and-drop id. */
  key: string;
  title: string;
  courses: ProgramCourse[];
  /** null: all of its courses; N: any N of them. */
  required: number | null;
  dueDays: number;
  dueFrom: StageDueFrom;
  locked: boolean;
}

export interface ProgramDraft {
  title: string;
  description: string;
  certificate: boolean;
  stages: DraftStage[];
}

export type DraftAction =
  | { type: 'reset'; draft: ProgramDraft }
  | { type: 'setField'; field: 'title' | 'description'; value: string }
  | { type: 'setCertificate'; value: boolean }
  | { type: 'addStage'; key: string }
  | { type: 'removeStage'; key: string }
  | { type: 'moveStage'; from: number; to: number }
  | { type: 'updateStage'; key: string; patch: Partial<Omit<DraftStage, 'key' | 'courses'>> }
  | { type: 'addCourse'; stageKey: string; course: ProgramCourse }
  | { type: 'removeCourse'; stageKey: string; courseId: string }
  | { type: 'moveCourse'; stageKey: string; from: number; to: number };

export const DEFAULT_DUE_DAYS = 14;
const STAGE_KEY = /^[A-Za-z0-9_-]{1,40}$/;

/** A new stage's key: unique enough among a program's at most 20 stages, and what the server accepts. */
export function newStageKey(random: () => number = Math.random): string {
  const key = `s${Date.now().toString(36)}${Math.floor(random() * 36 ** 6).toString(36)}`;
  return STAGE_KEY.test(key) ? key : key.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40);
}

export const emptyStage = (key: string, number: number): DraftStage => ({
  key,
  title: `Этап ${number}`,
  courses: [],
  required: null,
  dueDays: DEFAULT_DUE_DAYS,
  dueFrom: number === 1 ? 'assigned' : 'previous',
  locked: false,
});

/** A new program: one empty stage, which the author fills. */
export const emptyDraft = (key: string): ProgramDraft => ({
  title: '',
  description: '',
  certificate: false,
  stages: [emptyStage(key, 1)],
});

export const draftOf = (program: Program): ProgramDraft => ({
  title: program.title,
  description: program.description,
  certificate: program.certificate,
  stages: program.stages.map((s) => ({ ...s, courses: [...s.courses] })),
});

/** What PUT /programs/:id and POST /programs take. */
export const inputOf = (draft: ProgramDraft): ProgramInput => ({
  title: draft.title,
  description: draft.description,
  certificate: draft.certificate,
  stages: draft.stages.map((s) => ({
    key: s.key,
    title: s.title,
    courseIds: s.courses.map((c) => c.id),
    required: s.required,
    dueDays: s.dueDays,
    dueFrom: s.dueFrom,
    locked: s.locked,
  })),
});

/** An item moved from one place of a list to another (dnd-kit's arrayMove, without importing the library here). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** «Любые N» never asks for more courses than the stage has (at least 1, as the server counts). */
const clampRequired = (stage: DraftStage): DraftStage =>
  stage.required === null
    ? stage
    : { ...stage, required: Math.max(1, Math.min(stage.required, Math.max(stage.courses.length, 1))) };

/** The first stage has no previous one: its deadline counts from the assignment and it is open at once. */
const withFirstStageRules = (stages: DraftStage[]): DraftStage[] =>
  stages.map((s, i) => (i === 0 && (s.dueFrom !== 'assigned' || s.locked) ? { ...s, dueFrom: 'assigned', locked: false } : s));

const mapStage = (draft: ProgramDraft, key: string, change: (s: DraftStage) => DraftStage): DraftStage[] =>
  draft.stages.map((s) => (s.key === key ? change(s) : s));

/** Whether a course is in any stage of the draft: a course belongs to one stage only. */
export const hasCourse = (draft: ProgramDraft, courseId: string): boolean =>
  draft.stages.some((s) => s.courses.some((c) => c.id === courseId));

function changeStages(draft: ProgramDraft, action: DraftAction): DraftStage[] {
  switch (action.type) {
    case 'addStage':
      if (draft.stages.length >= MAX_PROGRAM_STAGES) return draft.stages;
      return [...draft.stages, emptyStage(action.key, draft.stages.length + 1)];
    case 'removeStage':
      // A program keeps at least one stage (the server refuses none).
      return draft.stages.length > 1 ? draft.stages.filter((s) => s.key !== action.key) : draft.stages;
    case 'moveStage':
      return moveItem(draft.stages, action.from, action.to);
    case 'updateStage':
      return mapStage(draft, action.key, (s) => clampRequired({ ...s, ...action.patch }));
    case 'addCourse':
      if (hasCourse(draft, action.course.id)) return draft.stages;
      return mapStage(draft, action.stageKey, (s) =>
        s.courses.length >= MAX_STAGE_COURSES ? s : { ...s, courses: [...s.courses, action.course] },
      );
    case 'removeCourse':
      return mapStage(draft, action.stageKey, (s) =>
        clampRequired({ ...s, courses: s.courses.filter((c) => c.id !== action.courseId) }),
      );
    case 'moveCourse':
      return mapStage(draft, action.stageKey, (s) => ({ ...s, courses: moveItem(s.courses, action.from, action.to) }));
    default:
      return draft.stages;
  }
}

export function draftReducer(draft: ProgramDraft, action: DraftAction): ProgramDraft {
  switch (action.type) {
    case 'reset':
      return { ...action.draft, stages: withFirstStageRules(action.draft.stages) };
    case 'setField':
      return { ...draft, [action.field]: action.value };
    case 'setCertificate':
      return { ...draft, certificate: action.value };
    default: {
      const stages = changeStages(draft, action);
      return stages === draft.stages ? draft : { ...draft, stages: withFirstStageRules(stages) };
    }
  }
}
