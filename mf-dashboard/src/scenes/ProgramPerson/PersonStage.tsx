import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useMutation } from '@tanstack/react-query';
import { programExtendSchema, type ProgramPersonDetail, type StageProgress } from '@portal/contracts';
import { Button, ErrorBox, Input, Label, Muted, ProgressBar, Row } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { formatDay } from '@portal/web-core/assignments';
import { extendProgramStage } from '../../api/programs';
import { StageStatusBadge } from '../../components/programs/StageStatusBadge';
import { stageDaysLeftText } from '../../components/programs/format';
import { formatDate, localDay } from '../../format';

interface PersonStageProps {
  assignmentId: string;
  userId: string;
  stage: StageProgress;
  number: number;
  canExtend: boolean;
  onExtended: (detail: ProgramPersonDetail) => void;
}

/** One stage of a person: status, due day and days left, courses with their percent; «Продлить срок этапа». */
export function PersonStage({ assignmentId, userId, stage, number, canExtend, onExtended }: PersonStageProps) {
  const [extending, setExtending] = useState(false);
  const [dueDate, setDueDate] = useState(stage.dueDate ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const extend = useMutation({
    mutationFn: () => extendProgramStage(assignmentId, { userId, stageKey: stage.key, dueDate }),
    onSuccess: (detail) => {
      setExtending(false);
      onExtended(detail);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = programExtendSchema.safeParse({ userId, stageKey: stage.key, dueDate });
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Проверьте дату');
    setProblem(null);
    extend.mutate();
  };
  const left = stage.status === 'completed' ? '' : stageDaysLeftText(stage.daysLeft);

  return (
    <Card aria-label={`Этап ${number}: ${stage.title}`} $overdue={stage.status === 'overdue'}>
      <Row>
        <strong>
          {number}. {stage.title}
        </strong>
        <StageStatusBadge status={stage.status} />
      </Row>
      <Muted>
        {stage.status === 'completed' && stage.completedAt
          ? `пройден ${formatDate(stage.completedAt)}`
          : stage.dueDate
            ? `до ${formatDay(stage.dueDate)}${left ? `, ${left}` : ''}`
            : 'срок начнётся после завершения предыдущего этапа'}
        {stage.opensAfter ? ` · закрыт до завершения этапа «${stage.opensAfter}»` : ''} · пройдено курсов {stage.done} из{' '}
        {stage.required}
        {stage.required < stage.courses.length ? ` (нужно любые ${stage.required} из ${stage.courses.length})` : ''}
      </Muted>
      <Courses aria-label={`Курсы этапа «${stage.title}»`}>
        {stage.courses.map((c) => (
          <li key={c.courseId}>
            <span>
              {c.title}
              {c.completed ? ' ✔' : ''}
            </span>
            <ProgressBar
              name={`Прогресс курса «${c.title}»`}
              value={c.percent}
              size="sm"
              tone={c.completed ? 'success' : 'primary'}
            />
            <Muted as="span">{c.percent}%</Muted>
          </li>
        ))}
      </Courses>
      {canExtend && stage.status !== 'completed' && !extending && (
        <div>
          <Button type="button" $variant="outline" $size="sm" onClick={() => setExtending(true)}>
            Продлить срок этапа
          </Button>
        </div>
      )}
      {extending && (
        <Extend onSubmit={submit} noValidate aria-label={`Продлить срок этапа «${stage.title}»`}>
          <Label>
            Новый срок
            <Input type="date" min={localDay(new Date())} value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
          </Label>
          <Button type="submit" disabled={!dueDate || extend.isPending}>
            Продлить
          </Button>
          <Button type="button" $variant="outline" onClick={() => setExtending(false)}>
            Отмена
          </Button>
        </Extend>
      )}
      {(problem || extend.isError) && <ErrorBox>{problem ?? errorMessage(extend.error, 'Не удалось продлить срок')}</ErrorBox>}
    </Card>
  );
}

const Card = styled.li<{ $overdue: boolean }>`
  display: grid;
  gap: 8px;
  min-width: 0;
  padding: 16px;
  border: 1px solid ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : theme.colors.border)};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
  overflow-wrap: anywhere;
  p {
    margin: 0;
  }
`;

const Courses = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 8px;
  li {
    display: grid;
    grid-template-columns: minmax(0, 2fr) minmax(60px, 1fr) 48px;
    gap: 8px;
    align-items: center;
  }
  li > span:last-child {
    white-space: nowrap;
    text-align: right;
  }
`;

const Extend = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: end;
`;
