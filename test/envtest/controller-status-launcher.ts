/**
 * Entry point of a controller process spawned by the envtest controller tests
 * (controller-status-process.ts): `node -r test/support/register-ts-cached.js controller-status-launcher.ts
 * controller [FLAGS]` runs `cdk8s-inference controller` from the sources, so the tests do not
 * depend on a prior `npx projen compile`. @kubernetes/client-node (loaded only for kubeconfigs with
 * plugins) is ESM-only; Node 24 loads it with `require`, which is how
 * src/controller/runtime/cluster-credentials.ts loads it.
 */
import { main } from '../../src/cli/main';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
