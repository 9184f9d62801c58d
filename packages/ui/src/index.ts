export * from './theme';
export * from './components';
export * from './microfrontend';
export * from './Dialog';
export * from './ConfirmDialog';
export * from './ProgressBar';
export * from './Pager';
export * from './format';
