export { FlexInferBackend } from './backend';
export { FlexInferModelSource } from './model-source';
export * from './model';
