import styled from 'styled-components';
import { BLANK_TOKEN, QUESTION_TYPE_LABELS, type Question } from '@portal/contracts';
import { Button, CheckLabel, Input, Label, Muted, Row, Spread, TextArea } from '@portal/ui';
import { AddButton, AnswerFieldset, RemoveButton, replaceAt, RowIndex, StepButton, removeAt } from './answerFields';
import { HotspotFields, ImageLabelsFields, MatrixFields, ScaleFields } from './NewTypeFields';
import { markCorrect, removeOption, setBlankText, shiftOption } from './quizDraft';

interface QuestionFormProps {
  question: Question;
  index: number;
  count: number;
  onChange: (q: Question) => void;
  /** Absent for a question on its own (a bank's): no moving or duplicating. */
  onMove?: (step: -1 | 1) => void;
  onDuplicate?: () => void;
  onRemove: () => void;
  problem?: string | null;
}

/** One question: its text, explanation, and the correctness data of its type. */
export function QuestionForm({ question: q, index, count, onChange, onMove, onDuplicate, onRemove, problem }: QuestionFormProps) {
  const n = index + 1;
  const set = (patch: Partial<Question>) => onChange({ ...q, ...patch });
  return (
    <Card aria-label={`Вопрос ${n}`} data-question-type={q.type} $problem={!!problem}>
      <Spread $gap={8}>
        <strong>
          Вопрос {n} · {QUESTION_TYPE_LABELS[q.type]}
        </strong>
        <Row $gap={4}>
          {onMove && (
            <>
              <StepButton step={-1} disabled={index === 0} onClick={() => onMove(-1)} label={`Переместить вопрос ${n} выше`} />
              <StepButton
                step={1}
                disabled={index === count - 1}
                onClick={() => onMove(1)}
                label={`Переместить вопрос ${n} ниже`}
              />
            </>
          )}
          {onDuplicate && (
            <Button type="button" $variant="ghost" $size="sm" onClick={onDuplicate} aria-label={`Дублировать вопрос ${n}`}>
              Дублировать
            </Button>
          )}
          <Button type="button" $variant="ghost" $size="sm" onClick={onRemove} aria-label={`Удалить вопрос ${n}`}>
            Удалить
          </Button>
        </Row>
      </Spread>
      <Label>
        Текст вопроса
        <TextArea
          rows={2}
          value={q.question}
          onChange={(e) =>
            q.type === 'fill_blanks' ? onChange(setBlankText(q, e.target.value)) : set({ question: e.target.value })
          }
        />
      </Label>
      <TypeFields question={q} n={n} onChange={onChange} />
      <Label>
        Пояснение
        <TextArea
          rows={2}
          value={q.explanation ?? ''}
          placeholder="Покажем ученику после ответа"
          onChange={(e) => set({ explanation: e.target.value || undefined })}
        />
      </Label>
      {problem && <Problem role="alert">{problem}</Problem>}
    </Card>
  );
}

