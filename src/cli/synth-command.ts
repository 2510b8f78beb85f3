import * as fs from 'fs';
import * as path from 'path';
import { Yaml } from 'cdk8s';
import { Warnings } from '../warnings';
import type { CliRouting } from './arguments';
import { buildApp, DocumentDeployment } from './build-app';
import { formatProblem, readInputDocuments } from './input-documents';
import type { CliIo } from './io';

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
  for (const w of Warnings.collect(built.app)) {
    const owner = built.deployments.find((d) => w.path.startsWith(d.deployment.node.path));
    io.stderr(`warning: ${owner ? `${owner.document.file}[doc ${owner.document.index}]: ` : ''}${w.message}`);
  }
  if (outdir === undefined) {
    io.stdout(Yaml.stringify(...built.deployments.flatMap(manifestsOf), ...built.gateways.map((g) => g.toJson())));
    return 0;
  }
  fs.mkdirSync(outdir, { recursive: true });
  for (const d of built.deployments) {
    const ns = d.deployment.namespace;
    const file = path.join(outdir, `${ns ? ns + '-' : ''}${d.deployment.name}.k8s.yaml`);
    fs.writeFileSync(file, Yaml.stringify(...manifestsOf(d)));
    io.stderr(`wrote ${file}`);
  }
  for (const g of built.gateways) {
    const file = path.join(outdir, `gateway-${g.metadata.namespace}-${g.name}.k8s.yaml`);
    fs.writeFileSync(file, Yaml.stringify(g.toJson()));
    io.stderr(`wrote ${file}`);
  }
  return 0;
}

function manifestsOf(d: DocumentDeployment): any[] {
  const objects = [...d.deployment.apiObjects, ...(d.deployment.record ? [d.deployment.record] : [])];
  return objects.map((o) => o.toJson());
}
