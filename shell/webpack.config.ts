import { hostConfig } from '@portal/webpack-config';

export default (mode: 'production' | 'development') =>
  hostConfig({ dir: __dirname, title: 'Учебный портал', landing: 'mf-landing/src/prerender.tsx' }, mode);
