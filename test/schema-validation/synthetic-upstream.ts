/**
 * A synthetic upstream directory for tests of the structural-schema semantics: CRDs and an XRD
 * written for the tests, next to the real Kubernetes OpenAPI documents (symlinked), with its own
 * conversion cache. `useSyntheticUpstream()` points the registry at it for the enclosing
 * describe block.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SCHEMA_CACHE_ENV } from '../../src/schema-validation/conversion-cache';
import { UPSTREAM_DIR_ENV, upstreamDir } from '../../src/schema-validation/upstream-schemas';

export const SYNTHETIC_CRDS = `# Two definitions in one file (the header scan gives up; the file is parsed on a miss).
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.test.example
spec:
  group: test.example
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size, mode]
            properties:
              size: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              mode: {type: string, default: fast, enum: [fast, slow]}
              count: {type: integer, format: int32, minimum: 0, exclusiveMinimum: true}
              note: {type: string, nullable: true}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              marker: {type: object}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
              child: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
              address: {type: string, format: ipv4}
              since: {type: string, format: date-time}
              ratio: {type: number, format: double}
              checked: {type: string, x-kubernetes-validations: [{rule: "self == 'checked'"}]}
              either:
                type: object
                properties:
                  a: {type: string}
                  b: {type: string}
                oneOf:
                - required: [a]
                - required: [b]
  - name: v0
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.test.example
spec:
  group: test.example
  names: {kind: Gadget, plural: gadgets}
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 8}
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ruleds.test.example
spec:
  group: test.example
  names: {kind: Ruled, plural: ruleds}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        # The root sees apiVersion, kind and only metadata.name/generateName.
        - rule: "self.apiVersion == 'test.example/v1' && self.kind == 'Ruled' && !has(self.metadata.labels)"
          message: the root sees apiVersion, kind, metadata.name
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "!has(self.replicas) || self.replicas <= self.maxReplicas"
              messageExpression: "'replicas ' + string(self.replicas) + ' exceeds ' + string(self.maxReplicas)"
              fieldPath: .replicas
              reason: FieldValueForbidden
            - rule: "!has(self.__namespace__) || self.__namespace__ != 'default'"
              message: namespace must not be default
            - rule: "!has(self.limits) || !('nvidia.com/gpu' in self.limits) || self.limits['nvidia.com/gpu'] == 1"
              message: at most one GPU
            # An absent owner is defaulted; an explicit null is kept, and CEL sees it as absent.
            - rule: "has(self.owner)"
              message: owner is null
            properties:
              owner: {type: string, nullable: true, default: team}
              replicas: {type: integer, x-kubernetes-validations: [{rule: "type(self) == int", message: replicas is an int}]}
              maxReplicas: {type: integer, default: 4}
              ratio: {type: number, x-kubernetes-validations: [{rule: "type(self) == double", message: ratio is a double}]}
              namespace: {type: string}
              limits:
                type: object
                additionalProperties: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              target:
                type: object
                properties:
                  port: {type: integer}
                x-kubernetes-validations: [{rule: "self.port > 0", message: target port must be positive}]
              window:
                type: string
                format: duration
                x-kubernetes-validations: [{rule: "self >= duration('1s')", message: window must be at least 1s}]
              members:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                  x-kubernetes-validations: [{rule: "self.name != ''", message: a member needs a name}]
              endpoint:
                type: string
                x-kubernetes-validations:
                - {rule: "isURL(self)", message: endpoint must be a URL}
                - {rule: "self.?scheme.orValue('') == ''", message: never parsed}
              mode:
                type: string
                x-kubernetes-validations:
                - {rule: "self == oldSelf", message: mode is immutable}
                - {rule: "!oldSelf.hasValue() || self == oldSelf.value()", optionalOldSelf: true, message: mode is immutable once set}
                - {rule: "self != 'locked' || oldSelf.hasValue()", optionalOldSelf: true, message: mode may be locked only after creation}
`;

export const SYNTHETIC_XRD = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata:
  name: stacks.test.example
spec:
  group: test.example
  names:
    kind: Stack
    plural: stacks
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string}
`;

/** The synthetic upstream directory and its cache directory, once set up. */
export interface SyntheticUpstream {
  readonly dir: string;
  readonly cacheDir: string;
}

/**
 * Create the synthetic upstream directory before the enclosing describe block's tests, point
 * `$CDK8S_INFERENCE_UPSTREAM_DIR` and `$CDK8S_INFERENCE_SCHEMA_CACHE` at it, and undo both after.
 */
export function useSyntheticUpstream(): SyntheticUpstream {
  const state = { dir: '', cacheDir: '' };
  const saved = { upstream: process.env[UPSTREAM_DIR_ENV], cache: process.env[SCHEMA_CACHE_ENV] };

  beforeAll(() => {
    const realKubernetes = path.join(upstreamDir(), 'kubernetes');
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-schemas-test-'));
    state.cacheDir = path.join(state.dir, '.cache');
    fs.mkdirSync(path.join(state.dir, 'synthetic'));
    fs.symlinkSync(realKubernetes, path.join(state.dir, 'kubernetes'));
    fs.writeFileSync(path.join(state.dir, 'synthetic', 'crds.yaml'), SYNTHETIC_CRDS);
    fs.writeFileSync(path.join(state.dir, 'synthetic', 'xrd.yaml'), SYNTHETIC_XRD);
    process.env[UPSTREAM_DIR_ENV] = state.dir;
    process.env[SCHEMA_CACHE_ENV] = state.cacheDir;
  });

  afterAll(() => {
    restore(UPSTREAM_DIR_ENV, saved.upstream);
    restore(SCHEMA_CACHE_ENV, saved.cache);
    fs.rmSync(state.dir, { recursive: true, force: true });
  });

  return state;
}

/** A Widget (spec checks of the structural schema) with the given spec. */
export const widget = (spec: any) => ({ apiVersion: 'test.example/v1', kind: 'Widget', metadata: { name: 'w' }, spec });
/** A Ruled (CEL rules) with the given spec and metadata. */
export const ruled = (spec: any, metadata: any = { name: 'r' }) => ({ apiVersion: 'test.example/v1', kind: 'Ruled', metadata, spec });

/** Set an environment variable back to a saved value (undefined: unset). */
export function restore(name: string, value: string | undefined): void {
  if (value === undefined) {
    delete process.env[name];
  } else {
    process.env[name] = value;
  }
}
