import { runService } from '@portal/service-kit';
import { crmOnStart, crmRouters } from './app';
import { loadCrmConfig } from './config';

const config = loadCrmConfig();

runService({ name: 'crm', config, port: config.PORT, routers: crmRouters, onStart: crmOnStart }).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
