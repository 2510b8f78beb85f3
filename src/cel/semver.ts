/**
 * Kubernetes' CEL semver library for @bufbuild/cel: `semver(string)`, `semver(string, bool)`,
 * `isSemver(string)`, `isSemver(string, bool)` and the methods of a `kubernetes.Semver` —
 * `major`, `minor`, `patch`, `compareTo`, `isGreaterThan`, `isLessThan` — with the semantics the
 * API server documents for them. DRA device selectors compare driver versions with it
 * (`device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0"))`), and
 * CRD validation rules may call it too.
 *
 * `semver(s)` accepts exactly the versions of semver.org 2.0.0 (MAJOR.MINOR.PATCH, no leading
 * zeros, optional pre-release and build metadata; each number at most 2^64-1). With `normalize`
 * true it first removes a leading `v`, supplies a missing minor or patch as 0 and strips leading
 * zeros from MAJOR.MINOR.PATCH: `semver("v1.02", true)` is 1.2.0. Comparison follows semver.org's
 * precedence, build metadata ignored — and so does `==`: a `kubernetes.Semver` message holds the
 * version's text without build metadata, so two versions are equal exactly when their precedence is.
 */
import type * as CelLib from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import type * as ProtobufWkt from '@bufbuild/protobuf/wkt';
import { kubernetesTextMessageRegistry } from './text-message';

/** The CEL type name of a semantic version, as Kubernetes names it. */
export const SEMVER_TYPE_NAME = 'kubernetes.Semver';

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** A parsed semantic version. */
export interface Semver {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  /** Pre-release identifiers (`rc.1` is `['rc', '1']`); empty for a release. */
  readonly prerelease: readonly string[];
  /** Build metadata identifiers; never part of comparisons. */
  readonly build: readonly string[];
}

/** What a CEL environment needs for the library: the message type and the functions. */
export interface CelSemverLibrary {
  readonly registry: Protobuf.Registry;
  readonly funcs: CelLib.CelFunc[];
}

/** semver.org 2.0.0's grammar: numbers without leading zeros, dot-separated identifiers. */
const SEMVER = new RegExp(
  '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)'
  + '(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?'
  + '(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
);

/**
 * Parses a semantic version; undefined when it is not one. With `normalize`, a leading `v`,
 * a missing minor or patch and leading zeros in MAJOR.MINOR.PATCH are forgiven first.
 */
export function parseSemver(text: string, normalize = false): Semver | undefined {
  const m = SEMVER.exec(normalize ? normalizeSemver(text) : text);
  if (!m) {
    return undefined;
  }
  const [major, minor, patch] = [m[1], m[2], m[3]].map(BigInt);
  const prerelease = m[4] ? m[4].split('.') : [];
  if (major > UINT64_MAX || minor > UINT64_MAX || patch > UINT64_MAX || prerelease.some((p) => /^[0-9]+$/.test(p) && BigInt(p) > UINT64_MAX)) {
    return undefined;
  }
  return { major, minor, patch, prerelease, build: m[5] ? m[5].split('.') : [] };
}

/** -1, 0 or 1 as `a` has lower, the same or higher precedence than `b` (semver.org §11). */
export function compareSemver(a: Semver, b: Semver): -1 | 0 | 1 {
  for (const k of ['major', 'minor', 'patch'] as const) {
    if (a[k] !== b[k]) {
      return a[k] < b[k] ? -1 : 1;
    }
  }
  // A pre-release ranks below its release.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return a.prerelease.length === b.prerelease.length ? 0 : a.prerelease.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.min(a.prerelease.length, b.prerelease.length); i++) {
    const c = compareIdentifier(a.prerelease[i], b.prerelease[i]);
    if (c !== 0) {
      return c;
    }
  }
  return a.prerelease.length === b.prerelease.length ? 0 : a.prerelease.length < b.prerelease.length ? -1 : 1;
}

/** The version's text without build metadata (what a `kubernetes.Semver` message holds). */
export function semverText(v: Semver): string {
  return `${v.major}.${v.minor}.${v.patch}${v.prerelease.length > 0 ? `-${v.prerelease.join('.')}` : ''}`;
}

