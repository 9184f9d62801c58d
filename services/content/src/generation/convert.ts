import { randomUUID } from 'node:crypto';
import {
  lessonContentSchema,
  type ContentBlock,
  type ContentBlockInput,
  type DraftBlock,
  type DraftQuestion,
  type Question,
} from '@portal/contracts';
import { normalizeContentBlocks } from '../commands/blocks';
import { lessonContentFields, type BlockDoc } from '../models/block';

/** A draft block as the editor's content block: media are empty placeholders carrying the suggestion. */
export function contentBlockOf(block: DraftBlock): ContentBlockInput {
  switch (block.type) {
    case 'heading':
      return { type: 'heading', content: { text: block.text } };
    case 'text':
      return { type: 'text', content: { text: block.text } };
    case 'image':
      return { type: 'image', content: { src: '', alt: block.suggestion, caption: block.suggestion } };
    case 'video':
      return {
        type: 'video',
        content: { src: '', poster: '', autoplay: false, title: block.suggestion, description: block.suggestion },
      };
    case 'audio':
      return { type: 'audio', content: { src: '', title: block.suggestion, description: block.suggestion } };
  }
}

/**
 * Stored lesson content from draft blocks (and any blocks kept from before, e.g. a quiz block),
 * through the same schema and normaliser as the editor's writes, so the lesson is an ordinary one.
 */
export function lessonContentOf(
  blocks: Array<ContentBlockInput>,
  lessonId: string,
): Pick<BlockDoc, 'content' | 'blocksCount' | 'hasQuiz'> {
  return lessonContentFields(normalizeContentBlocks(lessonContentSchema.parse(blocks), lessonId));
}

/** The other way, for the model's context and the template's comparison: what a lesson says now. */
export function draftBlocksOf(blocks: ContentBlock[]): DraftBlock[] {
  const out: DraftBlock[] = [];
  for (const b of blocks) {
    if (b.type === 'heading' && b.content.text.trim()) out.push({ type: 'heading', text: b.content.text });
    else if (b.type === 'text' && b.content.text.trim()) out.push({ type: 'text', text: b.content.text });
    else if (b.type === 'image') out.push({ type: 'image', suggestion: b.content.alt || b.content.caption || 'изображение' });
    else if (b.type === 'video') out.push({ type: 'video', suggestion: b.content.title || b.content.description || 'видео' });
    else if (b.type === 'audio') out.push({ type: 'audio', suggestion: b.content.title || b.content.description || 'аудио' });
  }
  return out;
}

/** Draft questions as stored quiz questions: fresh ids, order 1..n, one point each. */
export const questionsOf = (questions: DraftQuestion[]): Question[] =>
  questions.map((q, i) => ({
    id: randomUUID(),
    type: q.type,
    question: q.question,
    options: q.type === 'true_false' ? [] : q.options,
    correctAnswers: q.type === 'true_false' ? [] : q.correctAnswers,
    ...(q.type === 'true_false' ? { correctAnswer: q.correctAnswer } : {}),
    explanation: q.explanation,
    order: i + 1,
    points: 1,
  }));

export const draftQuestionsOf = (questions: Question[]): DraftQuestion[] =>
  questions.map((q) => ({
    type: q.type === 'multiple_choice' || q.type === 'true_false' ? q.type : 'single_choice',
    question: q.question,
    options: q.options ?? [],
    correctAnswers: q.correctAnswers ?? [],
    ...(q.correctAnswer === 'true' || q.correctAnswer === 'false' ? { correctAnswer: q.correctAnswer } : {}),
    explanation: q.explanation ?? '',
  }));
