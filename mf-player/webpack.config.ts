import { remoteConfig } from '@portal/webpack-config';

export default (mode: 'production' | 'development') =>
  remoteConfig(
    {
      dir: __dirname,
      name: 'mf_player',
      exposes: { './lifecycles': './src/lifecycles.tsx', './QuizPreview': './src/QuizPreview.tsx' },
    },
    mode,
  );
