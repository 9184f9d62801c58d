export * from './theme';
export * from './components';
export * from './microfrontend';
export * from './Dialog';
export * from './ProgressBar';
