import type { InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import {
  SCORING_LABELS,
  SCORING_MODES,
  SHOW_CORRECT_ANSWERS,
  SHOW_EXPLANATIONS,
  type ShowCorrectAnswers,
  type ShowExplanations,
} from '@portal/contracts';
import { CheckLabel, CodeSelect, Input, Label, Muted } from '@portal/ui';
import type { SettingsForm as Settings } from './quizDraft';

const EXPLANATION_LABELS: Record<ShowExplanations, string> = {
  immediately: 'Сразу после ответа',
  after_submission: 'После завершения квиза',
  after_course: 'После прохождения курса',
};

const CORRECT_ANSWERS_LABELS: Record<ShowCorrectAnswers, string> = {
  after_each_attempt: 'После каждой попытки',
  after_pass_or_last: 'После успешной или последней попытки',
  never: 'Никогда',
};

type Choice = 'showExplanations' | 'showCorrectAnswers' | 'scoring';

/** Pass mark 0–100 (empty is 0), attempts 1–10 (empty is 1), time limit in minutes ≥ 0 (empty is none). */
export function SettingsForm({ value, onChange }: { value: Settings; onChange: (patch: Partial<Settings>) => void }) {
  const check = (key: 'randomizeQuestions' | 'randomizeAnswers', label: string) => (
    <CheckLabel>
      <input type="checkbox" checked={value[key]} onChange={(e) => onChange({ [key]: e.target.checked })} />
      {label}
    </CheckLabel>
  );
  const number = (
    key: 'passingScore' | 'maxAttempts' | 'timeLimit',
    label: string,
    limits: InputHTMLAttributes<HTMLInputElement>,
  ) => (
    <Label>
      {label}
      <Input type="number" {...limits} value={value[key]} onChange={(e) => onChange({ [key]: e.target.value })} />
    </Label>
  );
  const choice = <K extends Choice>(
    key: K,
    label: string,
    codes: readonly Settings[K][],
    labels: Record<Settings[K], string>,
  ) => (
    <Label>
      {label}
      <CodeSelect value={value[key]} codes={codes} labels={labels} onValue={(code) => onChange({ [key]: code })} />
    </Label>
  );
  return (
    <Grid>
      {check('randomizeQuestions', 'Перемешивать вопросы')}
      {check('randomizeAnswers', 'Перемешивать варианты ответов')}
      {number('passingScore', 'Проходной балл, %', { min: 0, max: 100 })}
      {number('maxAttempts', 'Количество попыток', { min: 1, max: 10 })}
      {number('timeLimit', 'Ограничение времени, мин', { min: 0, placeholder: 'Без ограничения' })}
      {choice('showExplanations', 'Показывать пояснения', SHOW_EXPLANATIONS, EXPLANATION_LABELS)}
      {choice('showCorrectAnswers', 'Показывать правильные ответы', SHOW_CORRECT_ANSWERS, CORRECT_ANSWERS_LABELS)}
      {choice('scoring', 'Начисление баллов', SCORING_MODES, SCORING_LABELS)}
      <Muted>
        «Пропорционально» даёт часть баллов вопроса за частично верный ответ: в выборе нескольких вариантов, порядке,
        сопоставлении, пропусках, матрице и подписях к изображению.
      </Muted>
      <Muted>
        Пустой проходной балл считается равным 0, пустое число попыток — 1, пустое ограничение времени — без ограничения.
      </Muted>
    </Grid>
  );
}

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: 14px;
  align-items: end;
  p {
    grid-column: 1 / -1;
    margin: 0;
    font-size: 13px;
  }
  @media (max-width: 640px) {
    grid-template-columns: 1fr;
  }
`;
