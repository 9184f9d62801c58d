import {
  contentBlocksOf,
  type BlockRecord,
  type ContentBlock,
  type Course,
  type CourseFields,
  type CourseOutline,
  type Lesson,
  type LessonOutline,
  type LessonStatus,
} from '@portal/contracts';
import { byOrder } from './blocks';

export interface EditorLesson {
  id: string;
  moduleId: string;
  title: string;
  description: string;
  status: LessonStatus;
  blocks: ContentBlock[];
  /**
   * The course opens from its outline: a lesson's blocks and description are read when it is opened.
   * Until then `blocks` is empty and nothing may edit or save the lesson (a save would empty it).
   */
  loaded: boolean;
  /** The outline's block count, shown while the blocks are not loaded. */
  blocksCount: number;
  /** The stored version the outline named: a cached read of an older one is not used. */
  updatedAt?: string;
  /** Made by the course builder: only then is «Перегенерировать урок» offered. */
  generated?: boolean;
}

export interface EditorModule {
  id: string;
  title: string;
  description: string;
  status: LessonStatus;
  lessons: EditorLesson[];
  /** Made by the course builder: only then is «Перегенерировать модуль» offered. */
  generated?: boolean;
}

/** The course form's fields of a course, stored or edited, with its id and without its structure. */
export const courseFieldsOf = (c: CourseFields & { id: string }): CourseFields & { id: string } => ({
  id: c.id,
  title: c.title,
  description: c.description,
  price: c.price,
  duration: c.duration,
  level: c.level,
  status: c.status,
});

/** The course as the editor holds it: its fields and its structure in order. */
export interface EditorCourse extends CourseFields {
  id: string;
  modules: EditorModule[];
}

/** A lesson the server answered as a block record (read, created, copied, imported): loaded. */
export const lessonFromRecord = (r: BlockRecord): EditorLesson => {
  const blocks = contentBlocksOf(r);
  return {
    id: r.id,
    moduleId: r.moduleId ?? '',
    title: r.title,
    description: r.description ?? '',
    status: r.status,
    blocks,
    loaded: true,
    blocksCount: blocks.length,
    updatedAt: r.updatedAt,
    generated: r.generated === true,
  };
};

/** A lesson of a whole course (sample data, an accepted proposal): loaded. */
export const lessonFromCourse = (l: Lesson): EditorLesson => ({
  id: l.id,
  moduleId: l.moduleId,
  title: l.title,
  description: l.description ?? '',
  status: l.status,
  blocks: byOrder(l.blocks ?? []),
  loaded: true,
  blocksCount: l.blocks?.length ?? 0,
  updatedAt: l.updatedAt,
});

/** A lesson of the outline: where it is and its figures; its blocks come when it is opened. */
export const lessonFromOutline = (l: LessonOutline): EditorLesson => ({
  id: l.id,
  moduleId: l.moduleId,
  title: l.title,
  description: '',
  status: l.status,
  blocks: [],
  loaded: false,
  blocksCount: l.blocksCount,
  updatedAt: l.updatedAt,
  generated: l.generated === true,
});

export const moduleFromRecord = (
  r: Pick<BlockRecord, 'id' | 'title' | 'description' | 'status' | 'generated'>,
  lessons: EditorLesson[] = [],
): EditorModule => ({
  id: r.id,
  title: r.title,
  description: r.description ?? '',
  status: r.status,
  lessons,
  generated: r.generated === true,
});

export const fromCourse = (c: Course): EditorCourse => ({
  ...courseFieldsOf(c),
  modules: c.modules.map((m) => moduleFromRecord(m, m.lessons.map(lessonFromCourse))),
});

/** The editor opens a course from its outline: every lesson still to be loaded. */
export const fromOutline = (c: CourseOutline): EditorCourse => ({
  ...courseFieldsOf(c),
  modules: c.modules.map((m) => moduleFromRecord(m, m.lessons.map(lessonFromOutline))),
});

/**
 * A lesson's blocks and description as read when it was opened. Only a lesson not loaded yet takes
 * them: once loaded, the editor's copy (maybe edited, maybe saving) is the truth.
 */
export const withLoadedLesson = (course: EditorCourse, record: BlockRecord): EditorCourse => {
  const current = findLesson(course, record.id);
  if (!current || current.loaded) return course;
  return withServerLesson(course, record);
};

/** The stored lesson replaces the editor's copy (another author's version, chosen after a conflict). */
export const withServerLesson = (course: EditorCourse, record: BlockRecord): EditorCourse => {
  const loaded = lessonFromRecord(record);
  return updateLesson(course, record.id, {
    title: loaded.title,
    description: loaded.description,
    status: loaded.status,
    blocks: loaded.blocks,
    loaded: true,
    blocksCount: loaded.blocksCount,
    updatedAt: loaded.updatedAt,
  });
};

/** Every lesson in reading order (previous / next follow it). */
export const allLessons = (course: EditorCourse): EditorLesson[] => course.modules.flatMap((m) => m.lessons);

export const findLesson = (course: EditorCourse, id: string | null): EditorLesson | null =>
  id ? (allLessons(course).find((l) => l.id === id) ?? null) : null;

