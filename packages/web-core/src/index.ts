export * from './api';
export * from './auth';
export * from './theme';
export * from './routes';
export * from './navigation';
export * from './instances';
export * from './query';
export * from './generation';
