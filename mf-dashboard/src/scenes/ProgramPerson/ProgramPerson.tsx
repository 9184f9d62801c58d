import styled from 'styled-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { STAFF_ROLES, type ProgramPersonDetail } from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import { navigate, paths, useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { fetchProgramPerson, programKeys } from '../../api/programs';
import { RecordPage } from '../../components/RecordPage';
import { ProgramStatusBadge } from '../../components/programs/StageStatusBadge';
import { StageList } from '../../components/programs/layout';
import { formatDate } from '../../format';
import { PersonStage } from './PersonStage';

/** /program-assignments/:id/people/:userId: one person's stages as they see them; staff extend a stage's deadline. */
export function ProgramPerson({ id, userId }: { id: string; userId: string }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const canExtend = !!user && STAFF_ROLES.includes(user.role);
  const detail = useQuery({
    queryKey: programKeys.person(id, userId),
    queryFn: ({ signal }) => fetchProgramPerson(id, userId, signal),
  });
  const onExtended = (next: ProgramPersonDetail) => {
    queryClient.setQueryData(programKeys.person(id, userId), next);
    // The report's figures and people change with a deadline.
    void readAgain(queryClient, [...programKeys.all, 'report', id], [...programKeys.all, 'people', id]);
  };

  return (
    <RecordPage query={detail} failed="Не удалось загрузить этапы сотрудника">
      {(d) => (
        <>
          <Button type="button" $variant="link" onClick={() => navigate(paths.programReport(id))}>
            ← К отчёту по программе
          </Button>
          <Name>{d.person.fullName}</Name>
          <Facts>
            {[d.person.email, d.person.department].filter(Boolean).join(' · ')} · программа «{d.title}»
          </Facts>
          <Status>
            <ProgramStatusBadge status={d.status} />
            {d.completedAt && <span>пройдена {formatDate(d.completedAt)}</span>}
            {d.certificateNumber && <span>сертификат № {d.certificateNumber}</span>}
            {d.mandatory && <Muted as="span">обязательная</Muted>}
          </Status>
          <StageList aria-label="Этапы сотрудника">
            {d.stages.map((stage, index) => (
              <PersonStage
                key={stage.key}
                assignmentId={id}
                userId={userId}
                stage={stage}
                number={index + 1}
                canExtend={canExtend}
                onExtended={onExtended}
              />
            ))}
          </StageList>
        </>
      )}
    </RecordPage>
  );
}

const Name = styled.h1`
  overflow-wrap: anywhere;
`;

/** An email is one long word: it breaks rather than widen a phone's page. */
const Facts = styled(Muted)`
  overflow-wrap: anywhere;
`;

const Status = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
  margin-bottom: 16px;
`;
