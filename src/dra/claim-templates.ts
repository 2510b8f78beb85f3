/**
 * The ResourceClaimTemplates of a deployment: one per component that claims devices, named as
 * its pods reference them (src/provider-kit/pod-claims.ts), in the deployment's namespace, with the
 * deployment's common labels. Created by the shared pipeline after the provider's translation,
 * so every provider that wires the claims into its pods gets the same templates.
 */
import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { k8s } from '../core/kube-api';
import { componentsOf, deviceRequestsOf } from '../provider-kit/device-annotation';
import { commonLabels, objectMeta } from '../provider-kit/metadata';
import { claimDevices, claimTemplateName } from '../provider-kit/pod-claims';

/** Adds the templates under `scope` (ids `DeviceClaimTemplate-<component>`) and returns them. */
export function addDeviceClaimTemplates(scope: Construct, md: ResolvedModelDeployment): ApiObject[] {
  const templates: ApiObject[] = [];
  for (const component of componentsOf(md.mode)) {
    const requests = deviceRequestsOf(md.annotations, component);
    if (requests.length === 0) continue;
    templates.push(new k8s.KubeResourceClaimTemplate(scope, `DeviceClaimTemplate-${component}`, {
      metadata: objectMeta(md, claimTemplateName(md.name, component), commonLabels(md)),
      spec: { spec: { devices: claimDevices(requests) } },
    }));
  }
  return templates;
}
