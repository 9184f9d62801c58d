import { createConnection } from 'mongoose';
import { auditListQuerySchema } from '@portal/contracts';
import { recordModel } from './src/models/record';
import { listRecords } from './src/queries/records';
const day = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
const main = async () => {
  const store = await createConnection('mongodb://127.0.0.1:27017/', { dbName: 'probe_audit' }).asPromise();
  const records = recordModel(store);
  await records.syncIndexes().catch(() => {});
  const base = { page: '1', limit: '20', sort: 'newest', tz: 'Europe/Moscow' };
  const qs = [
    { entity: 'course' },
    { entity: 'course', action: 'update' },
    { startDate: day(30), endDate: day(0) },
    { entity: 'user', action: 'login', startDate: day(180), endDate: day(90) },
  ];
  for (let round = 0; round < 2; round++)
    for (const q of qs) {
      const t = performance.now();
      const page = await listRecords(records, auditListQuerySchema.parse({ ...base, ...q }));
      console.log(JSON.stringify(q), Math.round(performance.now() - t), 'ms', page.data.length, page.total, page.totalExact);
    }
  await store.close();
};
main();
