import { runService } from '@portal/service-kit';
import { contentRouters } from './app';
import { loadContentConfig } from './config';

const config = loadContentConfig();

runService({ name: 'content', config, port: config.PORT, routers: contentRouters }).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
