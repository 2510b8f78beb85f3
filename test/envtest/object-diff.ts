/**
 * What the API server dropped or changed from an object it was sent.
 *
 * The walk follows the object *sent*: every value in it must come back equal. A field present in
 * the reply but absent from what was sent is one the server added — defaulted (`spec.replicas`,
 * `imagePullPolicy`, CRD `default`s), allocated (`spec.clusterIP`), or server-owned — and is
 * ignored. A field present in what was sent and missing from the reply was pruned; one that comes
 * back different was changed. Both are reported with their path.
 *
 * One change is not a loss and is reported apart (`normalized`): a resource quantity the server
 * rewrote in its canonical spelling with the same value (`1` → `"1"`, `"0.5"` → `"500m"`,
 * `"1024Mi"` → `"1Gi"`). The server serializes every `resource.Quantity` that way; only quantity
 * fields can come back as a different string or as a string for a number.
 *
 * Empty values are not special: a `[]` or `{}` sent that comes back absent or `null` is reported.
 * For built-in kinds Go's `omitempty` makes those equivalent, but no example emits one today, and
 * for custom resources the difference can be real.
 *
 * Ignored even when sent, because the server owns them: `metadata.uid`, `metadata.resourceVersion`,
 * `metadata.creationTimestamp`, `metadata.generation`, `metadata.managedFields`, and `status`
 * (a create through the main resource of a kind with a status subresource resets it).
 */

/** A field of the object sent that did not come back as sent. */
export interface FieldDifference {
  /** e.g. `spec.template.spec.containers[0].args[2]`, `metadata.labels["app.kubernetes.io/name"]`. */
  readonly path: string;
  /**
   * `pruned`: absent from the reply; `changed`: present with another value (or type);
   * `normalized`: a quantity respelled with the same value (not a loss).
   */
  readonly kind: 'pruned' | 'changed' | 'normalized';
  readonly sent: unknown;
  readonly returned: unknown;
}

/** Paths (from the object root) the server owns, ignored even when sent. */
export const SERVER_OWNED_PATHS: readonly string[] = [
  'metadata.uid',
  'metadata.resourceVersion',
  'metadata.creationTimestamp',
  'metadata.generation',
  'metadata.managedFields',
  'status',
];

/** Every field of `sent` that `returned` lacks or holds differently. */
export function fieldDifferences(sent: unknown, returned: unknown): FieldDifference[] {
  const out: FieldDifference[] = [];
  walk(sent, returned, '', out);
  return out;
}

function walk(sent: unknown, returned: unknown, path: string, out: FieldDifference[]): void {
  if (SERVER_OWNED_PATHS.includes(path)) return;
  if (Array.isArray(sent)) {
    if (!Array.isArray(returned)) {
      out.push({ path, kind: 'changed', sent, returned });
      return;
    }
    sent.forEach((item, i) => {
      const p = `${path}[${i}]`;
      if (i >= returned.length) out.push({ path: p, kind: 'pruned', sent: item, returned: undefined });
      else walk(item, returned[i], p, out);
    });
    return;
  }
  if (isObject(sent)) {
    if (!isObject(returned)) {
      out.push({ path, kind: 'changed', sent, returned });
      return;
    }
    for (const [key, value] of Object.entries(sent)) {
      const p = join(path, key);
      if (SERVER_OWNED_PATHS.includes(p)) continue;
      if (!(key in returned)) out.push({ path: p, kind: 'pruned', sent: value, returned: undefined });
      else walk(value, returned[key], p, out);
    }
    return;
  }
  if (sent !== returned) out.push({ path, kind: sameQuantity(sent, returned) ? 'normalized' : 'changed', sent, returned });
}

/**
 * A Kubernetes quantity (`<number><suffix>`: binary Ki..Ei, decimal n u m k M G T P E, or an
 * exponent e<int>), as a number; undefined when `v` is not one.
 */
export function quantityValue(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  const binary: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
  const decimal: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  if (suffix in binary) return n * 1024 ** binary[suffix];
  if (suffix in decimal) return n * 10 ** decimal[suffix];
  if (/^[eE]/.test(suffix)) return n * 10 ** Number(suffix.slice(1));
  return n;
}

/** Both are quantities of the same value, and the reply spells it as a string (the server's canonical form). */
function sameQuantity(sent: unknown, returned: unknown): boolean {
  if (typeof returned !== 'string') return false;
  const a = quantityValue(sent);
  const b = quantityValue(returned);
  return a !== undefined && b !== undefined && Math.abs(a - b) <= Math.abs(a) * 1e-12;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function join(path: string, key: string): string {
  const part = /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (part.startsWith('[')) return path + part;
  return path ? `${path}.${part}` : part;
}

/** One line per difference, for failure messages. */
export function formatDifferences(diffs: FieldDifference[]): string[] {
  const show = (v: unknown): string => (v === undefined ? '(absent)' : truncate(JSON.stringify(v), 120));
  return diffs.map((d) => (d.kind === 'pruned' ? `pruned ${d.path} (sent ${show(d.sent)})` : `${d.kind} ${d.path}: sent ${show(d.sent)}, got ${show(d.returned)}`));
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
