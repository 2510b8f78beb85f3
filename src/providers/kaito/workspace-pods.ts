/*
 * The pods KAITO runs for a Workspace, as other objects find and reach them: the label KAITO
 * puts on them and the port the model server listens on. Shared by the translator (the llama.cpp
 * container) and the provider (the InferencePool target), and free of cdk8s-plus-34.
 */

/** Port the llama.cpp server listens on inside its container (`--address=:5000`). */
export const KAITO_LLAMACPP_PORT = 5000;
/** Label KAITO puts on the pods of a Workspace, valued with the Workspace name. */
export const KAITO_WORKSPACE_LABEL = 'kaito.sh/workspace';
