import { createLifecycles } from '@portal/ui';
import { Chrome } from './Chrome';

export const { bootstrap, mount, unmount } = createLifecycles('chrome', Chrome, {
  global: true,
  element: () => document.getElementById('portal-chrome') ?? document.body,
});
