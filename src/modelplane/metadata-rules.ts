/**
 * modelplane's rules for the labels and annotations it copies onto what it composes
 * (`spec.template.metadata.labels` onto ModelReplicas and ModelEndpoints, member
 * `template.metadata` onto the engine pods). Its XRD checks them with CEL at admission so that a
 * bad key fails on the user's object, not later on a composed child; we check them at synth so it
 * fails on the field the user wrote.
 *
 * Each entry carries its own field path: the typed constructs report their prop, the provider
 * the AI Runway field the value came from.
 */
import { MAX_ANNOTATION_VALUE_LENGTH, MAX_LABEL_VALUE_LENGTH, MAX_METADATA_ENTRIES, RESERVED_LABEL_PREFIX } from './limits';
import { FieldError, invalid } from '../core/field-error';
import { labelValueErrors, qualifiedNameErrors } from '../core/kubernetes-names';

/** One label or annotation and the field it came from. */
export interface MetadataEntry {
  readonly key: string;
  readonly value: string;
  /** Field path blamed for a bad key or value. */
  readonly path: string;
}

/** The entries of a plain map, each at `<path>.<key>`. */
export function entriesAt(map: Readonly<Record<string, string>> | undefined, path: string): MetadataEntry[] {
  return Object.entries(map ?? {}).map(([key, value]) => ({ key, value, path: `${path}.${key}` }));
}

/**
 * Label problems: a reserved `modelplane.ai/` key (modelplane's own workload and routing
 * selectors use that prefix, so it could not honour a user value), a key that is not a qualified
 * name, a value that is not a label value, and more than 32 labels (reported at `countPath`).
 */
export function labelErrors(entries: readonly MetadataEntry[], countPath: string): FieldError[] {
  const errors: FieldError[] = [];
  if (entries.length > MAX_METADATA_ENTRIES) {
    errors.push(invalid(countPath, `${entries.length} labels`, `modelplane accepts at most ${MAX_METADATA_ENTRIES} labels here`));
  }
  for (const e of entries) {
    if (e.key.startsWith(RESERVED_LABEL_PREFIX)) {
      errors.push(invalid(e.path, e.key, `label keys under ${JSON.stringify(RESERVED_LABEL_PREFIX)} are reserved by modelplane, which sets them for its own selectors`));
      continue;
    }
    const keyProblems = qualifiedNameErrors(e.key);
    if (keyProblems.length > 0) errors.push(invalid(e.path, e.key, `must be a valid label key: ${keyProblems.join('; ')}`));
    const valueProblems = labelValueErrors(e.value);
    if (valueProblems.length > 0) {
      errors.push(invalid(e.path, e.value, `must be a valid label value (at most ${MAX_LABEL_VALUE_LENGTH} characters): ${valueProblems.join('; ')}`));
    }
  }
  return errors;
}

/** Annotation problems: a key that is not a qualified name, a value over 8192 characters, more than 32 annotations. */
export function annotationErrors(entries: readonly MetadataEntry[], countPath: string): FieldError[] {
  const errors: FieldError[] = [];
  if (entries.length > MAX_METADATA_ENTRIES) {
    errors.push(invalid(countPath, `${entries.length} annotations`, `modelplane accepts at most ${MAX_METADATA_ENTRIES} annotations here`));
  }
  for (const e of entries) {
    const keyProblems = qualifiedNameErrors(e.key);
    if (keyProblems.length > 0) errors.push(invalid(e.path, e.key, `must be a valid annotation key: ${keyProblems.join('; ')}`));
    if (e.value.length > MAX_ANNOTATION_VALUE_LENGTH) {
      errors.push(invalid(e.path, `${e.value.length} characters`, `modelplane accepts annotation values of at most ${MAX_ANNOTATION_VALUE_LENGTH} characters`));
    }
  }
  return errors;
}
