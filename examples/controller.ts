/**
 * The in-cluster controller that keeps the ModelDeployment records' status true: the
 * `airunway.ai` CRDs, least-privilege RBAC for the shipped providers' kinds, two leader-elected
 * replicas under the Pod Security Standard "restricted", and a metrics Service. Apply it once per
 * cluster, before (or with) the model examples.
 */
import { App, Chart } from 'cdk8s';
import { ModelDeploymentController } from '../src';

export function build(app: App): void {
  const chart = new Chart(app, 'controller');
  // The image you built and pushed (README: "The controller"); the default is the package version's tag.
  new ModelDeploymentController(chart, 'Controller', { image: 'registry.example.com/cdk8s-inference-controller:0.1.0' });
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
