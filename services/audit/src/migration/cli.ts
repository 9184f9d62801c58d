import { baseConfigSchema, connectStore, createLogger, loadConfig } from '@portal/service-kit';
import { recordModel } from '../models/record';
import { migrateTypedEvents } from './typedEvents';

/*
 * The one-time migration of the audit trail to typed events (docs/decisions/098):
 *   npm run audit-migrate-events                (development, from the repository)
 *   node services/audit/dist/migration/cli.js   (a built image)
 * with the audit service's MONGO_URL and DB_PREFIX. Safe to run again, and beside a serving audit service.
 */
async function main(): Promise<void> {
  // Only the store is needed: the service's secrets and queues are not.
  const config = loadConfig(baseConfigSchema.pick({ MONGO_URL: true, DB_PREFIX: true, LOG_LEVEL: true }), process.env);
  const logger = createLogger('audit-migration', config.LOG_LEVEL);
  const store = await connectStore(config.MONGO_URL, `${config.DB_PREFIX}audit`, logger);
  try {
    const outcome = await migrateTypedEvents(recordModel(store));
    logger.info(outcome, 'audit records migrated to typed events');
    console.log(
      `Записей без кода: ${outcome.read}; получили код: ${outcome.migrated}; остались с сохранённым текстом: ${outcome.kept}`,
    );
  } finally {
    await store.close();
  }
}

main().catch((err: Error) => {
  console.error(`Миграция журнала не выполнена: ${err.message}`);
  process.exit(1);
});
