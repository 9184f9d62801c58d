import styled from 'styled-components';
import {
  SCORING_LABELS,
  SCORING_MODES,
  SHOW_CORRECT_ANSWERS,
  SHOW_EXPLANATIONS,
  type ScoringMode,
  type ShowCorrectAnswers,
  type ShowExplanations,
} from '@portal/contracts';
import { Input, Label, Muted, Select } from '@portal/ui';
import { Check } from '../Check';
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

/** Spec section 5: pass mark 0–100 (empty is 0), attempts 1–10 (empty is 1), time limit in minutes ≥ 0 (empty is none). */
export function SettingsForm({ value, onChange }: { value: Settings; onChange: (patch: Partial<Settings>) => void }) {
  return (
    <Grid>
      <Check>
        <input
          type="checkbox"
          checked={value.randomizeQuestions}
          onChange={(e) => onChange({ randomizeQuestions: e.target.checked })}
        />
        Перемешивать вопросы
      </Check>
      <Check>
        <input
          type="checkbox"
          checked={value.randomizeAnswers}
          onChange={(e) => onChange({ randomizeAnswers: e.target.checked })}
        />
        Перемешивать варианты ответов
      </Check>
      <Label>
        Проходной балл, %
        <Input
          type="number"
          min={0}
          max={100}
          value={value.passingScore}
          onChange={(e) => onChange({ passingScore: e.target.value })}
        />
      </Label>
      <Label>
        Количество попыток
        <Input
          type="number"
          min={1}
          max={10}
          value={value.maxAttempts}
          onChange={(e) => onChange({ maxAttempts: e.target.value })}
        />
      </Label>
      <Label>
        Ограничение времени, мин
        <Input
          type="number"
          min={0}
          value={value.timeLimit}
          placeholder="Без ограничения"
          onChange={(e) => onChange({ timeLimit: e.target.value })}
        />
      </Label>
      <Label>
        Показывать пояснения
        <Select
          value={value.showExplanations}
          onChange={(e) => onChange({ showExplanations: e.target.value as ShowExplanations })}
        >
          {SHOW_EXPLANATIONS.map((s) => (
            <option key={s} value={s}>
              {EXPLANATION_LABELS[s]}
            </option>
          ))}
        </Select>
      </Label>
      <Label>
        Показывать правильные ответы
        <Select
          value={value.showCorrectAnswers}
          onChange={(e) => onChange({ showCorrectAnswers: e.target.value as ShowCorrectAnswers })}
        >
          {SHOW_CORRECT_ANSWERS.map((s) => (
            <option key={s} value={s}>
              {CORRECT_ANSWERS_LABELS[s]}
            </option>
          ))}
        </Select>
      </Label>
      <Label>
        Начисление баллов
        <Select value={value.scoring} onChange={(e) => onChange({ scoring: e.target.value as ScoringMode })}>
          {SCORING_MODES.map((s) => (
            <option key={s} value={s}>
              {SCORING_LABELS[s]}
            </option>
          ))}
        </Select>
      </Label>
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
