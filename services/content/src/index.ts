import { runService } from '@portal/service-kit';
import { contentOnStart, contentRouters } from './app';
import { loadContentConfig } from './config';

const config = loadContentConfig();

runService({ name: 'content', config, port: config.PORT, routers: contentRouters, onStart: contentOnStart }).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