function TypeFields({ question: q, n, onChange }: { question: Question; n: number; onChange: (q: Question) => void }) {
  const set = (patch: Partial<Question>) => onChange({ ...q, ...patch });
  const setOption = (i: number, text: string) => set({ options: replaceAt(q.options, i, text) });
  const addOption = () => set({ options: [...q.options, `Вариант ${q.options.length + 1}`] });

  switch (q.type) {
    case 'single_choice':
    case 'multiple_choice': {
      const single = q.type === 'single_choice';
      return (
        <AnswerFieldset>
          <legend>{single ? 'Варианты ответа (отметьте правильный)' : 'Варианты ответа (отметьте все правильные)'}</legend>
          {q.options.map((option, i) => (
            <FieldRow key={i}>
              <input
                type={single ? 'radio' : 'checkbox'}
                name={`correct-${q.id}`}
                checked={q.correctAnswers.includes(i)}
                onChange={(e) => onChange(markCorrect(q, i, e.target.checked))}
                aria-label={`Вариант ${i + 1} правильный`}
              />
              <Input value={option} onChange={(e) => setOption(i, e.target.value)} aria-label={`Вопрос ${n}, вариант ${i + 1}`} />
              <RemoveButton onClick={() => onChange(removeOption(q, i))} label={`Удалить вариант ${i + 1}`} />
            </FieldRow>
          ))}
          <AddButton onClick={addOption}>Добавить вариант</AddButton>
        </AnswerFieldset>
      );
    }
    case 'true_false':
      return (
        <AnswerFieldset>
          <legend>Правильный ответ</legend>
          <FieldRow>
            {(['true', 'false'] as const).map((value) => (
              <CheckLabel key={value}>
                <input
                  type="radio"
                  name={`tf-${q.id}`}
                  checked={q.correctAnswer === value}
                  onChange={() => set({ correctAnswer: value })}
                />
                {value === 'true' ? 'Верно' : 'Неверно'}
              </CheckLabel>
            ))}
          </FieldRow>
        </AnswerFieldset>
      );
    case 'ordering':
      return (
        <AnswerFieldset>
          <legend>Элементы в правильном порядке</legend>
          <Muted>Ученик увидит их перемешанными и должен будет восстановить этот порядок.</Muted>
          {q.options.map((option, i) => (
            <FieldRow key={i}>
              <RowIndex>{i + 1}.</RowIndex>
              <Input value={option} onChange={(e) => setOption(i, e.target.value)} aria-label={`Вопрос ${n}, элемент ${i + 1}`} />
              <StepButton
                step={-1}
                disabled={i === 0}
                onClick={() => onChange(shiftOption(q, i, -1))}
                label={`Элемент ${i + 1} выше`}
              />
              <StepButton
                step={1}
                disabled={i === q.options.length - 1}
                onClick={() => onChange(shiftOption(q, i, 1))}
                label={`Элемент ${i + 1} ниже`}
              />
              <RemoveButton onClick={() => onChange(removeOption(q, i))} label={`Удалить элемент ${i + 1}`} />
            </FieldRow>
          ))}
          <AddButton onClick={addOption}>Добавить элемент</AddButton>
        </AnswerFieldset>
      );
    case 'matching': {
      const pairs = q.pairs ?? [];
      const setPair = (i: number, side: 'left' | 'right', text: string) =>
        set({ pairs: replaceAt(pairs, i, { ...pairs[i], [side]: text }) });
      return (
        <AnswerFieldset>
          <legend>Пары (правильные соответствия)</legend>
          <Muted>Правая колонка будет показана ученику в другом порядке.</Muted>
          {pairs.map((pair, i) => (
            <FieldRow key={i}>
              <Input
                value={pair.left}
                onChange={(e) => setPair(i, 'left', e.target.value)}
                aria-label={`Вопрос ${n}, пара ${i + 1}, левая часть`}
              />
              <span aria-hidden="true">→</span>
              <Input
                value={pair.right}
                onChange={(e) => setPair(i, 'right', e.target.value)}
                aria-label={`Вопрос ${n}, пара ${i + 1}, правая часть`}
              />
              <RemoveButton onClick={() => set({ pairs: removeAt(pairs, i) })} label={`Удалить пару ${i + 1}`} />
            </FieldRow>
          ))}
          <AddButton
            onClick={() =>
              set({ pairs: [...pairs, { left: `Вариант ${pairs.length + 1}`, right: `Ответ ${pairs.length + 1}` }] })
            }
          >
            Добавить пару
          </AddButton>
        </AnswerFieldset>
      );
    }
    case 'fill_blanks': {
      const blanks = q.blanks ?? [];
      return (
        <AnswerFieldset>
          <legend>Пропуски</legend>
          <Muted>Отметьте каждый пропуск в тексте вопроса знаками {BLANK_TOKEN} и введите для него правильный ответ.</Muted>
          <AddButton onClick={() => onChange(setBlankText(q, `${q.question.trimEnd()} ${BLANK_TOKEN}`))}>
            Вставить пропуск
          </AddButton>
          {blanks.map((blank, i) => (
            <Label key={i}>
              {`Ответ для пропуска ${i + 1}`}
              <Input value={blank} onChange={(e) => set({ blanks: replaceAt(blanks, i, e.target.value) })} />
            </Label>
          ))}
        </AnswerFieldset>
      );
    }
    case 'short_answer':
      return (
        <Label>
          Правильный ответ
          <Input value={q.correctAnswer ?? ''} onChange={(e) => set({ correctAnswer: e.target.value })} />
          <Muted as="span">Сравнивается без учёта регистра и пробелов по краям.</Muted>
        </Label>
      );
    case 'long_answer':
      return <Muted>Развёрнутый ответ ученик пишет своими словами; автоматически он не оценивается.</Muted>;
    case 'numeric':
      return (
        <FieldRow>
          <Label>
            Правильное значение
            <Input inputMode="decimal" value={q.correctAnswer ?? ''} onChange={(e) => set({ correctAnswer: e.target.value })} />
          </Label>
          <Label>
            Допустимая погрешность
            <Input
              type="number"
              min={0}
              step="any"
              value={q.tolerance ?? 0}
              onChange={(e) => set({ tolerance: e.target.value === '' ? 0 : Math.max(0, Number(e.target.value)) })}
            />
          </Label>
        </FieldRow>
      );
    case 'scale':
      return <ScaleFields question={q} n={n} onChange={onChange} />;
    case 'matrix':
      return <MatrixFields question={q} n={n} onChange={onChange} />;
    case 'hotspot':
      return <HotspotFields question={q} n={n} onChange={onChange} />;
    case 'image_labels':
      return <ImageLabelsFields question={q} n={n} onChange={onChange} />;
    case 'file_upload':
      return <Muted>Ученик загрузит файл с ответом; его оценивает куратор, автоматически он не оценивается.</Muted>;
    default:
      return null;
  }
}

const Card = styled.fieldset<{ $problem: boolean }>`
  display: grid;
  gap: 10px;
  margin: 0;
  padding: 14px;
  min-width: 0;
  border: 1px solid ${({ theme, $problem }) => ($problem ? theme.colors.danger : theme.colors.border)};
  border-radius: ${({ theme }) => theme.radius};
  p {
    margin: 0;
    font-size: 13px;
  }
`;
const FieldRow = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  > label {
    flex: 1;
  }
`;
const Problem = styled.p`
  color: ${({ theme }) => theme.colors.danger};
`;
