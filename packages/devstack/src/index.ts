export * from './store';
export * from './stack';
export * from './processes';
export * from './util';
export * from './launcher';
export * from './secrets';
