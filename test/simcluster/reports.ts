import * as fs from 'fs';
import * as path from 'path';

/** Where the simulated-cluster scenarios leave their reports (CI keeps test-reports/). */
export const REPORT_DIR = path.resolve(__dirname, '..', '..', 'test-reports', 'simcluster');

/** Writes a scenario's report as `<name>.md` and `<name>.json` in REPORT_DIR. */
export function writeReport(name: string, markdown: string, json: unknown): void {
  fs.mkdirSync(REPORT_DIR, { recursive: true });
  fs.writeFileSync(path.join(REPORT_DIR, `${name}.md`), markdown + '\n');
  fs.writeFileSync(path.join(REPORT_DIR, `${name}.json`), JSON.stringify(json, null, 2));
}
