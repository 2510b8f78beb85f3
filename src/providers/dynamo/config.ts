import type { ProviderConfigEntry } from '../../api/provider/provider-config-entry';
import type { GatewayCapabilities, InferenceProviderConfigSpec } from '../../core/generated/inference-provider-config-spec';

/** InferenceProviderConfig name of NVIDIA Dynamo. */
export const DYNAMO_PROVIDER_NAME = 'dynamo';

/**
 * Dynamo's operator creates the InferencePool (and its endpoint picker) for each
 * DynamoGraphDeployment, named `<deployment>-pool` in the deployment's namespace.
 */
function dynamoGateway(): GatewayCapabilities {
  return { managesInferencePool: true, inferencePoolNamePattern: '{name}-pool', inferencePoolNamespace: '{namespace}' };
}

/**
 * The InferenceProviderConfig spec the Dynamo provider registers (AI Runway at b0d3fb7), in its
 * serialised form: `false` booleans and empty lists are omitted as Go writes them; `requiresCRD`
 * is unset (read as true).
 */
export function dynamoProviderConfigSpec(): InferenceProviderConfigSpec {
  return {
    capabilities: {
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'openai-responses', 'anthropic-messages'],
          gpuSupport: true,
          gateway: dynamoGateway(),
        },
        {
          name: 'sglang',
          servingModes: ['aggregated', 'disaggregated'],
          apiFormats: ['openai-chat', 'anthropic-messages'],
          gpuSupport: true,
          gateway: dynamoGateway(),
        },
        {
          name: 'trtllm',
          servingModes: ['aggregated'],
          apiFormats: ['openai-chat', 'openai-responses'],
          gpuSupport: true,
          gateway: dynamoGateway(),
        },
      ],
    },
    selectionRules: [
      { condition: "spec.engine.type == 'trtllm'", priority: 100 },
      { condition: "spec.engine.type == 'sglang'", priority: 100 },
      { condition: "has(spec.serving) && spec.serving.mode == 'disaggregated'", priority: 90 },
      { condition: "has(spec.resources.gpu) && spec.resources.gpu.count > 0 && spec.engine.type == 'vllm'", priority: 50 },
    ],
  };
}

/** The shipped `dynamo` provider config. */
export function dynamoProviderConfig(ready: boolean = true): ProviderConfigEntry {
  return { name: DYNAMO_PROVIDER_NAME, ready, spec: dynamoProviderConfigSpec() };
}

/** Annotation that turns on Dynamo's GPU-less mocker backend (with provider `dynamo`). */
export const DYNAMO_TEST_BACKEND_ANNOTATION = 'airunway.ai/dynamo-test-backend';
