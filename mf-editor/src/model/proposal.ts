import {
  GENERATION_MSG,
  GENERATION_STAGE_LABELS,
  type ContentBlock,
  type DraftBlock,
  type DraftLesson,
  type DraftQuestion,
  type GenerationJob,
  type GenerationProposal,
} from '@portal/contracts';
import { BLOCK_TYPE_LABELS } from './blocks';
import { findLesson, type EditorCourse } from './structure';

export type RegenerateTargetKind = GenerationProposal['kind'];

/** What the author asked to regenerate: the node's kind, its id (block id or quiz id) and its name. */
export interface RegenerateTarget {
  kind: RegenerateTargetKind;
  id: string;
  title: string;
}

/** «Перегенерировать урок/модуль/квиз»: the dialog's title and the buttons' names. */
export const REGENERATE_TITLES: Record<RegenerateTargetKind, string> = {
  module: 'Перегенерировать модуль',
  lesson: 'Перегенерировать урок',
  quiz: 'Перегенерировать квиз',
};

/** What the dialog says after «Отклонить»: the node stays as it was. */
export const UNCHANGED_TEXT: Record<RegenerateTargetKind, string> = {
  module: 'Предложение отклонено. Модуль не изменён.',
  lesson: 'Предложение отклонено. Урок не изменён.',
  quiz: 'Предложение отклонено. Квиз не изменён.',
};

/** One piece of a generated lesson as the preview shows it. */
export type PreviewRow =
  | { kind: 'heading'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'media'; media: 'image' | 'video' | 'audio'; label: string; suggestion: string };

export interface PreviewLesson {
  title: string;
  description: string;
  rows: PreviewRow[];
}

export interface PreviewOption {
  text: string;
  correct: boolean;
}

export interface PreviewQuestion {
  number: number;
  text: string;
  typeLabel: string;
  options: PreviewOption[];
  explanation: string;
}

export type ProposalPreview =
  | { kind: 'lesson'; title: string; rows: PreviewRow[] }
  | { kind: 'module'; title: string; description: string; lessons: PreviewLesson[] }
  | { kind: 'quiz'; title: string; questions: PreviewQuestion[] };

const QUESTION_TYPE_LABELS: Record<DraftQuestion['type'], string> = {
  single_choice: 'Один правильный ответ',
  multiple_choice: 'Несколько правильных ответов',
  true_false: 'Верно или неверно',
};

export function previewRow(block: DraftBlock): PreviewRow {
  switch (block.type) {
    case 'heading':
    case 'text':
      return { kind: block.type, text: block.text };
    case 'image':
    case 'video':
    case 'audio':
      return { kind: 'media', media: block.type, label: BLOCK_TYPE_LABELS[block.type], suggestion: block.suggestion };
  }
}

const previewLesson = (lesson: DraftLesson): PreviewLesson => ({
  title: lesson.title,
  description: lesson.description,
  rows: lesson.blocks.map(previewRow),
});

/** A true/false question reads as two options, the right one marked, like the others. */
export function previewQuestion(question: DraftQuestion, index: number): PreviewQuestion {
  const options: PreviewOption[] =
    question.type === 'true_false'
      ? [
          { text: 'Верно', correct: question.correctAnswer === 'true' },
          { text: 'Неверно', correct: question.correctAnswer === 'false' },
        ]
      : question.options.map((text, i) => ({ text, correct: question.correctAnswers.includes(i) }));
  return {
    number: index + 1,
    text: question.question,
    typeLabel: QUESTION_TYPE_LABELS[question.type],
    options,
    explanation: question.explanation,
  };
}

/** What a proposal would put in place of the node, in rows the dialog renders without interpreting. */
export function previewOfProposal(proposal: GenerationProposal): ProposalPreview {
  switch (proposal.kind) {
    case 'lesson':
      return { kind: 'lesson', title: proposal.title, rows: proposal.blocks.map(previewRow) };
    case 'module':
      return {
        kind: 'module',
        title: proposal.title,
        description: proposal.description,
        lessons: proposal.lessons.map(previewLesson),
      };
    case 'quiz':
      return { kind: 'quiz', title: proposal.title, questions: proposal.questions.map(previewQuestion) };
  }
}

