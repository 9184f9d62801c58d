import { Types } from 'mongoose';
import {
  draftCourseSchema,
  type DraftLesson,
  type DraftQuiz,
  type GenerateCourseRequest,
  type GenerationProposal,
} from '@portal/contracts';
import type { CommandDeps } from '../commands/deps';
import { recordAudit } from '../commands/deps';
import { checkSignal } from './failure';
import type { CallContext, Generator } from './generators';
import type { JobHandle } from './jobs';
import type { CourseContext, NodeSnapshot } from './prompts';
import { saveDraft } from './save';

/**
 * A course from a request: structure (1 call) → lessons (1 call per module) → quizzes (1 call per
 * module when asked) → saving → done. Progress rises with each call; saving is the last tenth.
 */
export async function generateCourse(
  handle: JobHandle,
  deps: CommandDeps,
  generator: Generator,
  req: GenerateCourseRequest,
): Promise<void> {
  const call: CallContext = { userId: deps.actor.id, signal: handle.signal };
  await handle.stage('structure', 2);
  const outline = await generator.outline(req, call);
  checkSignal(handle.signal);

  const count = outline.modules.length;
  const total = 1 + count + (req.withQuizzes ? count : 0);
  let done = 1;
  const advance = () => (++done / total) * 90;
  await handle.stage('lessons', (done / total) * 90);

  const lessons: DraftLesson[][] = [];
  for (let i = 0; i < count; i++) {
    lessons.push(await generator.lessons(req, outline, i, call));
    checkSignal(handle.signal);
    await handle.stage('lessons', advance());
  }

  const quizzes: Array<DraftQuiz | null> = Array.from({ length: count }, () => null);
  if (req.withQuizzes) {
    await handle.stage('quizzes', (done / total) * 90);
    for (let i = 0; i < count; i++) {
      quizzes[i] = await generator.quiz(req, outline, i, call);
      checkSignal(handle.signal);
      await handle.stage('quizzes', advance());
    }
  }

  const draft = draftCourseSchema.parse({
    title: outline.title,
    description: outline.description,
    modules: outline.modules.map((m, i) => ({
      title: m.title,
      description: m.description,
      lessons: lessons[i],
      quiz: quizzes[i],
    })),
  });
  await handle.stage('saving', 92);
  // The id is recorded before the first write, so a replica taking over a dead one's job finds the draft.
  const courseId = new Types.ObjectId();
  await handle.drafting(String(courseId));
  await saveDraft(deps, req, draft, handle.signal, courseId);
  await handle.setCourseId(String(courseId));
  recordAudit(deps, {
    code: 'course.generated',
    data: { title: draft.title, source: generator.source, topic: req.topic, modules: draft.modules.length },
    entityId: String(courseId),
  });
}

/** What a regeneration works from: the course as context, the node as it is, and its version. */
export interface RegenerationTarget {
  courseId: string;
  course: CourseContext;
  node: NodeSnapshot;
  version: string;
}

/** One node again. The proposal waits in the job; nothing in the course changes before accept. */
export async function regenerateNode(
  handle: JobHandle,
  deps: CommandDeps,
  generator: Generator,
  target: RegenerationTarget,
  instructions: string,
): Promise<void> {
  await handle.stage(target.node.kind === 'quiz' ? 'quizzes' : 'lessons', 10);
  const proposal: GenerationProposal = await generator.regenerate(target.course, target.node, instructions, {
    userId: deps.actor.id,
    signal: handle.signal,
  });
  checkSignal(handle.signal);
  await handle.propose(proposal, target.version);
}
