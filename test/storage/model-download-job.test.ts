import { Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import type { StorageOwner } from '../../src/storage/managed-claim';
import {
  addModelDownloadJob,
  DEFAULT_MODEL_DOWNLOAD_IMAGE,
  modelDownloadJobName,
  needsModelDownloadJob,
} from '../../src/storage/model-download-job';
import { expectValidManifests } from '../support/schema-validator';

function owner(model: Partial<ModelDeploymentSpec['model']>, extra: Partial<ModelDeploymentSpec> = {}): StorageOwner {
  return { name: 'qwen', namespace: 'ml', spec: { model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface', ...model }, ...extra } };
}

const cache = { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi' };

function synthJob(o: StorageOwner, options = {}): any[] {
  const chart = Testing.chart();
  addModelDownloadJob(chart, o, options);
  const manifests = Testing.synth(chart);
  if (manifests.length > 0) expectValidManifests(manifests);
  return manifests;
}

describe('model download Job', () => {
  test('renders the AI Runway Job shape without ownerReferences', () => {
    const [job] = synthJob(owner({ storage: { volumes: [cache] } }, { secrets: { huggingFaceToken: 'hf' } }));
    expect(job).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'qwen-model-download',
        namespace: 'ml',
        labels: {
          'airunway.ai/managed-by': 'airunway',
          'airunway.ai/model-deployment': 'qwen',
          'airunway.ai/job-type': 'model-download',
        },
      },
      spec: {
        backoffLimit: 6,
        completions: 1,
        parallelism: 1,
        ttlSecondsAfterFinished: 86400,
        template: {
          spec: {
            restartPolicy: 'Never',
            automountServiceAccountToken: false,
            securityContext: {
              runAsNonRoot: true,
              runAsUser: 65532,
              runAsGroup: 65532,
              fsGroup: 65532,
              fsGroupChangePolicy: 'OnRootMismatch',
              seccompProfile: { type: 'RuntimeDefault' },
            },
            containers: [
              {
                name: 'model-download',
                image: 'ghcr.io/ai-runway/airunway/model-downloader:0.3.0',
                args: ['download', 'Qwen/Qwen3-0.6B'],
                env: [{ name: 'HF_HOME', value: '/model-cache' }, { name: 'HOME', value: '/tmp' }],
                envFrom: [{ secretRef: { name: 'hf' } }],
                resources: { requests: { cpu: '500m', memory: '2Gi' }, limits: { memory: '16Gi' } },
                volumeMounts: [{ name: 'model-cache', mountPath: '/model-cache' }, { name: 'tmp', mountPath: '/tmp' }],
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
              },
            ],
            volumes: [{ name: 'model-cache', persistentVolumeClaim: { claimName: 'qwen-model-cache' } }, { name: 'tmp', emptyDir: {} }],
          },
        },
      },
    });
  });

  test('matches the snapshot with a custom image, mount path and extra labels', () => {
    expect(
      synthJob(owner({ storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'shared-weights', mountPath: '/data/hf' }] } }), {
        image: 'registry.example/downloader:1',
        extraLabels: { 'airunway.ai/deployment': 'qwen', 'airunway.ai/job-type': 'x' },
      }),
    ).toMatchSnapshot();
  });

  test('omits envFrom without a token secret and names the Job after the deployment', () => {
    const [job] = synthJob(owner({ storage: { volumes: [cache] } }));
    expect(job.spec.template.spec.containers[0].envFrom).toBeUndefined();
    expect(job.metadata.name).toBe(modelDownloadJobName('qwen'));
    expect(DEFAULT_MODEL_DOWNLOAD_IMAGE).toBe(job.spec.template.spec.containers[0].image);
  });

  test('uses only the first modelCache volume', () => {
    const [job] = synthJob(
      owner({
        storage: {
          volumes: [
            { name: 'compile', purpose: 'compilationCache', size: '1Gi' },
            { name: 'first', purpose: 'modelCache', claimName: 'first-claim', mountPath: '/first' },
            { name: 'second', purpose: 'modelCache', claimName: 'second-claim', mountPath: '/second' },
          ],
        },
      }),
    );
    expect(job.spec.template.spec.volumes).toEqual([{ name: 'model-cache', persistentVolumeClaim: { claimName: 'first-claim' } }, { name: 'tmp', emptyDir: {} }]);
    expect(job.spec.template.spec.containers[0].env).toEqual([{ name: 'HF_HOME', value: '/first' }, { name: 'HOME', value: '/tmp' }]);
  });

  test('keeps a finished Job for the given TTL', () => {
    const [job] = synthJob(owner({ storage: { volumes: [cache] } }), { ttlSecondsAfterFinished: 600 });
    expect(job.spec.ttlSecondsAfterFinished).toBe(600);
  });

  test('is a typed KubeJob child with id ModelDownload', () => {
    const chart = Testing.chart();
    const job = addModelDownloadJob(chart, owner({ storage: { volumes: [cache] } }));
    expect(job).toBeInstanceOf(k8s.KubeJob);
    expect(job?.node.id).toBe('ModelDownload');
  });

  test.each([
    ['no storage', owner({})],
    ['no modelCache volume', owner({ storage: { volumes: [{ name: 'c', purpose: 'compilationCache', size: '1Gi' }] } })],
    ['a read-only modelCache', owner({ storage: { volumes: [{ name: 'c', purpose: 'modelCache', claimName: 'x', readOnly: true }] } })],
    ['a custom model source', owner({ source: 'custom', storage: { volumes: [cache] } })],
  ])('is not needed with %s', (_, o) => {
    expect(needsModelDownloadJob(o)).toBe(false);
    expect(synthJob(o)).toEqual([]);
  });

  test('is needed for a writable pre-existing modelCache claim too', () => {
    expect(needsModelDownloadJob(owner({ storage: { volumes: [{ name: 'c', purpose: 'modelCache', claimName: 'mine' }] } }))).toBe(true);
  });

  test('treats an unset source as huggingface', () => {
    expect(needsModelDownloadJob(owner({ source: undefined, storage: { volumes: [cache] } }))).toBe(true);
  });
});
