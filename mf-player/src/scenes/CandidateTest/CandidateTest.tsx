import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  CANDIDATE_LINK_MSG,
  CONSENT_MSG,
  candidateStartSchema,
  type CandidateLinkPublic,
  type CandidateStartInput,
  type CandidateStarted,
} from '@portal/contracts';
import { Card, Check, ErrorBox, Field, Input, Loading, Muted, NotFoundState, Page, useZodForm } from '@portal/ui';
import { ApiError, errorMessage, setToken } from '@portal/web-core';
import { fetchPublicLink, publicLinkKey, startCandidateLink } from '../../api/player';
import { CardForm, Submit } from '../../components/CardForm';
import { QuizPlayer } from '../../components/QuizPlayer';

type Stage = { kind: 'form' } | { kind: 'playing'; session: CandidateStarted } | { kind: 'done' };

/**
 * The started test of this tab, so a reload (or a dropped connection) goes back to the same attempt,
 * which resumes with its questions and deadline, instead of the form, which would spend another use.
 */
const startedKey = (token: string) => `candidate-link:${token}`;
function startedInThisTab(token: string): CandidateStarted | null {
  try {
    const raw = sessionStorage.getItem(startedKey(token));
    return raw ? (JSON.parse(raw) as CandidateStarted) : null;
  } catch {
    return null;
  }
}
function rememberStarted(token: string, session: CandidateStarted | null): void {
  try {
    if (session) sessionStorage.setItem(startedKey(token), JSON.stringify(session));
    else sessionStorage.removeItem(startedKey(token));
  } catch {
    // Storage refused (a private window's quota): a reload then shows the form, as before.
  }
}

/**
 * `/t/{token}`: a candidate without an account. The link's test, a form with name, email and the
 * consent (its own checkbox, never ticked beforehand), then the quiz in the player with a session
 * that reaches this quiz only. A revoked, expired or used-up link says so in words.
 */
export function CandidateTest({ token }: { token: string }) {
  const [stage, setStage] = useState<Stage>(() => {
    const started = startedInThisTab(token);
    if (!started) return { kind: 'form' };
    setToken(started.token);
    return { kind: 'playing', session: started };
  });
  const link = useQuery({
    queryKey: publicLinkKey(token),
    queryFn: ({ signal }) => fetchPublicLink(token, signal),
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    staleTime: Infinity,
  });

  if (link.isPending) return <Loading />;
  if (link.isError) {
    const gone = link.error instanceof ApiError && [404, 410, 429].includes(link.error.status);
    return (
      <Page data-mf="mf_player">
        <NotFoundState
          title={gone ? 'Ссылка не работает' : 'Не удалось открыть ссылку'}
          hint={gone ? link.error.message : errorMessage(link.error)}
        />
      </Page>
    );
  }

  return (
    <Page data-mf="mf_player">
      <Narrow>
        <h1>{link.data.quizTitle}</h1>
        <Muted>
          Курс «{link.data.courseTitle}». {link.data.timeLimitMinutes ? `Время на тест: ${link.data.timeLimitMinutes} мин.` : ''}{' '}
          Одна попытка.
        </Muted>
        {stage.kind === 'form' && (
          <StartForm
            token={token}
            link={link.data}
            onStarted={(session) => {
              // The link's own session: it opens this test only, and the player's calls carry it.
              setToken(session.token);
              rememberStarted(token, session);
              setStage({ kind: 'playing', session });
            }}
          />
        )}
        {stage.kind === 'playing' && (
          <QuizPlayer
            source={{
              kind: 'attempt',
              quizId: stage.session.quizId,
              courseId: stage.session.courseId,
              lessonId: stage.session.lessonId,
            }}
            closeLabel="Завершить"
            onClose={() => {
              setToken(null);
              rememberStarted(token, null);
              setStage({ kind: 'done' });
            }}
          />
        )}
        {stage.kind === 'done' && (
          <Card role="status">
            <h2>{CANDIDATE_LINK_MSG.submittedTitle}</h2>
            <p>Спасибо за участие. Эту вкладку можно закрыть.</p>
          </Card>
        )}
      </Narrow>
    </Page>
  );
}

function StartForm({
  token,
  link,
  onStarted,
}: {
  token: string;
  link: CandidateLinkPublic;
  onStarted: (session: CandidateStarted) => void;
}) {
  const form = useZodForm<CandidateStartInput, CandidateStartInput>(candidateStartSchema, {
    fullName: '',
    email: '',
    // Never ticked beforehand: the person ticks it themselves.
    consent: false as unknown as true,
    consentVersion: link.consent.version,
  });
  const { errors } = form.formState;
  const start = useMutation({
    mutationFn: (input: CandidateStartInput) => startCandidateLink(token, input),
    onSuccess: onStarted,
  });
  const submit = form.handleSubmit((input) => start.mutate(input));

  return (
    <CardForm onSubmit={submit} noValidate aria-label="Данные кандидата">
      <Field required label="Фамилия, имя и отчество" error={errors.fullName?.message}>
        <Input autoComplete="name" maxLength={200} {...form.register('fullName')} />
      </Field>
      <Field required label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" maxLength={254} {...form.register('email')} />
      </Field>
      {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
      <Consent aria-labelledby="consent-title" tabIndex={0}>
        <h2 id="consent-title">{link.consent.title}</h2>
        {link.consent.paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </Consent>
      <Check label={CONSENT_MSG.checkbox} aria-invalid={errors.consent ? true : undefined} {...form.register('consent')} />
      {errors.consent?.message && <ErrorBox>{errors.consent.message}</ErrorBox>}
      {start.isError && <ErrorBox>{errorMessage(start.error)}</ErrorBox>}
      {link.showResult ? (
        <Muted>Результат будет показан сразу после теста.</Muted>
      ) : (
        <Muted>Результат теста получит организация, которая прислала ссылку.</Muted>
      )}
      <Submit busy={start.isPending} busyLabel="Подготовка теста...">
        Начать тест
      </Submit>
    </CardForm>
  );
}

const Narrow = styled.div`
  max-width: 760px;
  margin: 0 auto;
`;
const Consent = styled.section`
  max-height: 240px;
  overflow: auto;
  padding: 12px 16px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  font-size: 14px;
  h2 {
    margin: 0 0 8px;
    font-size: 16px;
  }
`;
