/**
 * Where a LoRA adapter's weights come from, written as a URI in the `inference.cdk8s.io/lora`
 * annotation:
 *
 * - `hf://<org>/<repo>[@<revision>]`: a Hugging Face repository, fetched before the engine starts;
 * - `pvc://<claim>[/<path>]`: a directory of a PersistentVolumeClaim in the deployment's namespace.
 *
 * Every part ends up as one argv element of the download container or as a volume field, never in
 * a shell; the rules below still keep each part to characters that cannot be read as an option
 * (no leading `-`) or as a path escape (`..`), so a value means the same thing to every reader.
 */
import { dnsLabelErrors } from '../../core/kubernetes-names';

/** A parsed adapter source. */
export type ParsedAdapterSource =
  | { readonly kind: 'huggingFace'; readonly repo: string; readonly revision?: string }
  | { readonly kind: 'persistentVolumeClaim'; readonly claimName: string; readonly path: string };

/** URI scheme of a Hugging Face source. */
export const HF_SCHEME = 'hf://';
/** URI scheme of a PersistentVolumeClaim source. */
export const PVC_SCHEME = 'pvc://';

/** Longest source URI accepted: Hugging Face ids are at most 96 characters per part, revisions and paths far shorter in practice. */
export const MAX_SOURCE_LENGTH = 512;

/**
 * One part of a Hugging Face repository id (the organisation or the repository name): letters,
 * digits, `-`, `_` and `.`, starting and ending with a letter or digit, at most 96 characters
 * (Hugging Face's own limits; it also refuses `--` and `..`).
 */
const HF_ID_PART = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$/;
/** A branch, tag or commit: letters, digits, `-`, `_`, `.` and `/`, starting with a letter or digit. */
const HF_REVISION = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/;
/** One directory of a path inside a claim. */
const PATH_SEGMENT = /^[A-Za-z0-9._-]+$/;

/** What a source must look like, in every message about one. */
export const SOURCE_FORMS = 'hf://<org>/<repo>[@<revision>] or pvc://<claim>[/<path>]';

/** The source a URI names, or the problem with it (a sentence completing "source ..."). */
export function parseAdapterSource(uri: string): { source?: ParsedAdapterSource; problem?: string } {
  if (uri.length > MAX_SOURCE_LENGTH) return { problem: `is ${uri.length} characters long, more than the ${MAX_SOURCE_LENGTH} allowed` };
  if (uri.startsWith(HF_SCHEME)) return parseHuggingFace(uri.slice(HF_SCHEME.length));
  if (uri.startsWith(PVC_SCHEME)) return parseClaim(uri.slice(PVC_SCHEME.length));
  return { problem: `must be ${SOURCE_FORMS}` };
}

function parseHuggingFace(rest: string): { source?: ParsedAdapterSource; problem?: string } {
  const at = rest.indexOf('@');
  const id = at >= 0 ? rest.slice(0, at) : rest;
  const revision = at >= 0 ? rest.slice(at + 1) : undefined;
  const parts = id.split('/');
  if (parts.length !== 2 || !parts.every((p) => HF_ID_PART.test(p) && !p.includes('--') && !p.includes('..'))) {
    return {
      problem: 'must name a Hugging Face repository as hf://<org>/<repo>: two parts of letters, digits, "-", "_" and ".", ' +
        'each starting and ending with a letter or digit, at most 96 characters, without "--" or ".."',
    };
  }
  if (revision !== undefined && (!HF_REVISION.test(revision) || revision.split('/').some((s) => s === '' || s === '.' || s === '..'))) {
    return {
      problem: 'has a revision (after "@") that is not a branch, tag or commit: letters, digits, "-", "_", "." and "/", ' +
        'starting with a letter or digit, at most 255 characters, without empty, "." or ".." parts',
    };
  }
  return { source: { kind: 'huggingFace', repo: id, ...(revision !== undefined && { revision }) } };
}

function parseClaim(rest: string): { source?: ParsedAdapterSource; problem?: string } {
  const slash = rest.indexOf('/');
  const claimName = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash + 1).replace(/\/+$/, '') : '';
  const claimProblems = dnsLabelErrors(claimName);
  if (claimName === '' || claimProblems.length > 0) {
    return { problem: `must name a PersistentVolumeClaim as pvc://<claim>[/<path>]; the claim name ${JSON.stringify(claimName)} is not a DNS label: ${claimProblems.join('; ') || 'it is empty'}` };
  }
  const problem = claimPathProblem(path);
  if (problem) return { problem };
  return { source: { kind: 'persistentVolumeClaim', claimName, path } };
}

/** The problem of a directory inside a claim (relative, `/`-separated), or undefined; empty means the claim's root. */
export function claimPathProblem(path: string): string | undefined {
  if (path === '') return undefined;
  if (path.startsWith('/') || path.split('/').some((s) => s === '.' || s === '..' || !PATH_SEGMENT.test(s))) {
    return `has the path ${JSON.stringify(path)} inside the claim; it must be relative, its parts letters, digits, "-", "_" and ".", ` +
      'without empty, "." or ".." parts';
  }
  return undefined;
}

/** The URI of a parsed source (the inverse of `parseAdapterSource`). */
export function adapterSourceUri(source: ParsedAdapterSource): string {
  if (source.kind === 'huggingFace') return `${HF_SCHEME}${source.repo}${source.revision !== undefined ? `@${source.revision}` : ''}`;
  return `${PVC_SCHEME}${source.claimName}${source.path !== '' ? `/${source.path}` : ''}`;
}
