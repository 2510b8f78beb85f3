/**
 * Prints the record written by record-thrown-messages.ts as one sorted text (test file, test
 * name, message per line), so the records of two runs compare with `diff`.
 *
 *   npx ts-node --project scripts/tsconfig.json scripts/refactor-proof/collect-thrown-messages.ts DIR
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: collect-thrown-messages.ts DIR');
  process.exit(2);
}
// fs.mkdtemp's six random characters differ from run to run; the rest of such a path does not.
const TEMP_DIR = new RegExp(`(${os.tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[\\w.-]*?-)[A-Za-z0-9]{6}(?=/)`, 'g');
const lines: string[] = [];
for (const file of fs.readdirSync(dir).sort()) {
  for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
    if (line) lines.push(`${file.replace(/\.txt$/, '')}\t${line.replace(TEMP_DIR, '$1XXXXXX')}`);
  }
}
// Sorted: jest's order of test files is not fixed, and within a file the order is the same anyway.
console.log(lines.sort().join('\n'));
