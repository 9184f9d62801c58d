import type {
  BlockRecord,
  BlockSummary,
  ContentBlock,
  CourseModule,
  Lesson,
  LessonOutline,
  ModuleOutline,
} from '@portal/contracts';
import type { BlockDoc } from '../models/block';

/** Stored lesson content is always a list we validated; anything else reads as empty. */
export const readContentBlocks = (content: string): ContentBlock[] => {
  try {
    const parsed: unknown = JSON.parse(content || '[]');
    return Array.isArray(parsed) ? (parsed as ContentBlock[]) : [];
  } catch {
    return [];
  }
};

const iso = (d: Date) => new Date(d).toISOString();

/** What every answer about a block says, but its content and description. */
const blockHead = (b: Omit<BlockDoc, 'content' | 'description'>): Omit<BlockRecord, 'content' | 'description'> => ({
  id: String(b._id),
  type: b.type,
  title: b.title,
  courseId: String(b.courseId),
  moduleId: b.moduleId ? String(b.moduleId) : null,
  position: b.position,
  status: b.status,
  version: b.version ?? 0,
  ...(b.generated ? { generated: true } : {}),
  createdAt: iso(b.createdAt),
  updatedAt: iso(b.updatedAt),
});

/**
 * The block record without a lesson's content: what a write answers (the writer holds what it
 * sent). A module's content is its description, so a module keeps it.
 */
export function presentBlockSummary(
  b: Omit<BlockDoc, 'content' | 'description'> & Partial<Pick<BlockDoc, 'content' | 'description'>>,
): BlockSummary {
  // A module's description is its content; a lesson's is sent when it was read.
  const description = b.type === 'MODULE' ? b.content : b.description;
  return {
    ...blockHead(b),
    ...(description !== undefined ? { description } : {}),
    ...(b.type === 'LESSON'
      ? { blocksCount: b.blocksCount ?? 0, hasQuiz: b.hasQuiz ?? false, hasScorm: b.hasScorm ?? false }
      : {}),
  };
}

/** The block record: a lesson's blocks are in `content`, the stored string, sent once. */
export const presentBlock = (b: BlockDoc): BlockRecord => ({
  ...blockHead(b),
  content: b.content,
  description: b.type === 'MODULE' ? b.content : b.description,
});

export const presentLesson = (b: BlockDoc): Lesson => ({
  id: String(b._id),
  title: b.title,
  description: b.description,
  status: b.status,
  courseId: String(b.courseId),
  moduleId: String(b.moduleId),
  position: b.position,
  blocks: readContentBlocks(b.content),
  version: b.version ?? 0,
  createdAt: iso(b.createdAt),
  updatedAt: iso(b.updatedAt),
});

export const presentModule = (m: BlockDoc, lessons: BlockDoc[]): CourseModule => ({
  id: String(m._id),
  title: m.title,
  description: m.content,
  courseId: String(m.courseId),
  position: m.position,
  status: m.status,
  lessons: lessons.map(presentLesson),
  version: m.version ?? 0,
  createdAt: iso(m.createdAt),
  updatedAt: iso(m.updatedAt),
});

/** A lesson's fields read for the outline: everything but its content and description. */
export type OutlineLessonDoc = Pick<
  BlockDoc,
  | '_id'
  | 'type'
  | 'courseId'
  | 'moduleId'
  | 'title'
  | 'position'
  | 'status'
  | 'blocksCount'
  | 'hasQuiz'
  | 'hasScorm'
  | 'generated'
  | 'version'
  | 'createdAt'
  | 'updatedAt'
> & { retakeSince?: Date | null };

export const presentLessonOutline = (l: OutlineLessonDoc): LessonOutline => ({
  id: String(l._id),
  title: l.title,
  status: l.status,
  moduleId: String(l.moduleId),
  position: l.position,
  blocksCount: l.blocksCount ?? 0,
  hasQuiz: l.hasQuiz ?? false,
  hasScorm: l.hasScorm ?? false,
  ...(l.generated ? { generated: true } : {}),
  version: l.version ?? 0,
  updatedAt: iso(l.updatedAt),
  ...(l.retakeSince ? { retakeSince: iso(l.retakeSince) } : {}),
});

export const presentModuleOutline = (m: BlockDoc, lessons: OutlineLessonDoc[]): ModuleOutline => ({
  id: String(m._id),
  title: m.title,
  description: m.content,
  position: m.position,
  status: m.status,
  ...(m.generated ? { generated: true } : {}),
  version: m.version ?? 0,
  lessons: lessons.map(presentLessonOutline),
});

/** Siblings in their order: by position, then by id (two writes may have left the same position). */
export const byPosition = (a: Pick<BlockDoc, '_id' | 'position'>, b: Pick<BlockDoc, '_id' | 'position'>) =>
  a.position - b.position || String(a._id).localeCompare(String(b._id));

/** Lessons grouped by module, each group in order. */
function lessonsByModule<T extends Pick<BlockDoc, '_id' | 'position' | 'moduleId'>>(lessons: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const lesson of lessons) {
    const key = String(lesson.moduleId);
    const group = groups.get(key);
    if (group) group.push(lesson);
    else groups.set(key, [lesson]);
  }
  for (const group of groups.values()) group.sort(byPosition);
  return groups;
}

/** Modules in order, each with its lessons in order; lessons of a missing module are left out. */
export function courseTree(blocks: BlockDoc[]): CourseModule[] {
  const modules = blocks.filter((b) => b.type === 'MODULE').sort(byPosition);
  const lessonsOf = lessonsByModule(blocks.filter((b) => b.type === 'LESSON'));
  return modules.map((m) => presentModule(m, lessonsOf.get(String(m._id)) ?? []));
}

/** The same structure without content: modules in order, each with its lessons' outlines in order. */
export function outlineTree(modules: BlockDoc[], lessons: OutlineLessonDoc[]): ModuleOutline[] {
  const lessonsOf = lessonsByModule(lessons);
  return [...modules].sort(byPosition).map((m) => presentModuleOutline(m, lessonsOf.get(String(m._id)) ?? []));
}
