import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { PROGRAM_MSG, PROGRAM_PERSON_STATUS_LABELS, type MyProgram as MyProgramData } from '@portal/contracts';
import { Badge, Button, Card, ErrorState, Loading, Muted, NotFoundState, Page, Row } from '@portal/ui';
import { errorMessage, isMissing, paths } from '@portal/web-core';
import { downloadCertificate } from '@portal/web-core/assignments';
import { fetchMyProgram, myProgramKeys } from '../../api/myPrograms';
import { formatDate } from '../../format';
import { AppLink } from './AppLink';
import { StagePath } from './StagePath';
import { PROGRAM_STATUS_TONES } from './stageText';

/** /my-programs/:assignmentId: one of the learner's programs, its stages as a path to walk. */
export function MyProgram({ assignmentId }: { assignmentId: string }) {
  const program = useQuery({
    queryKey: myProgramKeys.one(assignmentId),
    queryFn: ({ signal }) => fetchMyProgram(assignmentId, signal),
    // A program that is not there (or not this person's) stays so: said at once, not asked again.
    retry: (count, err) => !isMissing(err) && count < 1,
  });
  if (program.isPending)
    return (
      <Page data-mf="mf_dashboard">
        <Loading />
      </Page>
    );
  if (program.isError)
    return (
      <Page data-mf="mf_dashboard">
        {isMissing(program.error) ? (
          <NotFoundState
            title={PROGRAM_MSG.notFound}
            hint="Возможно, назначение программы отменили или ссылка неверна."
            action={<AppLink href={paths.myPrograms()}>Все мои программы</AppLink>}
          />
        ) : (
          <ErrorState error={program.error} title="Не удалось загрузить программу" onRetry={() => void program.refetch()} />
        )}
      </Page>
    );
  return <ProgramView program={program.data} />;
}

function ProgramView({ program }: { program: MyProgramData }) {
  return (
    <Page data-mf="mf_dashboard">
      <Back>
        <AppLink href={paths.myPrograms()}>← Мои программы</AppLink>
      </Back>
      <Header>
        <h1>{program.title}</h1>
        <Row $gap={8}>
          <Badge $tone={PROGRAM_STATUS_TONES[program.status]}>{PROGRAM_PERSON_STATUS_LABELS[program.status]}</Badge>
          {program.mandatory && <Badge>обязательная</Badge>}
        </Row>
      </Header>
      {program.description && <Description>{program.description}</Description>}
      {program.message && (
        <Message aria-label="Сообщение куратора">
          <strong>Сообщение куратора</strong>
          <p>{program.message}</p>
        </Message>
      )}
      {program.completedAt && <Completion program={program} completedAt={program.completedAt} />}
      <Stages aria-labelledby="program-stages">
        <h2 id="program-stages">Этапы</h2>
        <StagePath stages={program.stages} />
      </Stages>
    </Page>
  );
}

/** «Программа пройдена <date>», and the program's certificate once it is issued. */
function Completion({ program, completedAt }: { program: MyProgramData; completedAt: string }) {
  const [problem, setProblem] = useState<string | null>(null);
  const number = program.certificateNumber;
  return (
    <Done role="status" data-testid="program-completed">
      <strong>Программа пройдена {formatDate(completedAt)}</strong>
      {number && (
        <Row $gap={12}>
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            aria-label={`Скачать сертификат ${number} (PDF)`}
            onClick={() => {
              setProblem(null);
              downloadCertificate(number).catch((err: unknown) => setProblem(errorMessage(err, 'Не удалось скачать сертификат')));
            }}
          >
            Скачать сертификат (PDF)
          </Button>
          <AppLink href={paths.verifyCertificate(number)}>Сертификат № {number}</AppLink>
        </Row>
      )}
      {problem && <Muted role="alert">{problem}</Muted>}
    </Done>
  );
}

const Back = styled.p`
  margin: 0 0 12px;
  font-size: 14px;
`;

const Header = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 16px;
  margin-bottom: 12px;
  h1 {
    margin: 0;
    overflow-wrap: anywhere;
  }
  @media (max-width: 480px) {
    h1 {
      font-size: 26px;
    }
  }
`;

/** The curator's text as they typed it: their line breaks kept. */
const Description = styled.p`
  margin: 0 0 16px;
  white-space: pre-line;
  overflow-wrap: anywhere;
`;

const Message = styled.aside`
  margin: 0 0 16px;
  padding: 12px 16px;
  border-left: 3px solid ${({ theme }) => theme.colors.primary};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border-radius: 0 ${({ theme }) => theme.radius} ${({ theme }) => theme.radius} 0;
  p {
    margin: 4px 0 0;
    white-space: pre-line;
    overflow-wrap: anywhere;
  }
`;

const Done = styled(Card)`
  display: grid;
  gap: 12px;
  margin-bottom: 16px;
  border-color: ${({ theme }) => theme.colors.success};
  strong {
    color: ${({ theme }) => theme.colors.success};
  }
  p {
    margin: 0;
  }
`;

const Stages = styled(Card).attrs({ as: 'section' })`
  h2 {
    margin: 0 0 20px;
    font-size: 18px;
  }
  @media (max-width: 480px) {
    padding: 16px;
  }
`;
