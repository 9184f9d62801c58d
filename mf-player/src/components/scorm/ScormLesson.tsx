import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { SCORM_MSG, type ScormAttemptState, type ScormBlockContent, type ScormLaunch } from '@portal/contracts';
import { Button, ErrorBox, Loading, Muted, Row } from '@portal/ui';
import { errorMessage, getToken, useAuth } from '@portal/web-core';
import { launchScorm, openScormAttempt } from '../../api/scorm';
import {
  createScormRuntime,
  packageOriginOf,
  preloadScormRuntime,
  type ScormLearner,
  type ScormReport,
  type ScormRuntime,
} from './runtime';

export const SCORM_PLAYER_MSG = {
  loading: 'Загрузка учебного материала...',
  failed: 'Не удалось открыть учебный материал',
  retry: 'Повторить',
  reopen: 'Открыть заново',
  fullscreen: 'Во весь экран',
  startOver: 'Начать заново',
  completed: 'Пройдено',
  inProgress: 'Учебный материал засчитается, когда вы пройдёте его до конца',
  passed: 'Зачтено',
  failedStatus: 'Не зачтено',
  notUploaded: 'SCORM-пакет ещё не загружен',
  previewNote: 'В просмотре прохождение не записывается',
  frameTitle: (title: string) => `Учебный материал «${title}»`,
  score: (report: ScormReport['score']) =>
    report.raw !== null && report.max !== null && report.max > 0
      ? `Баллы: ${report.raw} из ${report.max}`
      : report.scaled !== null
        ? `Результат: ${Math.round(report.scaled * 100)}%`
        : report.raw !== null
          ? `Баллы: ${report.raw}`
          : '',
} as const;

// Scripts run, forms post and windows open. Same-origin rights only on a package origin of its own
// (SCORM_ORIGIN), where they are that origin's and never the portal's; on the portal's origin never,
// so the package cannot reach the portal's storage, cookies or page (its files' CSP says the same).
const FRAME_SANDBOX = 'allow-scripts allow-forms allow-popups allow-modals allow-downloads';
const frameSandbox = (packageOrigin: string | undefined) =>
  packageOrigin ? `${FRAME_SANDBOX} allow-same-origin` : FRAME_SANDBOX;

interface ScormLessonProps {
  courseId: string;
  lessonId: string;
  content: ScormBlockContent;
  /** An author's preview: the SCO plays, nothing is recorded. */
  preview: boolean;
  /** The SCO reported completion and the server stored it: the lesson is done. */
  onCompleted: () => void;
}

type Session =
  | { phase: 'loading' }
  | { phase: 'failed'; message: string }
  | { phase: 'ready'; attempt: ScormAttemptState | null; launch: ScormLaunch; runtime: ScormRuntime };

const learnerOf = (user: ReturnType<typeof useAuth>['user']): ScormLearner | null =>
  user
    ? {
        id: user.id,
        // SCORM's convention: «Фамилия, Имя».
        name: user.lastName && user.firstName ? `${user.lastName}, ${user.firstName}` : user.fullName,
      }
    : null;

