import { ProviderPhase, ProviderStatus, reconcileProviderStatus, ReconciledProviderStatus } from '../../provider-kit/reconciled-status';
import { ConditionInfo, conditionsByType, intField, isJsonObject, stringField } from '../../provider-kit/unstructured';

/** How the KAITO provider names what it created in status messages. */
export const WORKSPACE_CREATED_WHAT = 'Workspace';

/**
 * Port of the Service KAITO creates for a Workspace. Also reported for llama.cpp Workspaces,
 * whose container listens on 5000: the Service maps 80 to it.
 */
export const KAITO_SERVICE_PORT = 80;


interface PhaseAndMessage {
  readonly phase: ProviderPhase;
  readonly message: string;
}

/** `status.state` decides the phase when it is set. */
function phaseFromState(state: string): PhaseAndMessage {
  switch (state) {
    case 'Ready':
    case 'Succeeded':
      return { phase: 'Running', message: '' };
    case 'NotReady':
      return { phase: 'Deploying', message: '' };
    case 'Running':
      // A running Workspace state is a tuning job, not a serving workload.
      return { phase: 'Deploying', message: 'fine-tuning in progress' };
    case 'Failed':
      // No message: AI Runway keeps the previous status.message on this path.
      return { phase: 'Failed', message: '' };
    case 'Pending':
      return { phase: 'Pending', message: '' };
    default:
      return { phase: 'Pending', message: `unknown state: ${state}` };
  }
}

/** Without a state, the Workspace conditions decide. */
function phaseFromConditions(conditions: Map<string, ConditionInfo>): PhaseAndMessage {
  const succeeded = conditions.get('WorkspaceSucceeded');
  if (succeeded?.status === 'True') return { phase: 'Running', message: '' };
  if (succeeded?.status === 'False') return { phase: 'Failed', message: succeeded.message };
  if (conditions.get('ResourceReady')?.status === 'True' && conditions.get('InferenceReady')?.status !== 'True') {
    return { phase: 'Deploying', message: '' };
  }
  return { phase: 'Pending', message: '' };
}

/**
 * Maps a `kaito.sh/v1beta1` Workspace (as JSON, e.g. from a watch) to provider status, the way
 * AI Runway's KAITO controller does:
 *
 * - a non-empty `status.state` decides: `Ready`/`Succeeded` → Running; `NotReady` → Deploying;
 *   `Running` (tuning) → Deploying, `fine-tuning in progress`; `Failed` → Failed without a
 *   message; `Pending` → Pending; anything else → Pending, `unknown state: <state>`;
 * - otherwise the conditions: `WorkspaceSucceeded=True` → Running; `WorkspaceSucceeded=False` →
 *   Failed with its message; `ResourceReady=True` while `InferenceReady` is not True →
 *   Deploying; else Pending;
 * - replicas: desired = `resource.count` (a root field: a Workspace has no `spec`); ready and
 *   available equal desired when the state is Ready/Succeeded or `WorkspaceSucceeded=True`,
 *   else 0;
 * - endpoint: the Service KAITO names after the Workspace, port 80.
 *
 * One difference: for a Workspace without state and conditions AI Runway reports no replicas and
 * no endpoint (leaving the previous ones in place). `ProviderStatus` always carries both, and
 * both are known from the Workspace itself, so they are reported (with 0 ready) in that case too.
 *
 * Throws when the input is not an object or `status.conditions` is not a list.
 */
export function mapWorkspaceStatus(workspace: unknown): ProviderStatus {
  if (!isJsonObject(workspace)) throw new Error('upstream resource is nil');
  const metadata = isJsonObject(workspace.metadata) ? workspace.metadata : {};
  const resource = isJsonObject(workspace.resource) ? workspace.resource : {};
  const status = isJsonObject(workspace.status) ? workspace.status : {};

  const rawConditions = status.conditions;
  if (rawConditions !== undefined && rawConditions !== null && !Array.isArray(rawConditions)) {
    throw new Error('failed to get status conditions: status.conditions is not a list');
  }
  const conditions = conditionsByType(rawConditions ?? []);
  const state = stringField(status.state);

  const { phase, message } = state !== '' ? phaseFromState(state) : phaseFromConditions(conditions);

  const desired = intField(resource.count);
  const ready = state === 'Ready' || state === 'Succeeded' || conditions.get('WorkspaceSucceeded')?.status === 'True';
  return {
    phase,
    message,
    replicas: { desired, ready: ready ? desired : 0, available: ready ? desired : 0 },
    endpoint: { service: stringField(metadata.name), port: KAITO_SERVICE_PORT },
  };
}

/**
 * The status the KAITO controller writes for its Workspace: the mapping above followed by the
 * Ready condition and the `Workspace created, ...` messages (§0.3 steps 10–11).
 */
export function reconcileWorkspaceStatus(workspace: unknown): ReconciledProviderStatus {
  return reconcileProviderStatus(mapWorkspaceStatus(workspace), WORKSPACE_CREATED_WHAT);
}
