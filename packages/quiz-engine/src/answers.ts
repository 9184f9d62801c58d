import type { AnswerValue, ShownQuestion } from './types';

/** Nothing chosen or typed. */
export const isBlank = (answer: AnswerValue | undefined): boolean =>
  answer === null ||
  answer === undefined ||
  (typeof answer === 'string' && answer.trim() === '') ||
  (Array.isArray(answer) && (answer.length === 0 || answer.every((v) => typeof v === 'string' && v.trim() === ''))) ||
  (typeof answer === 'object' && !Array.isArray(answer) && Object.keys(answer).length === 0);

const isIndex = (v: unknown, n: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < n;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An answer in the quiz's own terms, or the refusal of one that cannot belong to the question. */
export type Translated = { ok: true; value: AnswerValue } | { ok: false };
const refused: Translated = { ok: false };
const ok = (value: AnswerValue): Translated => ({ ok: true, value });

/** Maps shown index → shown index into stored index → stored index; refused when any is out of range. */
function mapPairs(answer: unknown, leftOrder: number[], rightOrder: number[]): Translated {
  if (!isRecord(answer)) return refused;
  const mapped: Record<string, number> = {};
  for (const [left, right] of Object.entries(answer)) {
    if (!/^\d+$/.test(left) || !isIndex(Number(left), leftOrder.length) || !isIndex(right, rightOrder.length)) return refused;
    mapped[String(leftOrder[Number(left)])] = rightOrder[right];
  }
  return ok(mapped);
}

/** Uploaded files are referenced by the portal's own upload paths, never by a foreign URL. */
export const UPLOAD_PATH = /^\/api\/files\/[\w-]{1,100}(\.[\w]{1,10})?$/;

/**
 * Turns an answer given in the order shown into the quiz's own terms (option indexes of the stored
 * question), refusing one that cannot belong to the question: an index out of range, a list for a
 * single choice, a point off the image, and so on. A blank answer is null.
 */
export function toQuizTerms(q: ShownQuestion, answer: AnswerValue | undefined): Translated {
  if (answer === undefined || isBlank(answer)) return ok(null);
  switch (q.type) {
    case 'single_choice':
      return isIndex(answer, q.optionOrder.length) ? ok(q.optionOrder[answer]) : refused;
    case 'multiple_choice':
      if (!Array.isArray(answer) || !answer.every((v) => isIndex(v, q.optionOrder.length))) return refused;
      return ok([...new Set((answer as number[]).map((v) => q.optionOrder[v]))].sort((a, b) => a - b));
    case 'ordering': {
      const list = answer as number[];
      if (
        !Array.isArray(answer) ||
        list.length !== q.optionOrder.length ||
        new Set(list).size !== list.length ||
        !list.every((v) => isIndex(v, q.optionOrder.length))
      )
        return refused;
      return ok(list.map((v) => q.optionOrder[v]));
    }
    case 'matching':
      return mapPairs(answer, q.leftOrder, q.rightOrder);
    case 'image_labels':
      return mapPairs(
        answer,
        (q.markers ?? []).map((_, i) => i),
        q.rightOrder,
      );
    case 'true_false':
      return answer === 'true' || answer === 'false' ? ok(answer) : refused;
    case 'numeric':
      // Typed text is kept as typed (words grade wrong, never refuse the whole submission).
      return typeof answer === 'string'
        ? ok(answer.trim())
        : typeof answer === 'number' && Number.isFinite(answer)
          ? ok(answer)
          : refused;
    case 'fill_blanks':
      return Array.isArray(answer) && answer.every((v) => typeof v === 'string') ? ok(answer) : refused;
    case 'short_answer':
    case 'long_answer':
      return typeof answer === 'string' ? ok(answer) : refused;
    case 'scale':
      return isIndex(answer, q.options.length) ? ok(answer) : refused;
    case 'matrix': {
      // One column per row: row → column, as a list with a hole (-1 is never sent) for a skipped row.
      const rows = (q.rows ?? []).length;
      if (!isRecord(answer)) return refused;
      const mapped: Record<string, number> = {};
      for (const [row, column] of Object.entries(answer)) {
        if (!/^\d+$/.test(row) || !isIndex(Number(row), rows) || !isIndex(column, q.options.length)) return refused;
        mapped[row] = column;
      }
      return ok(mapped);
    }
    case 'hotspot': {
      if (!isRecord(answer) || Object.keys(answer).length !== 2) return refused;
      const { x, y } = answer as Record<string, unknown>;
      const inside = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100;
      return inside(x) && inside(y) ? ok({ x: x as number, y: y as number }) : refused;
    }
    case 'file_upload':
      return typeof answer === 'string' && UPLOAD_PATH.test(answer) ? ok(answer) : refused;
  }
}
