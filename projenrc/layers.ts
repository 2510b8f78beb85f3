/**
 * The floors of `src/`, bottom first. A folder imports only folders on floors below its own (and
 * itself); folders on the same floor do not import each other. `.projenrc.ts` turns this into the
 * `import/no-restricted-paths` zones of the eslint config, scripts/import-graph.ts counts the
 * imports that break it, and the README's map of the tree follows it.
 */
export interface Floor {
  /** Folders directly under `src/` (`(root)` is `src/index.ts`). */
  readonly folders: readonly string[];
  /** What the floor is, for the README and for error messages. */
  readonly role: string;
}

export const FLOORS: readonly Floor[] = [
  { folders: ['imports'], role: 'generated L1 bindings of the upstream CRDs' },
  { folders: ['core'], role: 'leaf helpers: field errors, names, labels, quantities, YAML, generated spec types and validators' },
  { folders: ['cel'], role: "CEL: Kubernetes' libraries and the DRA device-selector compiler" },
  { folders: ['schema-validation'], role: 'the validation toolkit: upstream schemas, structural schemas, CRD rules, Ajv' },
  { folders: ['api'], role: 'the public types, one folder per feature with the typed payload it becomes' },
  { folders: ['provider-kit'], role: 'what providers and features build with: pod template, resources, device claims, multi-node layout, engine flags, status' },
  { folders: ['storage', 'multinode', 'dra', 'autoscaling', 'security', 'gateway', 'kthena', 'modelplane', 'flexinfer'], role: 'features, and the typed L2 constructs of Kthena, modelplane and FlexInfer' },
  { folders: ['lora'], role: 'LoRA adapters (mounted through storage)' },
  { folders: ['admission', 'selection', 'providers'], role: 'the stages: admission, selection, translation by a provider' },
  { folders: ['pipeline'], role: 'the driver: default, validate, select, translate, extend' },
  { folders: ['controller-contract'], role: 'what the controller construct and the controller process share: CRDs, upstream compatibility' },
  { folders: ['constructs'], role: 'the headline constructs: ModelDeployment, ProviderRegistry, ModelDeploymentController, DeviceClass' },
  { folders: ['policy', 'observability'], role: 'constructs that attach to a ModelDeployment' },
  { folders: ['controller'], role: 'the controller process (reconciler, runtime)' },
  { folders: ['cli'], role: 'the cdk8s-inference command' },
  { folders: ['validation-plugin'], role: 'the cdk8s validation plugin' },
  { folders: ['(root)'], role: 'src/index.ts: the public jsii API' },
];

/**
 * The index in FLOORS of a folder under `src/` (the README and eslint's messages number floors
 * from 1, so floor `i + 1`), or undefined for a folder the map does not name.
 */
export function floorOf(folder: string): number | undefined {
  const i = FLOORS.findIndex((f) => f.folders.includes(folder));
  return i < 0 ? undefined : i;
}

/**
 * The `import/no-restricted-paths` zones: for each folder, every folder on its floor or above
 * (other than itself) is off limits.
 */
export function restrictedPathZones(): { target: string; from: string[]; message: string }[] {
  const zones: { target: string; from: string[]; message: string }[] = [];
  FLOORS.forEach((floor, i) => {
    for (const folder of floor.folders) {
      if (folder === '(root)') continue;
      const from = FLOORS.slice(i)
        .flatMap((f) => f.folders)
        .filter((f) => f !== folder)
        .map((f) => (f === '(root)' ? './src/index.ts' : `./src/${f}`));
      zones.push({
        target: `./src/${folder}`,
        from,
        message: `src/${folder} is on floor ${i + 1} (${floor.role}); it may import only folders on lower floors (projenrc/layers.ts)`,
      });
    }
  });
  return zones;
}
