import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { ModelDeployment } from '../../src';

/** A deployment in each of `charts` charts, with every object's renders counted. */
function appWithCountedRenders(charts: number): { app: App; deployments: ModelDeployment[]; renders: () => number } {
  const app = new App();
  const deployments: ModelDeployment[] = [];
  for (let c = 0; c < charts; c++) {
    const chart = new Chart(app, `c${c}`, { namespace: 'ml' });
    deployments.push(new ModelDeployment(chart, `m${c}`, { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } }));
  }
  let renders = 0;
  for (const d of deployments) {
    for (const o of [...d.apiObjects, d.record!]) {
      const render = o.toJson.bind(o);
      Object.defineProperty(o, 'toJson', { value: () => (renders++, render()), configurable: true });
    }
  }
  return { app, deployments, renders: () => renders };
}

describe('the synth-time checks of emitted objects run once per synthesis, not once per chart', () => {
  test('an app of five charts renders each object twice (once for the checks, once for the output), not seven times', () => {
    const { app, deployments, renders } = appWithCountedRenders(5);
    const objects = deployments.flatMap((d) => [...d.apiObjects, d.record!]).length;
    app.synthYaml(); // cdk8s validates the app, then again for each of the five charts
    expect(renders()).toBe(2 * objects);
  });

  test('a change after a check is checked: a JSON patch or a label added later', () => {
    const { app, deployments } = appWithCountedRenders(1);
    const [md] = deployments;
    expect(md.node.validate()).toEqual([]);
    const deployment = md.apiObjects.find((o: ApiObject) => o.kind === 'Deployment')!;
    deployment.addJsonPatch(JsonPatch.add('/spec/template/metadata/labels/bad key', 'x'));
    expect(md.node.validate().join('\n')).toMatch(/label key "bad key" is invalid/);
    expect(() => app.synthYaml()).toThrow(/label key "bad key" is invalid/);
    deployment.metadata.addLabel('-also-bad', 'y');
    expect(md.node.validate().join('\n')).toMatch(/label key "-also-bad" is invalid/);
  });
});
