import { ApiObject, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as lib from '../../src';
import {
  DeviceClass,
  FlexInferBackend,
  FlexInferModel,
  FlexInferModelSource,
  ModelDeployment,
  ModelDeploymentController,
  ModelDeploymentDisruptionBudget,
  ModelDeploymentMonitoring,
  ModelDeploymentNetworkPolicy,
  ProviderRegistry,
} from '../../src';

const model = { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } };

describe('isX: our constructs are recognised by a Symbol.for brand, as cdk8s recognises a Chart', () => {
  const chart = Testing.chart();
  const md = new ModelDeployment(chart, 'qwen', model);
  const cases: Array<[string, (x: unknown) => boolean, object]> = [
    ['ModelDeployment', ModelDeployment.isModelDeployment, md],
    ['ModelDeploymentController', ModelDeploymentController.isModelDeploymentController, new ModelDeploymentController(chart, 'Controller')],
    ['DeviceClass', DeviceClass.isDeviceClass, new DeviceClass(chart, 'Any')],
    ['ModelDeploymentDisruptionBudget', ModelDeploymentDisruptionBudget.isModelDeploymentDisruptionBudget,
      new ModelDeploymentDisruptionBudget(chart, 'Budget', { deployment: md })],
    ['ModelDeploymentNetworkPolicy', ModelDeploymentNetworkPolicy.isModelDeploymentNetworkPolicy,
      new ModelDeploymentNetworkPolicy(chart, 'Isolation', { deployment: md })],
    ['ModelDeploymentMonitoring', ModelDeploymentMonitoring.isModelDeploymentMonitoring,
      new ModelDeploymentMonitoring(chart, 'Monitoring', { deployment: md })],
    ['ProviderRegistry', ProviderRegistry.isProviderRegistry, new ProviderRegistry(chart, 'Registry')],
    ['FlexInferModel', FlexInferModel.isFlexInferModel,
      new FlexInferModel(chart, 'Qwen', { backend: FlexInferBackend.VLLM, source: FlexInferModelSource.huggingFace('Qwen/Qwen3-0.6B') })],
  ];

  test.each(cases)('%s: its instances, and nothing else', (name, isX, instance) => {
    expect(isX(instance)).toBe(true);
    for (const other of cases.filter(([n]) => n !== name)) expect(isX(other[2])).toBe(false);
    for (const notOne of [chart, {}, null, undefined, name]) expect(isX(notOne)).toBe(false);
  });

  test.each(cases)('%s: an instance made by another copy of the library (same Symbol.for key) counts', (name, isX) => {
    expect(isX(Object.defineProperty({}, Symbol.for(`cdk8s-inference.${name}`), { value: true }))).toBe(true);
    expect(isX(Object.defineProperty({}, Symbol(`cdk8s-inference.${name}`), { value: true }))).toBe(false);
  });
});

describe('the record is the default child of a ModelDeployment', () => {
  test('node.defaultChild and ApiObject.of are the airunway.ai record', () => {
    const md = new ModelDeployment(Testing.chart(), 'qwen', model);
    expect(md.record).toBeDefined();
    expect(md.node.defaultChild).toBe(md.record);
    expect(ApiObject.of(md)).toBe(md.record);
  });

  test('without a record (emitRecord: false, or an invalid deployment) there is no default child', () => {
    expect(new ModelDeployment(Testing.chart(), 'qwen', { ...model, emitRecord: false }).node.defaultChild).toBeUndefined();
    expect(new ModelDeployment(Testing.chart(), 'bad', { model: { id: '' } }).node.defaultChild).toBeUndefined();
  });
});

describe('fromManifest hands its input to the constructor through its own props', () => {
  const manifest = (name: string) => ({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name },
    spec: { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: 1 } } },
  });

  test('a manifest whose construction throws leaves nothing behind for the next deployment', () => {
    const chart = new Chart(Testing.app(), 'c');
    ModelDeployment.fromManifest(chart, 'first', manifest('first'));
    // Same id again: the constructor throws before it reads its input.
    expect(() => ModelDeployment.fromManifest(chart, 'first', manifest('from-manifest'))).toThrow(/There is already a Construct with name 'first'/);
    const fromProps = new ModelDeployment(chart, 'props', { ...model, metadata: { name: 'from-props' } });
    expect(fromProps.name).toBe('from-props');
  });

  test('a deployment built inside another one (a user construct) reads its own input', () => {
    const chart = new Chart(Testing.app(), 'c');
    const outer = ModelDeployment.fromManifest(chart, 'outer', manifest('outer'));
    const inner = new ModelDeployment(outer, 'inner', { ...model, metadata: { name: 'inner' } });
    expect([outer.name, inner.name]).toEqual(['outer', 'inner']);
  });
});

describe('every construct the library exports has its isX', () => {
  const exported = Object.entries(lib).filter(([, v]) => typeof v === 'function' && v.prototype instanceof Construct);

  test('the exported constructs are found', () => {
    expect(exported.map(([name]) => name)).toEqual(expect.arrayContaining(['ModelDeployment', 'KthenaModelServing', 'ModelplaneDeployment', 'FlexInferModel']));
  });

  test.each(exported)('%s has its isX', (name, cls) => {
    const isX = (cls as any)[`is${name}`];
    expect(typeof isX).toBe('function');
    expect(isX(Object.defineProperty({}, Symbol.for(`cdk8s-inference.${name}`), { value: true }))).toBe(true);
    expect(isX({})).toBe(false);
  });
});
