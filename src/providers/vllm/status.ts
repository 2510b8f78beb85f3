/**
 * Direct vLLM status mapping: AI Runway maps the primary Deployment exactly as llm-d does, so
 * the shared Deployment mapping is used (see `../common/deployment-status`).
 */
export {
  DEPLOYMENT_PROVIDER_CREATED_WHAT,
  mapDeploymentStatus,
  reconcileDeploymentStatus,
} from '../../provider-kit/deployment-status';
