import { seededOrder } from './shuffle';
import type { PlayerQuestion, PresentationSettings, Question, ShownQuestion } from './types';

const identity = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
/** An ordering task, a matching or a labelling shown solved is no task. */
const solvedNever = { avoidIdentity: true };
const BLANK = /_{3,}/g;

/**
 * Fixes, for one attempt (or one learner view), the order of the questions and of their parts.
 * Choice options are shuffled when the quiz says randomizeAnswers (so is the left column of a
 * matching); ordering items, the right column of a matching and the labels of an image are always
 * shuffled, since their order is the answer. Scale points and matrix rows and columns keep the
 * author's order. Every order comes from the seed alone: the same seed gives the same attempt.
 */
export function presentQuestions(questions: Question[], settings: PresentationSettings, seed: string): ShownQuestion[] {
  const sorted = [...questions].sort((a, b) => a.order - b.order);
  const order = settings.randomizeQuestions ? seededOrder(seed, 'questions', sorted.length) : identity(sorted.length);
  return order.map((index) => {
    const q = sorted[index];
    const pairs = q.pairs ?? [];
    const choice = q.type === 'single_choice' || q.type === 'multiple_choice';
    return {
      ...q,
      optionOrder:
        q.type === 'ordering'
          ? seededOrder(seed, `${q.id}:options`, q.options.length, solvedNever)
          : choice && settings.randomizeAnswers
            ? seededOrder(seed, `${q.id}:options`, q.options.length)
            : identity(q.options.length),
      leftOrder:
        q.type === 'matching' && settings.randomizeAnswers
          ? seededOrder(seed, `${q.id}:left`, pairs.length)
          : identity(pairs.length),
      rightOrder:
        q.type === 'matching'
          ? seededOrder(seed, `${q.id}:right`, pairs.length, solvedNever)
          : q.type === 'image_labels'
            ? seededOrder(seed, `${q.id}:labels`, (q.markers ?? []).length, solvedNever)
            : [],
    };
  });
}

/** What the learner's browser receives for a shown question: never anything that tells the answer. */
export function playerQuestion(q: ShownQuestion): PlayerQuestion {
  const base: PlayerQuestion = { id: q.id, type: q.type, question: q.question, options: [] };
  switch (q.type) {
    case 'single_choice':
    case 'multiple_choice':
    case 'ordering':
      return { ...base, options: q.optionOrder.map((i) => q.options[i]) };
    case 'matching': {
      const pairs = q.pairs ?? [];
      return { ...base, left: q.leftOrder.map((i) => pairs[i].left), right: q.rightOrder.map((i) => pairs[i].right) };
    }
    case 'fill_blanks':
      return { ...base, blanksCount: Math.max(q.blanks?.length ?? 0, q.question.match(BLANK)?.length ?? 0) };
    case 'scale':
      return { ...base, options: [...q.options] };
    case 'matrix':
      return { ...base, options: [...q.options], rows: [...(q.rows ?? [])] };
    case 'hotspot':
      return { ...base, image: q.image ?? '', imageAlt: q.imageAlt ?? '' };
    case 'image_labels': {
      const markers = q.markers ?? [];
      return {
        ...base,
        image: q.image ?? '',
        imageAlt: q.imageAlt ?? '',
        markers: markers.map((m) => ({ x: m.x, y: m.y })),
        labels: q.rightOrder.map((i) => markers[i].label),
      };
    }
    default:
      return base;
  }
}

/** A whole quiz as a learner sees it with this seed. */
export const learnerQuestions = (questions: Question[], settings: PresentationSettings, seed: string): PlayerQuestion[] =>
  presentQuestions(questions, settings, seed).map(playerQuestion);
