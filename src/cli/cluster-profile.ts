import { documentLabel, InputDocument, InputProblem, readInputDocuments } from './input-documents';
import type { ProviderRegistry } from '../constructs/provider-registry';
import { formatFieldError } from '../core/field-error';
import { ClusterProfile, ProfileLocation, readClusterProfile } from '../selection/cluster-profile';

/** The `--profile` file, read and checked. */
export interface LoadedProfile {
  /** The path as given; messages name the profile by it. */
  readonly file: string;
  /** Its documents, so problems can point at their lines. */
  readonly documents: readonly InputDocument[];
  readonly profile: ClusterProfile;
  /** Where each profile object is, by its `ProfileLocation.index`. */
  document(at: ProfileLocation): InputDocument;
}

/**
 * Reads the `--profile` file: InferenceProviderConfig, Gateway and NodePool documents, or a
 * `kind: List` of them (`kubectl get inferenceproviderconfigs -o yaml`). Every problem is
 * collected with its document and field path.
 */
export function loadClusterProfile(file: string): { loaded: LoadedProfile; problems: InputProblem[] } {
  const { documents, problems } = readInputDocuments([file]);
  // Positions in `documents` identify profile objects: a directory holds several files.
  const { profile, problems: fieldProblems } = readClusterProfile(documents.map((d, n) => ({ index: n, content: d.content })));
  for (const p of fieldProblems) {
    const doc = documents[p.index];
    problems.push({ file: doc.file, index: doc.index, ...subjectOf(doc), message: formatFieldError(p.error) });
  }
  return { loaded: { file, documents, profile, document: (at) => documents[at.index] }, problems };
}

/**
 * Applies the profile to the registry: listed providers are the installed ones, with the
 * profile's readiness; a provider document with a spec replaces the registered spec.
 */
export function applyClusterProfile(registry: ProviderRegistry, loaded: LoadedProfile, problems: InputProblem[]): void {
  for (const p of registry._applyProfile(loaded.profile, loaded.file)) {
    const doc = loaded.documents[p.index];
    problems.push({ file: doc.file, index: doc.index, ...subjectOf(doc), message: formatFieldError(p.error) });
  }
}

/**
 * One line on what the output assumes is installed, for `explain`: the profile's providers and
 * Gateway, or, without a profile, that every registered provider is assumed installed.
 */
export function describeClusterProfile(registry: ProviderRegistry, profileFile: string | undefined): string {
  const entries = registry._catalog().entries;
  const names = (keep: (e: (typeof entries)[number]) => boolean) => entries.filter(keep).map((e) => e.name).sort().join(', ') || 'none';
  const gateway = registry.gateway ? `; Gateway ${registry.gateway.namespace}/${registry.gateway.name}` : '; no Gateway';
  if (!profileFile) {
    return `cluster profile: none (--profile FILE not given): every provider is assumed installed; ready: ${names((e) => e.ready)}; ` +
      `not ready: ${names((e) => !e.ready)}${gateway}\n\n`;
  }
  if (!registry._profile()) return `cluster profile: ${profileFile} is invalid (see the errors) and was not applied\n\n`;
  return `cluster profile: ${profileFile}: ready: ${names((e) => !e.notInProfile && e.ready)}; installed, not ready: ${names((e) => !e.notInProfile && !e.ready)}; ` +
    `not installed: ${names((e) => e.notInProfile === true)}${gateway}\n\n`;
}

/** Notes for profile documents that leave readiness unsaid (counted as not ready). */
export function profileNotes(loaded: LoadedProfile): string[] {
  return loaded.profile.providers
    .filter((p) => !p.readyStated)
    .map((p) => `note: ${documentLabel(loaded.document(p.at).file, loaded.document(p.at).index)}: ${p.at.prefix}status.ready is not set: ` +
      `provider ${p.name} counts as not ready, as in AI Runway`);
}

function subjectOf(doc: InputDocument): { subject?: string } {
  const kind = doc.content?.kind;
  const name = doc.content?.metadata?.name;
  return typeof kind === 'string' && !kind.endsWith('List') && typeof name === 'string' ? { subject: `${kind} ${name}` } : {};
}
