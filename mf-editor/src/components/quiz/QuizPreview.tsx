import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { QUIZ_MSG, isAnswerCorrect, scoreAttempt, type AnswerValue, type Question, type QuizSettings } from '@portal/contracts';
import { Button, Input, Label, Muted, Select } from '@portal/ui';
import { Check, TextArea } from '../lesson/BlockProperties';

const PREVIEWABLE = new Set([
  'single_choice',
  'multiple_choice',
  'true_false',
  'ordering',
  'matching',
  'fill_blanks',
  'short_answer',
  'long_answer',
  'numeric',
]);

/** A random order that is not the original one (for two items or more). */
function shuffled(n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  if (n > 1 && order.every((v, i) => v === i)) order.push(order.shift() as number);
  return order;
}

/** Spec section 5: select items never have an empty value; 'nothing chosen' has a name of its own. */
const NONE = 'none';

const countdown = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

interface QuizPreviewProps {
  questions: Question[];
  settings: QuizSettings;
  onClose: () => void;
}

/**
 * The quiz as a learner will take it, in preview mode (spec section 2): one question at a time,
 * free navigation, 'Завершить квиз' on the last, a countdown when there is a time limit. Nothing
 * is reported anywhere.
 */
export function QuizPreview({ questions, settings, onClose }: QuizPreviewProps) {
  const [order] = useState(() => (settings.randomizeQuestions ? shuffled(questions.length) : questions.map((_, i) => i)));
  const [layouts] = useState(() =>
    Object.fromEntries(questions.map((q) => [q.id, shuffled(q.type === 'matching' ? (q.pairs ?? []).length : q.options.length)])),
  );
  const [answers, setAnswers] = useState<Record<string, AnswerValue>>(() =>
    Object.fromEntries(questions.filter((q) => q.type === 'ordering').map((q) => [q.id, layouts[q.id]])),
  );
  const [index, setIndex] = useState(0);
  const [finished, setFinished] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(settings.timeLimit ? Math.round(settings.timeLimit * 60) : null);

  useEffect(() => {
    if (secondsLeft === null || finished) return;
    if (secondsLeft <= 0) {
      setFinished(true);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((s) => (s === null ? s : s - 1)), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, finished]);

  if (!questions.length) {
    return (
      <Box>
        <Muted>В квизе пока нет вопросов.</Muted>
        <Button type="button" $variant="outline" onClick={onClose}>
          Вернуться к редактированию
        </Button>
      </Box>
    );
  }

  const shown = order.map((i) => questions[i]);
  if (finished) {
    const correct = shown.filter((q) => isAnswerCorrect(q, answers[q.id] ?? null)).length;
    const result = scoreAttempt(correct, shown.length, settings.passingScore);
    return (
      <Box aria-label="Результат предпросмотра">
        <h3>{result.status === 'passed' ? 'Квиз пройден!' : 'Квиз не пройден'}</h3>
        <p>
          Ваш результат: {result.score} из {result.maxScore} ({result.percentage}%)
        </p>
        {result.status === 'failed' && <p>Для прохождения требуется {settings.passingScore}%</p>}
        <Muted>Предпросмотр: результат не сохраняется.</Muted>
        {settings.showExplanations !== 'after_course' && (
          <Results>
            {shown.map((q, i) => {
              const ok = isAnswerCorrect(q, answers[q.id] ?? null);
              return (
                <li key={q.id}>
                  <span aria-label={ok ? 'Верно' : 'Неверно'}>{ok ? '✔' : '✖'}</span> {i + 1}. {q.question}
                  {q.explanation && <Muted as="span"> — {q.explanation}</Muted>}
                </li>
              );
            })}
          </Results>
        )}
        <Row>
          <Button type="button" $variant="outline" onClick={onClose}>
            Вернуться к редактированию
          </Button>
        </Row>
      </Box>
    );
  }

  const q = shown[index];
  const answer = answers[q.id] ?? null;
  const setAnswer = (value: AnswerValue) => setAnswers((a) => ({ ...a, [q.id]: value }));
  const last = index === shown.length - 1;

  return (
    <Box aria-label="Предпросмотр квиза">
      <Row>
        <Muted as="span">
          Вопрос {index + 1} из {shown.length}
        </Muted>
        {secondsLeft !== null && (
          <Timer role="timer" aria-label="Осталось времени">
            {countdown(secondsLeft)}
          </Timer>
        )}
      </Row>
      <h3>{q.question}</h3>
      {PREVIEWABLE.has(q.type) ? (
        <AnswerInput
          question={q}
          layout={layouts[q.id]}
          answer={answer}
          randomize={settings.randomizeAnswers}
          onAnswer={setAnswer}
        />
      ) : (
        <Muted>{QUIZ_MSG.unsupportedInPreview}</Muted>
      )}
      <Nav aria-label="Вопросы">
        {shown.map((item, i) => (
          <Button
            key={item.id}
            type="button"
            $size="sm"
            $variant={i === index ? 'default' : 'outline'}
            aria-current={i === index ? 'step' : undefined}
            aria-label={`Вопрос ${i + 1}`}
            onClick={() => setIndex(i)}
          >
            {i + 1}
          </Button>
        ))}
      </Nav>
      <Row>
        <Button type="button" $variant="outline" disabled={index === 0} onClick={() => setIndex(index - 1)}>
          Назад
        </Button>
        {last ? (
          <Button type="button" onClick={() => setFinished(true)}>
            Завершить квиз
          </Button>
        ) : (
          <Button type="button" onClick={() => setIndex(index + 1)}>
            Далее
          </Button>
        )}
      </Row>
    </Box>
  );
}

interface AnswerInputProps {
  question: Question;
  layout: number[];
  answer: AnswerValue;
  randomize: boolean;
  onAnswer: (value: AnswerValue) => void;
}

function AnswerInput({ question: q, layout, answer, randomize, onAnswer }: AnswerInputProps) {
  switch (q.type) {
    case 'single_choice':
    case 'multiple_choice': {
      const shownOptions = randomize ? layout : q.options.map((_, i) => i);
      const chosen = Array.isArray(answer) ? (answer as number[]) : typeof answer === 'number' ? [answer] : [];
      return (
        <Options>
          {shownOptions.map((i) => (
            <Check key={i}>
              <input
                type={q.type === 'single_choice' ? 'radio' : 'checkbox'}
                name={`preview-${q.id}`}
                checked={chosen.includes(i)}
                onChange={(e) =>
                  onAnswer(q.type === 'single_choice' ? i : e.target.checked ? [...chosen, i] : chosen.filter((c) => c !== i))
                }
              />
              {q.options[i]}
            </Check>
          ))}
        </Options>
      );
    }
    case 'true_false':
      return (
        <Options>
          {(['true', 'false'] as const).map((v) => (
            <Check key={v}>
              <input type="radio" name={`preview-${q.id}`} checked={answer === v} onChange={() => onAnswer(v)} />
              {v === 'true' ? 'Верно' : 'Неверно'}
            </Check>
          ))}
        </Options>
      );
    case 'ordering': {
      const arrangement = (answer as number[] | null) ?? layout;
      const move = (at: number, step: -1 | 1) => {
        const next = [...arrangement];
        [next[at], next[at + step]] = [next[at + step], next[at]];
        onAnswer(next);
      };
      return (
        <Options as="ol">
          {arrangement.map((original, at) => (
            <li key={original}>
              <span>{q.options[original]}</span>
              <Button
                type="button"
                $variant="ghost"
                $size="sm"
                disabled={at === 0}
                onClick={() => move(at, -1)}
                aria-label={`«${q.options[original]}» выше`}
              >
                ↑
              </Button>
              <Button
                type="button"
                $variant="ghost"
                $size="sm"
                disabled={at === arrangement.length - 1}
                onClick={() => move(at, 1)}
                aria-label={`«${q.options[original]}» ниже`}
              >
                ↓
              </Button>
            </li>
          ))}
        </Options>
      );
    }
    case 'matching': {
      const pairs = q.pairs ?? [];
      const map = (answer as Record<string, number> | null) ?? {};
      return (
        <Options>
          {pairs.map((pair, i) => (
            <Label key={i}>
              {pair.left}
              <Select value={map[String(i)] ?? NONE} onChange={(e) => onAnswer({ ...map, [String(i)]: Number(e.target.value) })}>
                <option value={NONE} disabled>
                  Выберите соответствие
                </option>
                {layout.map((original) => (
                  <option key={original} value={original}>
                    {pairs[original].right}
                  </option>
                ))}
              </Select>
            </Label>
          ))}
        </Options>
      );
    }
    case 'fill_blanks': {
      const values = (answer as string[] | null) ?? Array.from({ length: (q.blanks ?? []).length }, () => '');
      return (
        <Options>
          {values.map((v, i) => (
            <Label key={i}>
              Пропуск {i + 1}
              <Input value={v} onChange={(e) => onAnswer(values.map((x, j) => (j === i ? e.target.value : x)))} />
            </Label>
          ))}
        </Options>
      );
    }
    case 'long_answer':
      return (
        <Label>
          Ваш ответ
          <TextArea rows={4} value={(answer as string) ?? ''} onChange={(e) => onAnswer(e.target.value)} />
        </Label>
      );
    default:
      return (
        <Label>
          Ваш ответ
          <Input
            value={(answer as string) ?? ''}
            inputMode={q.type === 'numeric' ? 'decimal' : undefined}
            onChange={(e) => onAnswer(e.target.value)}
          />
        </Label>
      );
  }
}

const Box = styled.section`
  display: grid;
  gap: 14px;
  h3 {
    margin: 0;
    font-size: 18px;
  }
  p {
    margin: 0;
  }
`;
const Row = styled.div`
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 8px;
  flex-wrap: wrap;
`;
const Nav = styled.nav`
  display: flex;
  gap: 6px;
  flex-wrap: wrap;
`;
const Timer = styled.span`
  font-variant-numeric: tabular-nums;
  font-weight: 700;
`;
const Options = styled.div`
  display: grid;
  gap: 8px;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    align-items: center;
    gap: 6px;
  }
  li span {
    flex: 1;
  }
`;
const Results = styled.ul`
  margin: 0;
  padding-left: 18px;
  display: grid;
  gap: 4px;
`;
