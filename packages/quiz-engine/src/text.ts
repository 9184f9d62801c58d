import { isBlank } from './answers';
import { ENGINE_MSG, type AnswerValue, type Question } from './types';

const trueFalse = (v: string | undefined) =>
  v === 'true' ? ENGINE_MSG.trueLabel : v === 'false' ? ENGINE_MSG.falseLabel : (v ?? '');
const list = (items: Array<string | undefined>, sep = '; ') => items.filter((s) => s !== undefined).join(sep);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const byKey = (answer: Record<string, unknown>) => Object.entries(answer).sort(([a], [b]) => Number(a) - Number(b));
const percent = (n: number) => `${Math.round(n * 10) / 10}%`;

/** The learner's answer (quiz terms) in words, for the attempt's details and the CSV; null when blank. */
export function answerText(q: Question, answer: AnswerValue | undefined): string | null {
  if (answer === undefined || isBlank(answer)) return null;
  const pairs = q.pairs ?? [];
  switch (q.type) {
    case 'single_choice':
      return typeof answer === 'number' ? (q.options[answer] ?? null) : null;
    case 'multiple_choice':
      return Array.isArray(answer) ? list((answer as number[]).map((i) => q.options[i])) : null;
    case 'ordering':
      return Array.isArray(answer)
        ? list(
            (answer as number[]).map((i) => q.options[i]),
            ' → ',
          )
        : null;
    case 'matching':
      return isRecord(answer)
        ? list(byKey(answer).map(([l, r]) => `${pairs[Number(l)]?.left} — ${pairs[r as number]?.right}`))
        : null;
    case 'true_false':
      return trueFalse(String(answer));
    case 'fill_blanks':
      return Array.isArray(answer) ? list(answer as string[]) : null;
    case 'scale':
      return typeof answer === 'number' ? `${answer + 1}${q.options[answer] ? ` — ${q.options[answer]}` : ''}` : null;
    case 'matrix':
      return isRecord(answer)
        ? list(byKey(answer).map(([row, column]) => `${q.rows?.[Number(row)]} — ${q.options[column as number]}`))
        : null;
    case 'image_labels': {
      const markers = q.markers ?? [];
      return isRecord(answer)
        ? list(byKey(answer).map(([point, label]) => `Точка ${Number(point) + 1} — ${markers[label as number]?.label}`))
        : null;
    }
    case 'hotspot':
      return isRecord(answer)
        ? `Точка: ${percent(Number(answer.x))} по горизонтали, ${percent(Number(answer.y))} по вертикали`
        : null;
    case 'file_upload':
      return typeof answer === 'string' ? (answer.split('/').pop() ?? answer) : null;
    default:
      return String(answer);
  }
}

/** The right answer in words; null where there is none to give (hand-graded, survey, hotspot). */
export function correctAnswerText(q: Question): string | null {
  const pairs = q.pairs ?? [];
  switch (q.type) {
    case 'single_choice':
      return q.correctAnswers.length ? (q.options[q.correctAnswers[0]] ?? null) : null;
    case 'multiple_choice':
      return list([...q.correctAnswers].sort((a, b) => a - b).map((i) => q.options[i]));
    case 'ordering':
      return list(q.options, ' → ');
    case 'matching':
      return list(pairs.map((p) => `${p.left} — ${p.right}`));
    case 'true_false':
      return trueFalse(q.correctAnswer);
    case 'short_answer':
      return q.correctAnswer ?? null;
    case 'numeric':
      return q.tolerance ? `${q.correctAnswer} ± ${q.tolerance}` : (q.correctAnswer ?? null);
    case 'fill_blanks':
      return list(q.blanks ?? []);
    case 'matrix':
      return list((q.rows ?? []).map((row, i) => `${row} — ${q.options[q.correctAnswers[i]]}`));
    case 'image_labels':
      return list((q.markers ?? []).map((m, i) => `Точка ${i + 1} — ${m.label}`));
    default:
      return null;
  }
}
