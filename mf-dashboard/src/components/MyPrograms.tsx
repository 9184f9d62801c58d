import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { PROGRAM_PERSON_STATUS_LABELS, type MyProgramSummary } from '@portal/contracts';
import { Badge, Card, LoadError, PlainList, ProgressBar, Spread } from '@portal/ui';
import { paths } from '@portal/web-core';
import { MY_PROGRAMS_ON_DASHBOARD, fetchMyPrograms, myProgramKeys } from '../api/myPrograms';
import { AppLink } from '../scenes/MyProgram/AppLink';
import { PROGRAM_STATUS_TONES, STAGE_STATUS_TONES, stageDueText, stageStatusText } from '../scenes/MyProgram/stageText';
import { ProgressLine } from './programs/layout';

/**
 * «Мои программы» on a learner's dashboard, beside «Мои назначения»: each program's current stage and
 * its deadline. A learner without programs sees nothing of it (no empty box), nor while it loads.
 */
export function MyPrograms() {
  const list = useQuery({
    queryKey: myProgramKeys.list(1, MY_PROGRAMS_ON_DASHBOARD),
    queryFn: ({ signal }) => fetchMyPrograms(1, MY_PROGRAMS_ON_DASHBOARD, signal),
  });
  if (list.isPending || (list.data && !list.data.data.length)) return null;
  return (
    <Section aria-labelledby="dashboard-programs" data-testid="my-programs">
      <Head $align="baseline" $wrap={false}>
        <h2 id="dashboard-programs">Мои программы</h2>
        <AppLink href={paths.myPrograms()}>Все программы</AppLink>
      </Head>
      {list.isError ? (
        <LoadError title="Не удалось загрузить программы" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <PlainList $gap={16}>
          {list.data.data.map((p) => (
            <li key={p.assignmentId}>
              <ProgramLine program={p} />
            </li>
          ))}
        </PlainList>
      )}
    </Section>
  );
}

/** One program of the learner: its title, the stage they are on with its deadline, and the stages done. */
export function ProgramLine({ program }: { program: MyProgramSummary }) {
  const stage = program.currentStage;
  const percent = program.stageCount ? (program.stagesCompleted / program.stageCount) * 100 : 0;
  const doneText = `Пройдено этапов: ${program.stagesCompleted} из ${program.stageCount}`;
  return (
    <Line data-testid="program-line" data-status={program.status}>
      <Title href={paths.myProgram(program.assignmentId)}>{program.title}</Title>
      {stage ? (
        <>
          <StageLine>
            <span>
              Этап {Math.min(program.stagesCompleted + 1, program.stageCount)} из {program.stageCount}: {stage.title}
            </span>
            <Badge $tone={STAGE_STATUS_TONES[stage.status]}>{stageStatusText({ status: stage.status, opensAfter: null })}</Badge>
          </StageLine>
          <Due $overdue={stage.status === 'overdue'}>{stageDueText(stage)}</Due>
        </>
      ) : (
        <StageLine>
          <Badge $tone={PROGRAM_STATUS_TONES[program.status]}>{PROGRAM_PERSON_STATUS_LABELS[program.status]}</Badge>
        </StageLine>
      )}
      <ProgressLine>
        <ProgressBar
          name={`Программа «${program.title}»`}
          value={percent}
          valueText={doneText}
          size="sm"
          tone={program.status === 'completed' ? 'success' : program.status === 'overdue' ? 'danger' : 'primary'}
        />
        {/* The bar's own text says it to a screen reader. */}
        <span aria-hidden="true">
          {program.stagesCompleted}/{program.stageCount}
        </span>
      </ProgressLine>
    </Line>
  );
}

const Section = styled(Card).attrs({ as: 'section' })`
  margin-bottom: 24px;
`;

const Head = styled(Spread)`
  margin-bottom: 16px;
  h2 {
    margin: 0;
    font-size: 18px;
  }
  a {
    font-size: 14px;
    white-space: nowrap;
  }
`;

const Line = styled.div`
  display: grid;
  gap: 6px;
  min-width: 0;
`;

const Title = styled(AppLink)`
  font-weight: 600;
  overflow-wrap: anywhere;
`;

const StageLine = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 4px 8px;
  font-size: 14px;
  span:first-child {
    overflow-wrap: anywhere;
  }
`;

const Due = styled.span<{ $overdue: boolean }>`
  font-size: 14px;
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : theme.colors.muted)};
  font-weight: ${({ $overdue }) => ($overdue ? 600 : 400)};
`;
