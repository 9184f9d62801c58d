export * from './theme';
export * from './components';
export * from './microfrontend';
