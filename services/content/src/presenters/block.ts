import type { BlockRecord, ContentBlock, CourseModule, Lesson } from '@portal/contracts';
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

export const presentBlock = (b: BlockDoc): BlockRecord => ({
  id: String(b._id),
  type: b.type,
  title: b.title,
  content: b.content,
  description: b.type === 'MODULE' ? b.content : b.description,
  courseId: String(b.courseId),
  moduleId: b.moduleId ? String(b.moduleId) : null,
  position: b.position,
  status: b.status,
  createdAt: iso(b.createdAt),
  updatedAt: iso(b.updatedAt),
  ...(b.type === 'LESSON' ? { blocks: readContentBlocks(b.content) } : {}),
});

export const presentLesson = (b: BlockDoc): Lesson => ({
  id: String(b._id),
  title: b.title,
  description: b.description,
  content: b.content,
  status: b.status,
  courseId: String(b.courseId),
  moduleId: String(b.moduleId),
  position: b.position,
  blocks: readContentBlocks(b.content),
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
  createdAt: iso(m.createdAt),
  updatedAt: iso(m.updatedAt),
});

const byPosition = (a: BlockDoc, b: BlockDoc) => a.position - b.position || String(a._id).localeCompare(String(b._id));

/** Modules in order, each with its lessons in order; lessons of a missing module are left out. */
export function courseTree(blocks: BlockDoc[]): CourseModule[] {
  const modules = blocks.filter((b) => b.type === 'MODULE').sort(byPosition);
  const lessonsOf = new Map<string, BlockDoc[]>();
  for (const lesson of blocks.filter((b) => b.type === 'LESSON')) {
    const key = String(lesson.moduleId);
    lessonsOf.set(key, [...(lessonsOf.get(key) ?? []), lesson]);
  }
  return modules.map((m) => presentModule(m, (lessonsOf.get(String(m._id)) ?? []).sort(byPosition)));
}
