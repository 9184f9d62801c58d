import { Fragment, useId, useState } from 'react';
import styled from 'styled-components';
import {
  BLANK_TOKEN,
  PLAYER_QUESTION_TYPES,
  PROGRESS_MSG,
  QUIZ_MSG,
  type AnswerValue,
  type PlayerQuestion,
} from '@portal/contracts';
import { BoxList, Button, Input, Select, Stack, TextArea } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { uploadAnswerFile } from '../api/player';
import { HotspotInput, ImageLabelsInput } from './ImageQuestionInputs';

interface QuestionInputProps {
  question: PlayerQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  preview: boolean;
  disabled?: boolean;
  /** The quiz being taken: an answer file names it (absent in a preview, which uploads nothing). */
  quizId?: string;
}

/**
 * The answer control of one question, by type. Indexes are those of the options as shown; the
 * server maps them back to the quiz's own order.
 */
export function QuestionInput({ question: q, value, onChange, preview, disabled = false, quizId }: QuestionInputProps) {
  const name = useId();
  if (!PLAYER_QUESTION_TYPES.includes(q.type)) {
    return <Note role="note">{preview ? QUIZ_MSG.unsupportedInPreview : PROGRESS_MSG.unsupportedType}</Note>;
  }
  switch (q.type) {
    case 'single_choice':
      return (
        <Choices>
          {q.options.map((option, i) => (
            <Choice key={i}>
              <input type="radio" name={name} checked={value === i} disabled={disabled} onChange={() => onChange(i)} />
              <span>{option}</span>
            </Choice>
          ))}
        </Choices>
      );
    case 'multiple_choice': {
      const chosen = Array.isArray(value) ? (value as number[]) : [];
      return (
        <Choices>
          {q.options.map((option, i) => (
            <Choice key={i}>
              <input
                type="checkbox"
                checked={chosen.includes(i)}
                disabled={disabled}
                onChange={(e) =>
                  onChange(e.target.checked ? [...chosen, i].sort((a, b) => a - b) : chosen.filter((v) => v !== i))
                }
              />
              <span>{option}</span>
            </Choice>
          ))}
        </Choices>
      );
    }
    case 'true_false':
      return (
        <Choices>
          {(['true', 'false'] as const).map((v) => (
            <Choice key={v}>
              <input type="radio" name={name} checked={value === v} disabled={disabled} onChange={() => onChange(v)} />
              <span>{v === 'true' ? PROGRESS_MSG.trueLabel : PROGRESS_MSG.falseLabel}</span>
            </Choice>
          ))}
        </Choices>
      );
    case 'short_answer':
    case 'numeric':
      return (
        <Input
          aria-label={PROGRESS_MSG.yourAnswer}
          inputMode={q.type === 'numeric' ? 'decimal' : undefined}
          value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'long_answer':
      return (
        <TextArea
          aria-label={PROGRESS_MSG.yourAnswer}
          rows={6}
          value={typeof value === 'string' ? value : ''}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'ordering':
      return (
        <Ordering
          options={q.options}
          value={Array.isArray(value) ? (value as number[]) : null}
          onChange={onChange}
          disabled={disabled}
        />
      );
    case 'matching': {
      const map = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, number>) : {};
      return (
        <Pairs>
          {(q.left ?? []).map((left, i) => (
            <Fragment key={i}>
              <span id={`${name}-l${i}`}>{left}</span>
              <Select
                aria-labelledby={`${name}-l${i}`}
                value={map[String(i)] ?? ''}
                disabled={disabled}
                onChange={(e) => {
                  const next = { ...map };
                  if (e.target.value === '') delete next[String(i)];
                  else next[String(i)] = Number(e.target.value);
                  onChange(next);
                }}
              >
                <option value="">— выберите —</option>
                {(q.right ?? []).map((right, j) => (
                  <option key={j} value={j}>
                    {right}
                  </option>
                ))}
              </Select>
            </Fragment>
          ))}
        </Pairs>
      );
    }
    case 'fill_blanks': {
      const count = q.blanksCount ?? 0;
      const parts = q.question.split(BLANK_TOKEN);
      const filled = Array.isArray(value) ? (value as string[]) : Array.from({ length: count }, () => '');
      const set = (i: number, text: string) =>
        onChange(Array.from({ length: count }, (_, k) => (k === i ? text : (filled[k] ?? ''))));
      return (
        <Blanks>
          {parts.map((part, i) => (
            <Fragment key={i}>
              <span>{part}</span>
              {i < count && (
                <BlankInput
                  aria-label={`Пропуск ${i + 1}`}
                  value={filled[i] ?? ''}
                  disabled={disabled}
                  onChange={(e) => set(i, e.target.value)}
                />
              )}
            </Fragment>
          ))}
        </Blanks>
      );
    }
    case 'scale':
      return (
        <Choices role="radiogroup" aria-label={q.question}>
          {q.options.map((label, i) => (
            <Choice key={i}>
              <input type="radio" name={name} checked={value === i} disabled={disabled} onChange={() => onChange(i)} />
              <span>
                {i + 1}
                {label ? ` — ${label}` : ''}
              </span>
            </Choice>
          ))}
        </Choices>
      );
    case 'matrix': {
      const map = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, number>) : {};
      return (
        <Matrix>
          <thead>
            <tr>
              <td />
              {q.options.map((column, j) => (
                <th key={j} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(q.rows ?? []).map((row, i) => (
              <tr key={i} role="radiogroup" aria-label={row}>
                <th scope="row">{row}</th>
                {q.options.map((column, j) => (
                  <td key={j}>
                    <input
                      type="radio"
                      name={`${name}-r${i}`}
                      aria-label={`${row}: ${column}`}
                      checked={map[String(i)] === j}
                      disabled={disabled}
                      onChange={() => onChange({ ...map, [String(i)]: j })}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </Matrix>
      );
    }
    case 'hotspot':
      return <HotspotInput question={q} value={value} onChange={onChange} disabled={disabled} />;
    case 'image_labels':
      return <ImageLabelsInput question={q} value={value} onChange={onChange} disabled={disabled} />;
    case 'file_upload':
      return (
        <FileAnswer
          value={typeof value === 'string' ? value : null}
          onChange={onChange}
          disabled={disabled}
          preview={preview || !quizId}
          quizId={quizId ?? ''}
        />
      );
    default:
      return null;
  }
}

export const FILE_ANSWER_MSG = {
  label: 'Файл с ответом',
  uploading: 'Загрузка...',
  uploaded: (name: string) => `Загружен файл: ${name}`,
  hint: 'Файл проверит куратор; до проверки ответ не оценивается.',
  preview: 'В предпросмотре файл не загружается: отмечено только его имя.',
  failed: 'Не удалось загрузить файл',
} as const;

/** file_upload: the file goes where other uploads go (checked the same way); the answer is its address. */
function FileAnswer({
  value,
  onChange,
  disabled,
  preview,
  quizId,
}: {
  value: string | null;
  onChange: (v: AnswerValue) => void;
  disabled: boolean;
  preview: boolean;
  quizId: string;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (preview) {
      setName(file.name);
      onChange(`/api/files/preview.${file.name.split('.').pop()?.replace(/\W/g, '') || 'bin'}`);
      return;
    }
    setBusy(true);
    try {
      const uploaded = await uploadAnswerFile(file, quizId);
      setName(uploaded.originalName);
      onChange(uploaded.url);
    } catch (err) {
      setProblem(errorMessage(err, FILE_ANSWER_MSG.failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Choices>
      <label>
        {FILE_ANSWER_MSG.label}
        <Input
          type="file"
          disabled={disabled || busy}
          onChange={(e) => {
            void choose(e.currentTarget.files?.[0]);
            e.currentTarget.value = '';
          }}
        />
      </label>
      <Small role={problem ? 'alert' : 'status'}>
        {busy
          ? FILE_ANSWER_MSG.uploading
          : (problem ??
            (value
              ? FILE_ANSWER_MSG.uploaded(name ?? value.split('/').pop() ?? value)
              : preview
                ? FILE_ANSWER_MSG.preview
                : FILE_ANSWER_MSG.hint))}
      </Small>
    </Choices>
  );
}

/** Ordering with buttons, which every keyboard and screen reader can use. */
function Ordering({
  options,
  value,
  onChange,
  disabled,
}: {
  options: string[];
  value: number[] | null;
  onChange: (v: number[]) => void;
  disabled: boolean;
}) {
  const order = value ?? options.map((_, i) => i);
  const move = (from: number, to: number) => {
    const next = [...order];
    [next[from], next[to]] = [next[to], next[from]];
    onChange(next);
  };
  return (
    <OrderList>
      {order.map((optionIndex, position) => (
        <li key={optionIndex}>
          <span>
            {position + 1}. {options[optionIndex]}
          </span>
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            disabled={disabled || position === 0}
            aria-label={`Выше: ${options[optionIndex]}`}
            onClick={() => move(position, position - 1)}
          >
            ↑
          </Button>
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            disabled={disabled || position === order.length - 1}
            aria-label={`Ниже: ${options[optionIndex]}`}
            onClick={() => move(position, position + 1)}
          >
            ↓
          </Button>
        </li>
      ))}
    </OrderList>
  );
}

const Choices = styled(Stack).attrs({ $gap: 8 })``;
const Choice = styled.label`
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 12px 14px;
  cursor: pointer;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  &:has(input:checked) {
    border-color: ${({ theme }) => theme.colors.primary};
    background: ${({ theme }) => theme.colors.surfaceAlt};
  }
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
`;
const Pairs = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  align-items: center;
  gap: 8px 16px;
  /* A phone: each item above its dropdown, which takes the whole width («— выберите —» is never cut). */
  @media (max-width: 640px) {
    grid-template-columns: minmax(0, 1fr);
    gap: 4px;
    select {
      margin-bottom: 8px;
    }
  }
`;
const Blanks = styled.p`
  line-height: 2.4;
  margin: 0;
`;
const BlankInput = styled(Input)`
  display: inline-block;
  width: 160px;
  height: 34px;
  margin: 0 6px;
`;
const OrderList = styled(BoxList).attrs({ as: 'ol' })`
  > li {
    display: grid;
    grid-template-columns: 1fr auto auto;
    align-items: center;
    gap: 8px;
    padding: 8px 12px;
  }
`;
const Matrix = styled.table`
  border-collapse: collapse;
  th,
  td {
    padding: 8px 10px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    text-align: center;
  }
  th[scope='row'] {
    text-align: left;
    font-weight: 500;
  }
  input {
    width: 18px;
    height: 18px;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
`;
const Small = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
`;
const Note = styled.p`
  margin: 0;
  padding: 12px 14px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  color: ${({ theme }) => theme.colors.muted};
`;