/** The progress bar's value (a whole 0..100, whatever the server sent) and the stage label under it. */
export function progressOf(job: Pick<GenerationJob, 'progress' | 'stage'>): { value: number; label: string } {
  const raw = Number.isFinite(job.progress) ? job.progress : 0;
  return { value: Math.round(Math.min(100, Math.max(0, raw))), label: GENERATION_STAGE_LABELS[job.stage] ?? '' };
}

/**
 * The dialog's steps. `form` asks for wishes, `preparing` saves pending edits first, `running`
 * polls the job, `proposal` shows the preview, `failed` and `cancelled` say what happened.
 */
export type RegenerationPhase =
  | { step: 'form'; message: string | null }
  | { step: 'preparing' }
  | { step: 'starting' }
  | { step: 'running'; job: GenerationJob }
  | { step: 'cancelling'; job: GenerationJob }
  | { step: 'proposal'; job: GenerationJob; proposal: GenerationProposal }
  | { step: 'accepting'; job: GenerationJob; proposal: GenerationProposal }
  | { step: 'rejecting'; job: GenerationJob; proposal: GenerationProposal }
  | { step: 'failed'; message: string; stale: boolean; notice: string | null }
  | { step: 'cancelled'; message: string };

/** Where a job answer (from starting or polling) leads the dialog. */
export function phaseOfJob(job: GenerationJob): RegenerationPhase {
  switch (job.status) {
    case 'running':
      return { step: 'running', job };
    case 'succeeded':
      return job.proposal
        ? { step: 'proposal', job, proposal: job.proposal }
        : { step: 'failed', message: GENERATION_MSG.notAProposal, stale: false, notice: job.notice };
    case 'cancelled':
      return { step: 'cancelled', message: job.error ?? GENERATION_MSG.cancelled };
    case 'failed':
      return { step: 'failed', message: job.error ?? GENERATION_MSG.providerFailed, stale: false, notice: job.notice };
  }
}

/**
 * The editor's course after an accepted proposal: only the regenerated node is taken from the
 * server's answer, so unsaved work elsewhere in the editor is never overwritten. A quiz lives
 * outside the structure: only the quiz blocks holding it take the server's question count.
 */
export function withAccepted(current: EditorCourse, server: EditorCourse, target: RegenerateTarget): EditorCourse {
  if (target.kind === 'lesson') {
    const fresh = findLesson(server, target.id);
    if (!fresh) return current;
    return {
      ...current,
      modules: current.modules.map((m) =>
        m.lessons.some((l) => l.id === target.id)
          ? { ...m, lessons: m.lessons.map((l) => (l.id === target.id ? { ...fresh, moduleId: m.id } : l)) }
          : m,
      ),
    };
  }
  if (target.kind === 'module') {
    const fresh = server.modules.find((m) => m.id === target.id);
    if (!fresh) return current;
    return { ...current, modules: current.modules.map((m) => (m.id === target.id ? fresh : m)) };
  }
  return withQuizCounts(current, server, target.id);
}

/** The server counts a regenerated quiz's questions again in the blocks holding it; only those blocks follow. */
function withQuizCounts(current: EditorCourse, server: EditorCourse, quizId: string): EditorCourse {
  const holds = (b: ContentBlock) => b.type === 'quiz' && b.content.quizId === quizId;
  const stored = new Map(
    server.modules.flatMap((m) => m.lessons.flatMap((l) => l.blocks.filter(holds).map((b) => [b.id, b] as const))),
  );
  const take = (b: ContentBlock) => {
    const fresh = stored.get(b.id);
    return fresh && holds(b) && JSON.stringify(fresh.content) !== JSON.stringify(b.content) ? fresh : b;
  };
  let changed = false;
  const modules = current.modules.map((m) => {
    const lessons = m.lessons.map((l) => {
      const blocks = l.blocks.map(take);
      if (blocks.every((b, i) => b === l.blocks[i])) return l;
      changed = true;
      return { ...l, blocks };
    });
    return lessons.every((l, i) => l === m.lessons[i]) ? m : { ...m, lessons };
  });
  return changed ? { ...current, modules } : current;
}

/**
 * The lesson to show after an accepted proposal: the same one while it exists; when a regenerated
 * module's lessons were replaced, the module's first lesson; otherwise nothing.
 */
export function selectionAfterAccept(selectedId: string | null, next: EditorCourse, target: RegenerateTarget): string | null {
  if (!selectedId || findLesson(next, selectedId)) return selectedId;
  if (target.kind === 'module') return next.modules.find((m) => m.id === target.id)?.lessons[0]?.id ?? null;
  return null;
}
