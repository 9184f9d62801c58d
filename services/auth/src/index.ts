import { ensureIndexes, runService } from '@portal/service-kit';
import { authRouters, localLookup } from './app';
import { migrateNameParts } from './commands/people';
import { seedPresets } from './commands/seed';
import { sweepExpired } from './commands/sessions';
import { directoryOutcomeModel, directoryRunModel } from './directory/models';
import { startDirectorySync } from './directory/runs';
import { loadAuthConfig, presetsEnabled } from './config';
import { passwordResetModel, sessionModel } from './models/session';
import { userModel } from './models/user';
import { presetAccounts } from './presets';

const config = loadAuthConfig();
/** Expired sessions and reset links are refused at once; deleting them can wait this long. */
const SWEEP_INTERVAL_MS = 3_600_000;

runService({
  name: 'auth',
  config,
  port: config.PORT,
  lookup: localLookup,
  routers: authRouters,
  onStart: async (ctx) => {
    await ensureIndexes([
      userModel(ctx.store),
      sessionModel(ctx.store),
      passwordResetModel(ctx.store),
      directoryRunModel(ctx.store),
      directoryOutcomeModel(ctx.store),
    ]);
    await migrateNameParts(userModel(ctx.store), presetAccounts(config), ctx.logger);
    if (presetsEnabled(config)) await seedPresets(userModel(ctx.store), presetAccounts(config), ctx.logger);
    const sweep = setInterval(() => {
      sweepExpired(ctx.store).catch((err: Error) => ctx.logger.warn({ err: err.message }, 'session sweep failed'));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    // The LDAP / AD sync's scheduler and worker (nothing when LDAP_URL is unset).
    const stopDirectorySync = await startDirectorySync(ctx);
    return async () => {
      clearInterval(sweep);
      await stopDirectorySync();
    };
  },
}).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
