import { remoteConfig } from '@portal/webpack-config';

export default (mode: 'production' | 'development') =>
  remoteConfig({ dir: __dirname, name: 'mf_landing', exposes: { './lifecycles': './src/lifecycles.tsx' } }, mode);
