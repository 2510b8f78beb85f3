/**
 * The synth's side of `inference.cdk8s.io/upstream-fields` (upstream-fields.ts): the annotation a
 * record carries for the objects synthesized beside it. Kept apart from the codec so that the
 * controller, which only reads the annotation, does not load this (cdk8s) side.
 */
import { ApiObject, Lazy } from 'cdk8s';
import { ANNOTATION_UPSTREAM_FIELDS, encodeUpstreamFields, isCustomResource } from './upstream-fields';

/**
 * `{ 'inference.cdk8s.io/upstream-fields': ... }` for `objects` when any of them is a custom
 * resource, else `{}`. The value is produced when the record is synthesized, from the objects'
 * final JSON: overrides, JSON patches and routing change them after translation, and the
 * annotation must say what is actually applied.
 */
export function upstreamFieldsAnnotation(objects: readonly ApiObject[]): { [key: string]: string } {
  if (!objects.some((o) => isCustomResource(o.apiVersion))) return {};
  return { [ANNOTATION_UPSTREAM_FIELDS]: Lazy.any({ produce: () => encodeUpstreamFields(objects.map((o) => o.toJson())) }) };
}
