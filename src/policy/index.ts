// The public surface of the policies: the helpers beside them are internal.
export { PodSecurityLevel } from '../api/pod-security-level';
export * from './disruption-budget';
export * from './network-policy';