export const countLessons = (course: EditorCourse): number => allLessons(course).length;
/** Lessons in the «Черновик» state: a learner never sees them, even in a published course. */
export const draftLessons = (course: EditorCourse): EditorLesson[] => allLessons(course).filter((l) => l.status === 'draft');
/** A lesson's blocks: those held once it is loaded, the outline's count before. */
export const blocksOf = (l: EditorLesson): number => (l.loaded ? l.blocks.length : l.blocksCount);
/** The sidebar's total: content blocks over every lesson. */
export const countBlocks = (course: EditorCourse): number => allLessons(course).reduce((sum, l) => sum + blocksOf(l), 0);

/**
 * A new record's name as a person reads it, «Модуль N» or «Урок N» (not the spec's «модуль_N»), N the
 * highest number in use plus 1; a name of the older form counts too, so numbers go on from it. The
 * API's own fallback for a client that sends no title stays `nextAutoName` (see
 * docs/decisions/new-record-names.md).
 */
export function nextNewTitle(type: 'MODULE' | 'LESSON', existingTitles: readonly string[]): string {
  const word = type === 'MODULE' ? 'Модуль' : 'Урок';
  const pattern = new RegExp(`^${word}[ _](\\d+)$`, 'i');
  const highest = existingTitles.reduce((max, title) => {
    const match = pattern.exec(title.trim());
    return match ? Math.max(max, Number(match[1])) : max;
  }, 0);
  return `${word} ${highest + 1}`;
}

export const nextModuleTitle = (course: EditorCourse): string =>
  nextNewTitle(
    'MODULE',
    course.modules.map((m) => m.title),
  );
/** «Урок N» counted over the whole course, so two modules never both have «Урок 1». */
export const nextLessonTitle = (course: EditorCourse): string =>
  nextNewTitle(
    'LESSON',
    allLessons(course).map((l) => l.title),
  );
/** A module goes at the current module count. */
export const newModulePosition = (course: EditorCourse): number => course.modules.length;
/** A lesson goes at the highest position in its module plus 1 (positions are 0..n-1). */
export const newLessonPosition = (mod: EditorModule): number => mod.lessons.length - 1 + 1;

const mapModules = (course: EditorCourse, fn: (m: EditorModule) => EditorModule): EditorCourse => ({
  ...course,
  modules: course.modules.map(fn),
});

export const addModule = (course: EditorCourse, mod: EditorModule): EditorCourse => ({
  ...course,
  modules: [...course.modules, mod],
});

export const removeModule = (course: EditorCourse, moduleId: string): EditorCourse => ({
  ...course,
  modules: course.modules.filter((m) => m.id !== moduleId),
});

export const renameModule = (course: EditorCourse, moduleId: string, title: string): EditorCourse =>
  mapModules(course, (m) => (m.id === moduleId ? { ...m, title } : m));

/** Puts a lesson into a module at an index (the end when none is given). */
export const insertLesson = (course: EditorCourse, lesson: EditorLesson, index?: number): EditorCourse =>
  mapModules(course, (m) => {
    if (m.id !== lesson.moduleId) return m;
    const lessons = [...m.lessons];
    lessons.splice(index ?? lessons.length, 0, lesson);
    return { ...m, lessons };
  });

export const removeLesson = (course: EditorCourse, lessonId: string): EditorCourse =>
  mapModules(course, (m) =>
    m.lessons.some((l) => l.id === lessonId) ? { ...m, lessons: m.lessons.filter((l) => l.id !== lessonId) } : m,
  );

export const updateLesson = (
  course: EditorCourse,
  lessonId: string,
  patch: Partial<Omit<EditorLesson, 'id' | 'moduleId'>>,
): EditorCourse =>
  mapModules(course, (m) =>
    m.lessons.some((l) => l.id === lessonId)
      ? { ...m, lessons: m.lessons.map((l) => (l.id === lessonId ? { ...l, ...patch } : l)) }
      : m,
  );

/** A lesson moved to `index` in module `toModuleId` (within its module or into another). */
export function moveLesson(course: EditorCourse, lessonId: string, toModuleId: string, index: number): EditorCourse {
  const lesson = findLesson(course, lessonId);
  if (!lesson || !course.modules.some((m) => m.id === toModuleId)) return course;
  const without = removeLesson(course, lessonId);
  const target = without.modules.find((m) => m.id === toModuleId) as EditorModule;
  return insertLesson(without, { ...lesson, moduleId: toModuleId }, Math.max(0, Math.min(index, target.lessons.length)));
}

export function moveModule(course: EditorCourse, moduleId: string, index: number): EditorCourse {
  const from = course.modules.findIndex((m) => m.id === moduleId);
  if (from < 0) return course;
  const modules = [...course.modules];
  const [moved] = modules.splice(from, 1);
  modules.splice(Math.max(0, Math.min(index, modules.length)), 0, moved);
  return { ...course, modules };
}

export interface ReorderItem {
  id: string;
  position: number;
  moduleId?: string;
}

/** POST /blocks/reorder for lessons: every lesson of the modules named, at its index, in its module. */
export const lessonReorder = (course: EditorCourse, moduleIds: readonly string[]): ReorderItem[] =>
  course.modules
    .filter((m) => moduleIds.includes(m.id))
    .flatMap((m) => m.lessons.map((l, position) => ({ id: l.id, position, moduleId: m.id })));

/** POST /blocks/reorder for modules: every module at its index. */
export const moduleReorder = (course: EditorCourse): ReorderItem[] =>
  course.modules.map((m, position) => ({ id: m.id, position }));

/** Where the module holding a lesson sits. */
export const moduleOf = (course: EditorCourse, lessonId: string): EditorModule | null =>
  course.modules.find((m) => m.lessons.some((l) => l.id === lessonId)) ?? null;
