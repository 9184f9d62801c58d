import {
  GENERATION_MSG,
  type DraftLesson,
  type DraftQuiz,
  type GenerateCourseRequest,
  type GenerationProposal,
  type GenerationSource,
} from '@portal/contracts';
import type { z } from 'zod';
import { GenerationFailure, checkSignal } from './failure';
import { parseModelJson } from './parse';
import {
  lessonsPrompt,
  quizPrompt,
  regenerationPrompt,
  repairPrompt,
  structurePrompt,
  type CourseContext,
  type NodeSnapshot,
} from './prompts';
import type { ChatMessage, ChatProvider } from './provider';
import {
  lessonProposalSchema,
  moduleLessonsSchema,
  moduleProposalSchema,
  outlineSchema,
  quizProposalSchema,
  type Outline,
} from './schemas';
import {
  templateLessonVariant,
  templateLessons,
  templateModuleVariant,
  templateOutline,
  templateQuiz,
  templateQuizVariant,
} from './template';

/** Who is asking and how to stop: every provider call is counted against this user and aborts with the job. */
export interface CallContext {
  userId: string;
  signal: AbortSignal;
}

/**
 * The stages of a course and the regeneration of one node, whether a model or the template does
 * the writing: the pipeline and the interface see the same steps either way.
 */
export interface Generator {
  source: GenerationSource;
  outline(req: GenerateCourseRequest, call: CallContext): Promise<Outline>;
  lessons(req: GenerateCourseRequest, outline: Outline, index: number, call: CallContext): Promise<DraftLesson[]>;
  /** null: this module gets no quiz. */
  quiz(req: GenerateCourseRequest, outline: Outline, index: number, call: CallContext): Promise<DraftQuiz | null>;
  regenerate(course: CourseContext, node: NodeSnapshot, instructions: string, call: CallContext): Promise<GenerationProposal>;
}

/**
 * One provider call answered with JSON of a schema. An invalid answer gets ONE repair attempt
 * (the answer goes back with its problems); a second invalid answer fails the job, changing nothing.
 */
export async function askJson<S extends z.ZodType>(
  provider: ChatProvider,
  messages: ChatMessage[],
  schema: S,
  call: CallContext,
): Promise<z.output<S>> {
  const first = await provider.complete(messages, call);
  const parsed = parseModelJson(first, schema);
  if (parsed.ok) return parsed.value;
  checkSignal(call.signal);
  const second = await provider.complete(repairPrompt(messages, first, parsed.problems), call);
  const repaired = parseModelJson(second, schema);
  if (repaired.ok) return repaired.value;
  throw new GenerationFailure(GENERATION_MSG.invalidOutput);
}

export function aiGenerator(provider: ChatProvider): Generator {
  return {
    source: 'ai',
    outline: (req, call) => askJson(provider, structurePrompt(req), outlineSchema, call),
    async lessons(req, outline, index, call) {
      const answer = await askJson(
        provider,
        lessonsPrompt(req, outline.title, outline.modules[index]),
        moduleLessonsSchema,
        call,
      );
      return answer.lessons;
    },
    async quiz(req, outline, index, call) {
      if (!req.withQuizzes) return null;
      const final = index === outline.modules.length - 1 && outline.modules.length > 1;
      return askJson(provider, quizPrompt(req, outline.title, outline.modules[index], final), quizProposalSchema, call);
    },
    async regenerate(course, node, instructions, call) {
      const messages = regenerationPrompt(course, node, instructions);
      if (node.kind === 'lesson') {
        const answer = await askJson(provider, messages, lessonProposalSchema, call);
        return { kind: 'lesson', title: answer.title, blocks: answer.blocks };
      }
      if (node.kind === 'module') {
        const answer = await askJson(provider, messages, moduleProposalSchema, call);
        return { kind: 'module', title: answer.title, description: answer.description, lessons: answer.lessons };
      }
      const answer = await askJson(provider, messages, quizProposalSchema, call);
      return { kind: 'quiz', title: answer.title, questions: answer.questions };
    },
  };
}

/** Audience of a regenerated node is not stored on the course; the template speaks of its learners. */
const REGENERATION_AUDIENCE = 'слушатели курса';

export function templateGenerator(): Generator {
  return {
    source: 'template',
    outline: async (req) => outlineSchema.parse(templateOutline(req)),
    lessons: async (req, outline, index) => moduleLessonsSchema.parse({ lessons: templateLessons(req, outline, index) }).lessons,
    quiz: async (req, outline, index) => {
      const quiz = templateQuiz(req, outline, index);
      return quiz ? quizProposalSchema.parse(quiz) : null;
    },
    async regenerate(course, node, instructions) {
      const subject = { topic: course.title, audience: REGENERATION_AUDIENCE, instructions };
      if (node.kind === 'lesson') {
        const lesson = templateLessonVariant({ ...subject, goal: node.moduleTitle }, node);
        const checked = lessonProposalSchema.parse(lesson);
        return { kind: 'lesson', title: checked.title, blocks: checked.blocks };
      }
      if (node.kind === 'module') {
        const checked = moduleProposalSchema.parse(templateModuleVariant({ ...subject, goal: node.title }, node));
        return { kind: 'module', ...checked };
      }
      const checked = quizProposalSchema.parse(templateQuizVariant({ ...subject, goal: course.title }, node));
      return { kind: 'quiz', title: checked.title, questions: checked.questions };
    },
  };
}
