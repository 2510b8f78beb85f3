/**
 * Where a deployment asks for multi-node replicas: AI Runway's ModelDeployment has no field for
 * the GPUs of one node, so it is the annotation `inference.cdk8s.io/multi-node`, whose value is a
 * YAML (or JSON) mapping:
 *
 * ```yaml
 * metadata:
 *   annotations:
 *     inference.cdk8s.io/multi-node: |
 *       gpusPerNode: 8
 * ```
 *
 * `gpu.count` keeps meaning the GPUs of one replica (the engine's world size); a component whose
 * count exceeds `gpusPerNode` runs each replica as a group of pods, one per node
 * (`./layout.ts`). The typed construct writes the same annotation from `ModelDeploymentProps.multiNode`.
 */
import { Annotations, cachedAnnotationReader, parseAnnotationMapping, unknownKeyErrors } from '../../core/annotation-yaml';
import { FieldError, invalid, required } from '../../core/field-error';

/** ModelDeployment annotation asking for multi-node replicas. */
export const MULTI_NODE_ANNOTATION = 'inference.cdk8s.io/multi-node';

/** Field path of the annotation, in messages. */
export const MULTI_NODE_ANNOTATION_PATH = `metadata.annotations[${JSON.stringify(MULTI_NODE_ANNOTATION)}]`;

/** Field path of `gpusPerNode` under the annotation, in messages. */
export const GPUS_PER_NODE_PATH = `${MULTI_NODE_ANNOTATION_PATH}.gpusPerNode`;

/**
 * The largest `gpusPerNode` accepted: more than any node ships with today (8 is usual, 16 rare),
 * so a larger value is a typo rather than hardware.
 */
export const MAX_GPUS_PER_NODE = 64;

/** Larger values are refused before parsing: the mapping holds one small number. */
export const MAX_MULTI_NODE_ANNOTATION_BYTES = 4 * 1024;

/** What the annotation says. */
export interface MultiNodeSettings {
  /** GPUs each node gives one pod of a multi-node replica. */
  readonly gpusPerNode: number;
}

/** The annotation read: its settings, or the problems that prevent reading them. */
export interface MultiNodeAnnotation {
  readonly settings?: MultiNodeSettings;
  readonly errors: FieldError[];
}

const KEYS = ['gpusPerNode'] as const;

/** The annotation of a deployment. No annotation: no settings, no errors. */
export const readMultiNodeAnnotation: (annotations: Annotations) => MultiNodeAnnotation =
  cachedAnnotationReader(MULTI_NODE_ANNOTATION, parseMultiNode, { errors: [] });

/** The settings of a deployment that asks for multi-node replicas with a valid annotation. */
export function multiNodeSettings(annotations: Annotations): MultiNodeSettings | undefined {
  return readMultiNodeAnnotation(annotations).settings;
}

/** The annotation value for `settings`, as the construct writes it. */
export function multiNodeAnnotationValue(settings: MultiNodeSettings): string {
  return `gpusPerNode: ${settings.gpusPerNode}\n`;
}

function parseMultiNode(value: string): MultiNodeAnnotation {
  const parsed = parseAnnotationMapping(value, MULTI_NODE_ANNOTATION_PATH, MAX_MULTI_NODE_ANNOTATION_BYTES,
    'a mapping such as "gpusPerNode: 8" (the GPUs of one node)');
  const doc = parsed.doc;
  if (!doc) return { errors: parsed.errors };
  const errors: FieldError[] = unknownKeyErrors(doc, KEYS, MULTI_NODE_ANNOTATION_PATH);
  const gpusPerNode = doc.gpusPerNode;
  if (gpusPerNode === undefined || gpusPerNode === null) {
    errors.push(required(GPUS_PER_NODE_PATH, 'the GPUs of one node (an integer from 1 to 64) are required'));
  } else if (typeof gpusPerNode !== 'number' || !Number.isInteger(gpusPerNode) || gpusPerNode < 1 || gpusPerNode > MAX_GPUS_PER_NODE) {
    errors.push(invalid(GPUS_PER_NODE_PATH, gpusPerNode, `must be an integer from 1 to ${MAX_GPUS_PER_NODE} (the GPUs each node gives one pod)`));
  }
  if (errors.length > 0) return { errors };
  return { settings: { gpusPerNode: gpusPerNode as number }, errors: [] };
}
