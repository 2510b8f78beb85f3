import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { problems } from './fixtures';
import { restore, useSyntheticUpstream, widget } from './synthetic-upstream';
import { ConversionCache, SCHEMA_CACHE_ENV, schemaCacheDir } from '../../src/schema-validation/conversion-cache';
import { resetUpstreamSchemas, schemaLoadStats } from '../../src/schema-validation/upstream-schemas';

describe('on-disk cache of converted CRD/XRD files', () => {
  const upstream = useSyntheticUpstream();

  test('converted schemas are cached on disk and reused by a fresh registry', () => {
    // Converts and caches the file defining Widget (the first lookup in this file).
    expect(problems(widget({ size: 1 }))).toEqual([]);
    expect(fs.readdirSync(upstream.cacheDir).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0);
    resetUpstreamSchemas();
    expect(problems(widget({ size: 1 }))).toEqual([]);
    expect(schemaLoadStats().cacheHits).toBeGreaterThan(0);
  });

  test('keys depend on the content and on the conversion modules\' source', () => {
    const cache = new ConversionCache(upstream.cacheDir);
    expect(cache.fileFor('a')).not.toBe(cache.fileFor('b'));
    // Without the sources (bundled, say), the salt would be the hash of 'no-source'.
    const noSource = crypto.createHash('sha1').update('no-source').digest('hex');
    const unsalted = crypto.createHash('sha1').update(noSource).update('a').digest('hex');
    expect(cache.fileFor('a')).toBe(new ConversionCache(upstream.cacheDir).fileFor('a'));
    expect(cache.fileFor('a')).not.toBe(path.join(upstream.cacheDir, `${unsalted}.json`));
  });

  test('the cache location comes from the environment; off disables it', () => {
    const saved = process.env[SCHEMA_CACHE_ENV];
    try {
      delete process.env[SCHEMA_CACHE_ENV];
      expect(schemaCacheDir()).toBe(path.join(os.tmpdir(), 'cdk8s-inference-upstream-schemas'));
      process.env[SCHEMA_CACHE_ENV] = 'off';
      expect(schemaCacheDir()).toBeUndefined();
      expect(new ConversionCache(schemaCacheDir()).fileFor('a')).toBeUndefined();
    } finally {
      restore(SCHEMA_CACHE_ENV, saved);
    }
  });
});
