import "./zod-ru";
export * from './roles';
export * from './messages';
export * from './auth';
export * from './audit';
export * from './ids';
export * from './ports';
export * from './crm';
export * from './content';
