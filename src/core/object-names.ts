import { createHash } from 'crypto';
import { FieldError, invalid } from './field-error';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Kinds whose names are stricter than a DNS subdomain: Service names become DNS labels, and Job
 * names become the value of the `batch.kubernetes.io/job-name` label (63 characters at most).
 */
const NAME_RULES: Record<string, { pattern: RegExp; maxLength: number; what: string }> = {
  Service: {
    pattern: DNS1035_LABEL,
    maxLength: 63,
    what: 'a DNS-1035 label (lowercase letters, digits and "-", starting with a letter and ending with a letter or digit)',
  },
  Job: {
    pattern: DNS1123_SUBDOMAIN,
    maxLength: 63,
    what: 'a DNS subdomain (lowercase letters, digits, "-" and ".", each dot-separated part starting and ending with a letter or digit)',
  },
};
const DEFAULT_RULE = {
  pattern: DNS1123_SUBDOMAIN,
  maxLength: 253,
  what: 'a DNS subdomain (lowercase letters, digits, "-" and ".", each dot-separated part starting and ending with a letter or digit)',
};

/**
 * Checks the names of the objects derived from a deployment name, so a bad name fails the synth
 * with the deployment's name as the culprit instead of being rejected by the API server later.
 * The message says whether the derived name is too long, has the wrong form, or both.
 */
export function checkDerivedObjectNames(deploymentName: string, objects: ReadonlyArray<{ kind: string; name: string }>): FieldError[] {
  const errors: FieldError[] = [];
  for (const o of objects) {
    const rule = NAME_RULES[o.kind] ?? DEFAULT_RULE;
    const tooLong = o.name.length > rule.maxLength;
    const badForm = !rule.pattern.test(o.name);
    if (!tooLong && !badForm) continue;
    const problems: string[] = [];
    if (tooLong) problems.push(`is ${o.name.length} characters long, more than the ${rule.maxLength} allowed`);
    if (badForm) problems.push(`must be ${rule.what}`);
    const advice = tooLong ? '; use a shorter ModelDeployment name' : '';
    errors.push(invalid('metadata.name', deploymentName, `derived ${o.kind} name "${o.name}" ${problems.join(', and ')}${advice}`));
  }
  return errors;
}

/**
 * A default deployment name from a construct id: lowercased, invalid characters replaced by '-',
 * and, when longer than `maxLength`, shortened with a stable hash suffix so it stays unique.
 */
export function defaultDeploymentName(id: string, maxLength: number): string {
  let name = id.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '');
  if (name === '') name = 'model';
  if (name.length <= maxLength) return name;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `${name.slice(0, maxLength - 9).replace(/-+$/, '')}-${hash}`;
}
