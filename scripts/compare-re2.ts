/**
 * Our Go -> ECMAScript translation of upstream `pattern`s against an RE2 engine (the README's
 * "Choices of dependencies"): for every distinct pattern of the bundled upstream schemas, whether
 * each takes it, what compiling them costs, and whether the two agree on sample strings.
 * re2js is not a dependency; install it for the run:
 *
 *   npm install --no-save re2js@2.10.0
 *   npx ts-node --transpile-only --project scripts/tsconfig.json scripts/compare-re2.ts
 */
import { performance } from 'perf_hooks';
import { translateGoPattern } from '../src/schema-validation/go-regex';
import { readSchemaBundle } from '../src/schema-validation/schema-bundle';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { RE2JS } = require('re2js');
const bundle: any = readSchemaBundle();
const patterns = new Set<string>();
const walk = (x: any): void => {
  if (Array.isArray(x)) return x.forEach(walk);
  if (x && typeof x === 'object') {
    if (typeof x.pattern === 'string') patterns.add(x.pattern);
    Object.values(x).forEach(walk);
  }
};
walk(bundle);
let ecmaOk = 0, re2Ok = 0, both = 0, onlyRe2: string[] = [], onlyEcma: string[] = [];
let tEcma = 0, tRe2 = 0;
for (const p of patterns) {
  let t = performance.now();
  const tr = translateGoPattern(p);
  let e = !('unsupported' in tr);
  if (e) { try { new RegExp((tr as any).pattern, 'u'); } catch { e = false; } }
  tEcma += performance.now() - t;
  t = performance.now();
  let r = true;
  try { RE2JS.compile(p); } catch { r = false; }
  tRe2 += performance.now() - t;
  if (e) ecmaOk++; if (r) re2Ok++; if (e && r) both++;
  if (r && !e) onlyRe2.push(p); if (e && !r) onlyEcma.push(p);
}
console.log({
  patterns: patterns.size,
  ecmaOk,
  re2Ok,
  both,
  onlyRe2: onlyRe2.length,
  onlyEcma: onlyEcma.length,
  compileMsTranslated: tEcma.toFixed(1),
  compileMsRe2: tRe2.toFixed(1),
});
console.log('only RE2:', onlyRe2.slice(0, 10));
console.log('only ECMA:', onlyEcma.slice(0, 10));
// Do the two agree on matching? Sample strings per pattern.
const samples = ['', 'a', 'abc', 'ABC', 'a-b', 'a.b', '1', '10Gi', '-1', 'http://x', 'a b', 'é', 'a\nb', 'abort', 'WARN', '0.5', 'x_y', '/abs/path', 'a/b', 'a:b'];
let disagree = 0; const examples: string[] = [];
for (const p of patterns) {
  const tr = translateGoPattern(p);
  if ('unsupported' in tr) continue;
  let re: RegExp; try { re = new RegExp((tr as any).pattern, 'u'); } catch { continue; }
  let r2: any; try { r2 = RE2JS.compile(p); } catch { continue; }
  for (const s of samples) {
    const a = re.test(s), b = r2.matcher(s).find();
    if (a !== b) { disagree++; if (examples.length < 8) examples.push(`${p} on ${JSON.stringify(s)}: ecma ${a} re2 ${b}`); }
  }
}
console.log({ disagree }, examples);
