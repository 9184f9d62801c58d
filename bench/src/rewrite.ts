/**
 * What one answer save costs the store by the size of the document it writes: the same conditional
 * update (`{ _id, status: 'in_progress' }`, `$set` of 20 saved answers and the time) on documents
 * shaped as an attempt (its snapshot of the exam's 20 questions beside the answers) and on documents
 * holding the saved answers alone. FerretDB rewrites the whole document on every update, and
 * PostgreSQL compresses a value of more than about 2 KB, so the first pays for the questions on
 * every save. Side by side in one run, rounds interleaved; the CPU of PostgreSQL and FerretDB per
 * update from /proc.
 *
 *   npm run bench -- rewrite
 */
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { cpuOfPid, cpuOfPostgres } from './cpuSplit';
import { QUICK, median, round, type Figure } from './harness';
import { pool } from './portal';
import { EXAM_QUESTIONS } from './examQuiz';

const DOCUMENTS = 200;
const UPDATES = QUICK ? 200 : 2000;
const IN_FLIGHT = 4;
const ROUNDS = QUICK ? 1 : 3;

/** The 20 answers a learner has given near the end of the exam, as the player saves them. */
const savedAnswers = (n: number) =>
  EXAM_QUESTIONS.map((q, k) => ({ questionId: q.id, answer: `ответ ${k} ${n}`, timeSpent: 30 + k }));

interface Shape {
  name: string;
  document: (userId: string) => Record<string, unknown>;
}

const SHAPES: Shape[] = [
  {
    name: 'the attempt (questions and answers in one document)',
    document: (userId) => ({
      userId,
      status: 'in_progress',
      questions: EXAM_QUESTIONS,
      savedAnswers: savedAnswers(0),
      savedAt: new Date(),
    }),
  },
  {
    name: 'the saved answers alone',
    document: (userId) => ({ userId, status: 'in_progress', savedAnswers: savedAnswers(0), savedAt: new Date() }),
  },
];

interface Reading {
  msPerUpdate: number;
  storeCpuMsPerUpdate: number;
  postgresCpuMsPerUpdate: number;
}

async function updates(collection: mongoose.mongo.Collection, ids: string[], storePid: number | undefined): Promise<Reading> {
  const pg0 = cpuOfPostgres();
  const fd0 = cpuOfPid(storePid);
  const started = performance.now();
  await pool(
    Array.from({ length: UPDATES }, (_, n) => n),
    IN_FLIGHT,
    async (n) => {
      const write = await collection.updateOne(
        { _id: ids[n % ids.length] as never, status: 'in_progress' },
        { $set: { savedAnswers: savedAnswers(n), savedAt: new Date() } },
      );
      if (write.matchedCount !== 1) throw new Error(`update ${n} matched ${write.matchedCount}`);
    },
  );
  const ms = performance.now() - started;
  const postgres = (cpuOfPostgres() - pg0) * 1000;
  const ferretdb = (cpuOfPid(storePid) - fd0) * 1000;
  return {
    msPerUpdate: ms / UPDATES,
    storeCpuMsPerUpdate: (postgres + ferretdb) / UPDATES,
    postgresCpuMsPerUpdate: postgres / UPDATES,
  };
}

export async function rewriteFigures(store: { url: string; pid?: number }, figures: Figure[]): Promise<void> {
  const connection = await mongoose.createConnection(store.url, { dbName: `bench_rewrite_${process.pid}` }).asPromise();
  try {
    const prepared = await Promise.all(
      SHAPES.map(async (shape, k) => {
        const collection = connection.db!.collection(`shape${k}`);
        const docs = Array.from({ length: DOCUMENTS }, () => ({ _id: randomUUID(), ...shape.document(randomUUID()) }));
        await collection.insertMany(docs as never[]);
        return { shape, collection, ids: docs.map((d) => d._id), bytes: Buffer.byteLength(JSON.stringify(docs[0])) };
      }),
    );
    const readings: Reading[][] = prepared.map(() => []);
    for (let r = 0; r < ROUNDS; r++)
      for (const [k, p] of prepared.entries()) readings[k].push(await updates(p.collection, p.ids, store.pid));
    for (const [k, p] of prepared.entries()) {
      const ms = median(readings[k].map((x) => x.msPerUpdate));
      const cpu = median(readings[k].map((x) => x.storeCpuMsPerUpdate));
      const pg = median(readings[k].map((x) => x.postgresCpuMsPerUpdate));
      figures.push({
        name: `answer save's store write: ${p.shape.name}, store CPU per update`,
        value: round(cpu, 2),
        unit: 'ms',
        note: `${(p.bytes / 1024).toFixed(1)} KB as JSON; PostgreSQL ${round(pg, 2)} ms of it; ${round(ms, 2)} ms per update with ${IN_FLIGHT} in flight; median of ${ROUNDS} rounds of ${UPDATES} updates over ${DOCUMENTS} documents, rounds interleaved`,
      });
    }
  } finally {
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  }
}
