import { isJsonObject } from '../../core/json-object';
import { LABEL_RENDERED_BY, RENDERED_BY_VALUE } from '../../core/labels';

/** True when the controller reconciles this record: it carries LABEL_RENDERED_BY = RENDERED_BY_VALUE (src/core/labels.ts). */
export function isRenderedRecord(record: any): boolean {
  if (!isJsonObject(record) || !isJsonObject(record.metadata)) return false;
  const labels = record.metadata.labels;
  return isJsonObject(labels) && labels[LABEL_RENDERED_BY] === RENDERED_BY_VALUE;
}
