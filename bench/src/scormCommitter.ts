import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** What the committing learners are: their tokens and open attempts, and when to commit. */
export interface CommitPlan {
  gateway: string;
  tokens: string[];
  attempts: string[];
  /** Epoch ms: the first commits (each learner at a random offset within 30 s after it) and the end. */
  startAt: number;
  until: number;
}

export interface CommitOutcome {
  /** The answered commits' times, ms. */
  times: number[];
  refused: Record<string, number>;
  /** Each learner's last commit answered as stored. */
  lastSent: number[];
  /** How late the senders' own timers ran, ms. */
  loopDelay: { p50: number; p99: number; max: number };
}

/**
 * Commits every 30 s for each learner, as scorm-again's autocommit does, in a thread of its own: 200
 * learners are 200 browsers, and in the bench's main thread their answers waited behind the mixed
 * load's client (that thread's timers ran about 10 ms late at the median, at most 160 ms).
 */
export function commitInThread(plan: CommitPlan): Promise<CommitOutcome> {
  // tsx's hooks are the main thread's only: the thread registers them before it loads this file.
  const worker = new Worker(`require('tsx/cjs'); require(require('node:worker_threads').workerData.file);`, {
    eval: true,
    workerData: { file: __filename, plan },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (outcome: CommitOutcome) => {
      resolve(outcome);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`the commits' thread stopped with ${code}`)));
  });
}

async function commitAll({ gateway, tokens, attempts, startAt, until }: CommitPlan): Promise<CommitOutcome> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const times: number[] = [];
  const refused: Record<string, number> = {};
  const lastSent = new Array<number>(tokens.length).fill(0);
  const commit = async (i: number, sequence: number) => {
    const body = {
      completionStatus: 'incomplete',
      successStatus: 'unknown',
      totalTimeSeconds: sequence * 30,
      runtimeData: {
        cmi: {
          completion_status: 'incomplete',
          success_status: 'unknown',
          location: String(sequence),
          suspend_data: `страница ${sequence}; ${'x'.repeat(2000)}`,
          exit: 'suspend',
          session_time: 'PT30S',
        },
      },
      commitSequence: sequence,
    };
    const started = performance.now();
    const answer = await fetch(`${gateway}/api/scorm/attempts/${attempts[i]}/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i]}` },
      body: JSON.stringify(body),
    }).catch((err: Error) => err);
    const ms = performance.now() - started;
    if (answer instanceof Error) refused[answer.name] = (refused[answer.name] ?? 0) + 1;
    else {
      await answer.arrayBuffer();
      if (answer.status === 200) {
        times.push(ms);
        lastSent[i] = sequence;
      } else refused[answer.status] = (refused[answer.status] ?? 0) + 1;
    }
  };
  await Promise.all(
    tokens.map(async (_, i) => {
      await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now()) + Math.random() * 30_000));
      for (let sequence = 1; Date.now() < until; sequence++) {
        const next = Date.now() + 30_000;
        await commit(i, sequence);
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(next, until) - Date.now())));
      }
    }),
  );
  delay.disable();
  return {
    times,
    refused,
    lastSent,
    loopDelay: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
  };
}

if (!isMainThread && (workerData as { plan?: CommitPlan }).plan)
  void commitAll((workerData as { plan: CommitPlan }).plan).then((outcome) => parentPort!.postMessage(outcome));
