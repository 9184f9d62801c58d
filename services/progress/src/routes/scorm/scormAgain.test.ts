import { api } from '@portal/devstack/testing';
import type { ScormAttemptState } from '@portal/contracts';
import type Scorm12API from 'scorm-again/dist/types/Scorm12API';
import type Scorm2004API from 'scorm-again/dist/types/Scorm2004API';
import type { Settings } from 'scorm-again/dist/types/types/api_types';
import { seedScormCourse, startProgress, type ProgressTestBed } from '../../testing';

/*
 * The player's own runtime (scorm-again, as the portal's page runs it) commits to the real service:
 * what it sends with the player's settings is what the commit route accepts. In node it commits with
 * fetch (`useAsynchronousCommits`); the page's synchronous XHR sends the same body.
 */
const { Scorm2004API: Runtime2004 } = jest.requireActual<{ Scorm2004API: typeof Scorm2004API }>('scorm-again/scorm2004');
const { Scorm12API: Runtime12 } = jest.requireActual<{ Scorm12API: typeof Scorm12API }>('scorm-again/scorm12');

let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());

/** A lesson playing a SCO: the golf package's (a 2004 one); the runtime speaks the version it is given. */
const scormLesson = () => seedScormCourse(bed);

async function openAttempt(
  { courseId, lessonId }: { courseId: string; lessonId: string },
  token: string,
): Promise<ScormAttemptState> {
  const answer = await api<ScormAttemptState>(bed.progress.url, 'POST', '/api/scorm/attempts', {
    token,
    body: { courseId, lessonId },
  });
  if (answer.status !== 200) throw new Error(`open: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * The player's settings, with the service's absolute address (node's fetch has no page to resolve
 * against). scorm-again numbers the commits of each runtime from 1: the player carries on from the
 * sequence the attempt has stored, so a session after a reload or on another device is not taken
 * for a resend of the first.
 */
const playerSettings = (attempt: ScormAttemptState, token: string): Settings => ({
  lmsCommitUrl: `${bed.progress.url}/api/scorm/attempts/${attempt.id}/commit`,
  requestHandler: (commit, meta) => ({
    ...(commit as object),
    commitSequence: attempt.sequence + (meta?.sequence ?? 0),
  }),
  xhrHeaders: { Authorization: `Bearer ${token}` },
  renderCommonCommitFields: true,
  includeCommitSequence: true,
  dataCommitFormat: 'json',
  terminateCommitParam: 'final',
  useAsynchronousCommits: true,
  logLevel: 5,
});

/**
 * Waits for the runtime's commits in flight (fetch, in the background) to be answered: the runtime
 * counts none pending, and the attempt holds the sequence (and, for a commit that completes the
 * lesson, `completed`: the attempt is marked after the lesson's completion, which follows the
 * commit's write, and an asynchronous runtime counts a commit done before its answer comes).
 */
async function stored(sco: { pendingCommitCount: number }, id: string, sequence: number, { completed = false } = {}) {
  for (let i = 0; i < 100; i++) {
    const attempt = await bed.store.scormAttempts.findById(id).lean();
    if (attempt && attempt.sequence >= sequence && sco.pendingCommitCount === 0 && (!completed || attempt.completedAt))
      return attempt;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`attempt ${id} never reached sequence ${sequence}`);
}

it('stores what scorm-again sends for a SCORM 2004 SCO, resumes it there, and its completion completes the lesson', async () => {
  const lesson = await scormLesson();
  const me = await bed.learner('CLIENT');
  const attempt = await openAttempt(lesson, me.token);

  const sco = new Runtime2004(playerSettings(attempt, me.token));
  sco.Initialize('');
  sco.SetValue('cmi.location', 'page3');
  sco.SetValue('cmi.suspend_data', 'visited=1,2,3');
  sco.SetValue('cmi.interactions.0.id', 'q1');
  sco.SetValue('cmi.interactions.0.type', 'choice');
  sco.SetValue('cmi.interactions.0.correct_responses.0.pattern', 'a');
  sco.SetValue('cmi.interactions.0.learner_response', 'a');
  sco.SetValue('cmi.interactions.0.result', 'correct');
  sco.SetValue('cmi.interactions.0.latency', 'PT5S');
  sco.SetValue('cmi.exit', 'suspend');
  sco.Commit('');
  const first = await stored(sco, attempt.id, 1);
  expect(first).toMatchObject({ completionStatus: 'unknown', completedAt: null });
  expect(first.interactions).toEqual([
    { id: 'q1', type: 'choice', response: 'a', result: 'correct', latency: 5, correctResponses: ['a'] },
  ]);
  sco.Terminate('');
  expect(await stored(sco, attempt.id, 2)).toMatchObject({ ended: true });

  // Another device: the player loads the stored tree and the SCO reads its bookmark.
  const resumed = await openAttempt(lesson, me.token);
  expect(resumed).toMatchObject({ id: attempt.id, entry: 'resume' });
  const again = new Runtime2004(playerSettings(resumed, me.token));
  again.loadFromJSON(resumed.cmi!);
  again.Initialize('');
  expect(again.GetValue('cmi.location')).toBe('page3');
  expect(again.GetValue('cmi.suspend_data')).toBe('visited=1,2,3');
  expect(again.GetValue('cmi.entry')).toBe('resume');

  again.SetValue('cmi.score.raw', '80');
  again.SetValue('cmi.score.min', '0');
  again.SetValue('cmi.score.max', '100');
  again.SetValue('cmi.score.scaled', '0.8');
  again.SetValue('cmi.success_status', 'passed');
  again.SetValue('cmi.completion_status', 'completed');
  again.SetValue('cmi.session_time', 'PT1M30S');
  again.SetValue('cmi.exit', 'normal');
  again.Terminate('');
  const done = await stored(again, attempt.id, 3, { completed: true });
  expect(done).toMatchObject({ successStatus: 'passed', completionStatus: 'completed', score: { raw: 80, scaled: 0.8 } });
  expect(await bed.store.completions.countDocuments({ userId: me.user.id, lessonId: lesson.lessonId })).toBe(1);
});

it('stores what scorm-again sends for a SCORM 1.2 SCO: lesson_status passed completes the lesson', async () => {
  const lesson = await scormLesson();
  const me = await bed.learner('CLIENT');
  const attempt = await openAttempt(lesson, me.token);
  const sco = new Runtime12(playerSettings(attempt, me.token));
  sco.LMSInitialize('');
  sco.LMSSetValue('cmi.core.lesson_location', 'p2');
  sco.LMSSetValue('cmi.interactions.0.id', 'i1');
  sco.LMSSetValue('cmi.interactions.0.type', 'choice');
  sco.LMSSetValue('cmi.interactions.0.student_response', 'b');
  sco.LMSSetValue('cmi.interactions.0.result', 'wrong');
  sco.LMSSetValue('cmi.interactions.0.latency', '00:00:07');
  sco.LMSSetValue('cmi.core.score.raw', '50');
  sco.LMSSetValue('cmi.core.lesson_status', 'passed');
  sco.LMSSetValue('cmi.core.session_time', '00:01:00');
  sco.LMSFinish('');
  const done = await stored(sco, attempt.id, 1, { completed: true });
  expect(done).toMatchObject({
    ended: true,
    completionStatus: 'completed',
    successStatus: 'passed',
    score: { raw: 50 },
    sessionTimeSeconds: 60,
    interactions: [{ id: 'i1', response: 'b', result: 'wrong', latency: 7 }],
  });
  expect(done.completedAt).toBeInstanceOf(Date);
  expect(await bed.store.completions.countDocuments({ userId: me.user.id, lessonId: lesson.lessonId })).toBe(1);
});
