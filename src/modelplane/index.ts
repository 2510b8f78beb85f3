export * from './cluster-toleration';
export * from './deployment';
export * from './engine';
export * from './model-cache';
export * from './serving';
