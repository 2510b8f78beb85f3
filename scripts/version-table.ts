/**
 * The version matrix (src/core/version-matrix.ts) as the README's table, written between the
 * README's markers by `npx projen docs:versions`; test/readme.test.ts fails when the README's
 * copy is stale.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_IMAGES } from '../src/core/version-matrix';

export const VERSION_TABLE_START = '<!-- version-matrix:start (npx projen docs:versions) -->';
export const VERSION_TABLE_END = '<!-- version-matrix:end -->';

/** The version matrix as a Markdown table. */
export function versionMatrixTable(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = DEFAULT_IMAGES.map((d) =>
    `| ${d.provider} | ${d.engine} | \`${d.repository}:${d.tag}\` | ${cell(d.carries)} | ${cell(d.runs)} | ${d.parser ? `\`${d.parser}\`` : '—'} | ${d.why ? cell(d.why) : ''} |`);
  return [
    '| provider | engine or component | default image | carries | runs | conformance parser | why this version |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `readme` with the table between the markers replaced by the current one. */
export function withVersionTable(readme: string): string {
  const start = readme.indexOf(VERSION_TABLE_START);
  const end = readme.indexOf(VERSION_TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${VERSION_TABLE_START} … ${VERSION_TABLE_END}`);
  return `${readme.slice(0, start + VERSION_TABLE_START.length)}\n${versionMatrixTable()}\n${readme.slice(end)}`;
}

if (require.main === module) {
  const file = path.join(__dirname, '..', 'README.md');
  fs.writeFileSync(file, withVersionTable(fs.readFileSync(file, 'utf8')));
}
