import * as fs from 'fs';
import * as path from 'path';
import { Yaml } from 'cdk8s';
import type { CliRouting } from './arguments';
import { buildApp, DocumentDeployment } from './build-app';
import { formatProblem, readInputDocuments } from './input-documents';
import type { CliIo } from './io';
import { outputFile } from './output-files';
import { Warnings } from '../api/warnings';

/**
 * `synth`: YAML in, upstream YAML out. Nothing is written unless every input is valid.
 */
export function runSynth(files: readonly string[], outdir: string | undefined, routing: CliRouting, io: CliIo): number {
  const { documents, problems } = readInputDocuments(files);
  const built = buildApp(documents, routing);
  const allProblems = [...problems, ...built.problems];
  if (allProblems.length > 0) {
    for (const p of allProblems) io.stderr(`error: ${formatProblem(p)}`);
    io.stderr(`${allProblems.length} error(s); nothing was written.`);
    return 1;
  }
  for (const d of built.deployments) {
    for (const w of Warnings.collect(d.deployment)) io.stderr(`warning: ${d.document.file}[doc ${d.document.index}]: ${w.message}`);
  }
  for (const g of built.gateways) {
    for (const w of Warnings.collect(g)) io.stderr(`warning: Gateway ${g.metadata.namespace}/${g.name}: ${w.message}`);
  }
  if (outdir === undefined) {
    io.stdout(Yaml.stringify(...built.deployments.flatMap(manifestsOf), ...built.gateways.map((g) => g.toJson())));
    return 0;
  }
  const outputs = new Map<string, string>();
  for (const d of built.deployments) {
    outputs.set(outputFile(outdir, d.deployment.namespace, d.deployment.name, '.k8s.yaml'), Yaml.stringify(...manifestsOf(d)));
  }
  for (const g of built.gateways) {
    const file = outputFile(outdir, g.metadata.namespace, g.name, '.gateway.k8s.yaml');
    if (outputs.has(file)) throw new Error(`two Gateways would be written to ${file}`);
    outputs.set(file, Yaml.stringify(g.toJson()));
  }
  for (const [file, text] of outputs) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    io.stderr(`wrote ${file}`);
  }
  return 0;
}

function manifestsOf(d: DocumentDeployment): any[] {
  const objects = [...d.deployment.apiObjects, ...(d.deployment.record ? [d.deployment.record] : [])];
  return objects.map((o) => o.toJson());
}