/** A «SCORM-пакет» block in study mode: the SCO in a sandboxed frame, its runtime API in this page. */
export function ScormLesson({ courseId, lessonId, content, preview, onCompleted }: ScormLessonProps) {
  const { user } = useAuth();
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // Each start (a retry, a new attempt, a launch opened again) opens the attempt and the launch anew.
  const [start, setStart] = useState({ n: 0, fresh: false });
  const [session, setSession] = useState<Session>({ phase: 'loading' });
  const [report, setReport] = useState<ScormReport | null>(null);
  const [commitProblem, setCommitProblem] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const completedRef = useRef(onCompleted);
  completedRef.current = onCompleted;
  const learner = learnerOf(user);
  const learnerId = learner?.id ?? '';
  const learnerName = learner?.name ?? '';
  const packageId = content.packageId;
  const version = content.version;

  useEffect(() => {
    if (!packageId) return;
    let cancelled = false;
    let runtime: ScormRuntime | null = null;
    setSession({ phase: 'loading' });
    setExpired(false);
    setCommitProblem(null);
    preloadScormRuntime(version);
    const open = async () => {
      // Neither waits for the other: the attempt is progress's, the signed address content's.
      const [attempt, launch] = await Promise.all([
        preview ? null : openScormAttempt({ courseId, lessonId, fresh: start.fresh || undefined }),
        launchScorm({ lessonId }),
      ]);
      const made = await createScormRuntime({
        version: launch.version,
        attempt,
        token: getToken(),
        learner: learnerId ? { id: learnerId, name: learnerName } : null,
        frame: () => frame.current?.contentWindow,
        frameOrigin: packageOriginOf(launch.url, window.location.origin),
        onReported: (next) => {
          setReport(next);
          setCommitProblem(null);
        },
        onCompleted: () => completedRef.current(),
        onCommitFailed: setCommitProblem,
      });
      if (cancelled) return made.destroy();
      runtime = made;
      setReport(
        attempt?.completed ? { completed: true, success: 'unknown', score: { raw: null, max: null, scaled: null } } : null,
      );
      setSession({ phase: 'ready', attempt, launch, runtime: made });
    };
    open().catch((err: unknown) => {
      if (!cancelled) setSession({ phase: 'failed', message: errorMessage(err, SCORM_PLAYER_MSG.failed) });
    });
    return () => {
      cancelled = true;
      runtime?.flush();
      runtime?.destroy();
    };
  }, [courseId, lessonId, packageId, version, preview, start, learnerId, learnerName]);

  // What the SCO set is sent when the page is hidden or left, not only every 30 seconds.
  const runtime = session.phase === 'ready' ? session.runtime : null;
  useEffect(() => {
    if (!runtime) return;
    const hidden = () => {
      if (document.visibilityState === 'hidden') runtime.flush();
    };
    const leaving = () => runtime.flush();
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
    };
  }, [runtime]);

  // The frame's address opens the package's files until it expires: after that a page the SCO
  // opens is refused, so the learner is told and may open the lesson again.
  const expiresAt = session.phase === 'ready' ? session.launch.expiresAt : null;
  useEffect(() => {
    if (!expiresAt) return;
    const wait = new Date(expiresAt).getTime() - Date.now();
    const timer = setTimeout(() => setExpired(true), Math.max(0, Math.min(wait, 2 ** 31 - 1)));
    return () => clearTimeout(timer);
  }, [expiresAt]);

  if (!packageId) return <Notice role="note">{SCORM_PLAYER_MSG.notUploaded}</Notice>;
  if (session.phase === 'loading') return <Loading label={SCORM_PLAYER_MSG.loading} />;
  if (session.phase === 'failed') {
    return (
      <ErrorBox>
        <strong>{SCORM_PLAYER_MSG.failed}</strong>
        <p>{session.message}</p>
        <Button type="button" $variant="outline" $size="sm" onClick={() => setStart((s) => ({ n: s.n + 1, fresh: false }))}>
          {SCORM_PLAYER_MSG.retry}
        </Button>
      </ErrorBox>
    );
  }

  const { attempt, launch } = session;
  const completed = report?.completed ?? attempt?.completed ?? false;
  const mayStartNew = (attempt?.mayStartNew ?? false) || (completed && !!content.allowNewAttempt);
  const score = report ? SCORM_PLAYER_MSG.score(report.score) : '';
  const title = content.title || SCORM_MSG.uploadLabel;
  return (
    <Player aria-label={title}>
      <Row $gap={12} as="header">
        {completed ? (
          <Done role="status">✓ {SCORM_PLAYER_MSG.completed}</Done>
        ) : (
          <Muted as="span">{preview ? SCORM_PLAYER_MSG.previewNote : SCORM_PLAYER_MSG.inProgress}</Muted>
        )}
        {report?.success === 'passed' && <span>{SCORM_PLAYER_MSG.passed}</span>}
        {report?.success === 'failed' && <span>{SCORM_PLAYER_MSG.failedStatus}</span>}
        {score && <span data-testid="scorm-score">{score}</span>}
        <Spacer />
        {!preview && completed && mayStartNew && (
          <Button type="button" $variant="outline" $size="sm" onClick={() => setStart((s) => ({ n: s.n + 1, fresh: true }))}>
            {SCORM_PLAYER_MSG.startOver}
          </Button>
        )}
        <Button type="button" $variant="outline" $size="sm" onClick={() => void box.current?.requestFullscreen?.()}>
          {SCORM_PLAYER_MSG.fullscreen}
        </Button>
      </Row>
      {commitProblem && <Muted role="status">{commitProblem}</Muted>}
      {expired && (
        <ErrorBox>
          <p>{SCORM_MSG.launchExpired}</p>
          <Button type="button" $variant="outline" $size="sm" onClick={() => setStart((s) => ({ n: s.n + 1, fresh: false }))}>
            {SCORM_PLAYER_MSG.reopen}
          </Button>
        </ErrorBox>
      )}
      <FrameBox ref={box}>
        <iframe
          ref={frame}
          src={launch.url + session.runtime.hash}
          sandbox={frameSandbox(packageOriginOf(launch.url, window.location.origin))}
          allow="fullscreen; autoplay"
          title={SCORM_PLAYER_MSG.frameTitle(title)}
        />
      </FrameBox>
    </Player>
  );
}

const Player = styled.section`
  display: grid;
  gap: 12px;
  header {
    flex-wrap: wrap;
  }
`;
const Spacer = styled.span`
  flex: 1;
`;
const FrameBox = styled.div`
  width: 100%;
  aspect-ratio: 16 / 10;
  min-height: 600px;
  background: #fff;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  overflow: hidden;
  iframe {
    width: 100%;
    height: 100%;
    border: 0;
    display: block;
  }
  &:fullscreen {
    border-radius: 0;
  }
`;
const Done = styled.span`
  color: ${({ theme }) => theme.colors.success};
  font-weight: 600;
`;
const Notice = styled.div`
  padding: 16px;
  text-align: center;
  border: 2px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  color: ${({ theme }) => theme.colors.muted};
`;
