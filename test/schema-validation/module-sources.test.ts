import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { moduleSources } from '../../src/schema-validation/module-sources';

const SRC = path.join(__dirname, '..', '..', 'src', 'schema-validation');

describe('moduleSources: what keys the schema caches by code', () => {
  test('the named modules beside it, in order', () => {
    const text = moduleSources(['go-regex', 'module-sources'])!;
    expect(text).toBe(`${fs.readFileSync(path.join(SRC, 'go-regex.ts'), 'utf8')}\n${fs.readFileSync(path.join(SRC, 'module-sources.ts'), 'utf8')}`);
  });

  test('bundled (no module files beside the running file): the running file itself', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'module-sources-'));
    try {
      const bundle = path.join(dir, 'bundle.js');
      fs.writeFileSync(bundle, '/* every module */');
      expect(moduleSources(['go-regex'], dir, bundle)).toBe('/* every module */');
      fs.writeFileSync(bundle, '/* the next version */');
      expect(moduleSources(['go-regex'], dir, bundle)).toBe('/* the next version */');
      expect(moduleSources(['go-regex'], dir, path.join(dir, 'missing.js'))).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
