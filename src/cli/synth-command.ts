import type { CliRouting } from './arguments';
import { buildApp, DocumentDeployment } from './build-app';
import { profileNotes } from './cluster-profile';
import { documentLabel, formatProblem, noModelDeploymentProblem, readInputDocuments } from './input-documents';
import type { CliIo } from './io';
import { manifestsYaml } from './manifest-yaml';
import { outputFile, OutputDirectoryError, writeOutputDirectory } from './output-files';
import { Warnings } from '../api/warnings';
import { renderedJson, withRenderedJsonCache } from '../core/rendered-json';

/**
 * `synth`: YAML in, upstream YAML out. Nothing is written unless every input is valid; `-o DIR`
 * replaces its files atomically and removes the ones an earlier run wrote that are no longer produced.
 */
export function runSynth(files: readonly string[], outdir: string | undefined, routing: CliRouting, io: CliIo): number {
  // The objects do not change once built: the checks at validation and the output share one rendering.
  return withRenderedJsonCache(() => synth(files, outdir, routing, io));
}

function synth(files: readonly string[], outdir: string | undefined, routing: CliRouting, io: CliIo): number {
  const { documents, problems } = readInputDocuments(files, io.stdin?.bind(io));
  const built = buildApp(documents, routing);
  const empty = noModelDeploymentProblem(files, documents, problems);
  const allProblems = [...problems, ...built.problems, ...(empty ? [empty] : [])];
  if (allProblems.length > 0) {
    for (const p of allProblems) io.stderr(`error: ${formatProblem(p, built.documents)}`);
    io.stderr(`${allProblems.length} error(s); nothing was written.`);
    return 1;
  }
  for (const note of built.profile ? profileNotes(built.profile) : []) io.stderr(note);
  for (const d of built.deployments) {
    for (const w of Warnings.collect(d.deployment)) io.stderr(`warning: ${documentLabel(d.document.file, d.document.index)}: ${w.message}`);
  }
  for (const g of built.gateways) {
    for (const w of Warnings.collect(g)) io.stderr(`warning: Gateway ${g.metadata.namespace}/${g.name}: ${w.message}`);
  }
  if (outdir === undefined) {
    io.stdout(manifestsYaml([...built.deployments.flatMap(manifestsOf), ...built.gateways.map((g) => g.toJson())]));
    return 0;
  }
  const outputs = new Map<string, string>();
  for (const d of built.deployments) {
    outputs.set(outputFile(outdir, d.deployment.namespace, d.deployment.name, '.k8s.yaml'), manifestsYaml(manifestsOf(d)));
  }
  for (const g of built.gateways) {
    const file = outputFile(outdir, g.metadata.namespace, g.name, '.gateway.k8s.yaml');
    if (outputs.has(file)) throw new Error(`two Gateways would be written to ${file}`);
    outputs.set(file, manifestsYaml([g.toJson()]));
  }
  let changes;
  try {
    changes = writeOutputDirectory(outdir, outputs);
  } catch (e: any) {
    if (!(e instanceof OutputDirectoryError) && typeof e?.code !== 'string') throw e;
    io.stderr(`error: cannot write ${outdir}: ${e.code ?? e.message}`);
    return 1;
  }
  for (const file of changes.written) io.stderr(`wrote ${file}`);
  for (const file of changes.removed) io.stderr(`removed ${file} (no longer produced)`);
  return 0;
}

function manifestsOf(d: DocumentDeployment): any[] {
  const objects = [...d.deployment.apiObjects, ...(d.deployment.record ? [d.deployment.record] : [])];
  return objects.map(renderedJson);
}