/** Builds the library on the loaded @bufbuild/cel and @bufbuild/protobuf. */
export function celSemverLibrary(cel: typeof CelLib, protobuf: typeof Protobuf, wkt: typeof ProtobufWkt): CelSemverLibrary {
  const registry = kubernetesTextMessageRegistry(protobuf, wkt, 'Semver');
  const type = cel.objectType(SEMVER_TYPE_NAME);
  const { STRING, BOOL, INT } = cel.CelScalar;

  const desc = registry.getMessage(SEMVER_TYPE_NAME)!;
  const make = (v: Semver): Protobuf.Message => protobuf.create(desc, { value: semverText(v) } as any);
  const parse = (text: string, normalize: boolean): Semver => {
    const v = parseSemver(text, normalize);
    if (!v) {
      throw new Error(`invalid semver ${JSON.stringify(text)}: expected MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD] as semver.org 2.0.0 defines${normalize ? ' (after normalizing)' : ''}`);
    }
    return v;
  };
  const of = (value: unknown): Semver => parse(textOf(value), false);
  const int = (n: bigint): bigint => {
    if (n > INT64_MAX) throw new Error(`semver component ${n} does not fit in an int`);
    return n;
  };

  const funcs = [
    cel.celFunc('semver', [STRING], type, (s) => make(parse(s, false)) as any),
    cel.celFunc('semver', [STRING, BOOL], type, (s, normalize) => make(parse(s, normalize)) as any),
    cel.celFunc('isSemver', [STRING], BOOL, (s) => parseSemver(s) !== undefined),
    cel.celFunc('isSemver', [STRING, BOOL], BOOL, (s, normalize) => parseSemver(s, normalize) !== undefined),
    cel.celMethod('major', type, [], INT, function () {
      return int(of(this).major);
    }),
    cel.celMethod('minor', type, [], INT, function () {
      return int(of(this).minor);
    }),
    cel.celMethod('patch', type, [], INT, function () {
      return int(of(this).patch);
    }),
    cel.celMethod('compareTo', type, [type], INT, function (other) {
      return BigInt(compareSemver(of(this), of(other)));
    }),
    cel.celMethod('isGreaterThan', type, [type], BOOL, function (other) {
      return compareSemver(of(this), of(other)) > 0;
    }),
    cel.celMethod('isLessThan', type, [type], BOOL, function (other) {
      return compareSemver(of(this), of(other)) < 0;
    }),
  ];
  return { registry, funcs };
}

/**
 * Normalizing as Kubernetes documents it: drop one leading `v`, then in MAJOR[.MINOR[.PATCH]]
 * (before any `-` or `+`) strip leading zeros and supply what is missing as 0. Text that does
 * not have that shape is returned as it is, for the strict grammar to reject.
 */
function normalizeSemver(text: string): string {
  const s = text.startsWith('v') ? text.slice(1) : text;
  const end = s.search(/[-+]/);
  const core = (end < 0 ? s : s.slice(0, end)).split('.');
  if (core.length > 3 || core.some((p) => !/^[0-9]+$/.test(p))) {
    return text;
  }
  while (core.length < 3) {
    core.push('0');
  }
  return core.map((p) => p.replace(/^0+(?=[0-9])/, '')).join('.') + (end < 0 ? '' : s.slice(end));
}

/** semver.org §11.4: numeric identifiers compare as numbers and rank below alphanumeric ones. */
function compareIdentifier(a: string, b: string): -1 | 0 | 1 {
  const an = /^[0-9]+$/.test(a);
  const bn = /^[0-9]+$/.test(b);
  if (an && bn) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  if (an !== bn) {
    return an ? -1 : 1;
  }
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The text a `kubernetes.Semver` holds, whether CEL hands over the message reflected or as it is. */
function textOf(message: any): string {
  return String(typeof message?.get === 'function' ? message.get(message.desc.fields[0]) : message?.value);
}
