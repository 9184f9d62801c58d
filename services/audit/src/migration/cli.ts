import { baseConfigSchema, connectStore, createLogger, createRedis, keepVersionsInRedis, loadConfig } from '@portal/service-kit';
import { recordModel } from '../models/record';
import { migrateTypedEvents } from './typedEvents';

/*
 * The one-time migration of the audit trail to typed events (docs/decisions/098):
 *   npm run audit-migrate-events                (development, from the repository)
 *   node services/audit/dist/migration/cli.js   (a built image)
 * with the audit service's MONGO_URL and DB_PREFIX. Safe to run again, and beside a serving audit service.
 */
async function main(): Promise<void> {
  // The store, and Redis where the service keeps its caches' versions (the rewrite moves them, so a
  // serving audit service shows the new records at once); the service's secrets and queues are not needed.
  const config = loadConfig(
    baseConfigSchema.pick({ MONGO_URL: true, DB_PREFIX: true, LOG_LEVEL: true, REDIS_URL: true }),
    process.env,
  );
  const logger = createLogger('audit-migration', config.LOG_LEVEL);
  const store = await connectStore(config.MONGO_URL, `${config.DB_PREFIX}audit`, logger);
  const redis = createRedis(config.REDIS_URL, logger, { failFast: true });
  keepVersionsInRedis(store, redis);
  try {
    const outcome = await migrateTypedEvents(recordModel(store));
    logger.info(outcome, 'audit records migrated to typed events');
    console.log(
      `Записей без кода: ${outcome.read}; получили код: ${outcome.migrated}; остались с сохранённым текстом: ${outcome.kept}`,
    );
  } finally {
    redis.disconnect();
    await store.close();
  }
}

main().catch((err: Error) => {
  console.error(`Миграция журнала не выполнена: ${err.message}`);
  process.exit(1);
});
