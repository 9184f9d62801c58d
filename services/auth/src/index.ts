import { ensureIndexes, runService } from '@portal/service-kit';
import { authRouters, localLookup } from './app';
import { seedPresets } from './commands/seed';
import { loadAuthConfig, presetsEnabled } from './config';
import { userModel } from './models/user';
import { presetAccounts } from './presets';

const config = loadAuthConfig();

runService({
  name: 'auth',
  config,
  port: config.PORT,
  lookup: localLookup,
  routers: authRouters,
  onStart: async (ctx) => {
    await ensureIndexes([userModel(ctx.store)]);
    if (presetsEnabled(config)) await seedPresets(userModel(ctx.store), presetAccounts(config), ctx.logger);
  },
}).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
