/**
 * @bufbuild/cel with what Kubernetes adds to CEL, shared by everything here that evaluates CEL
 * (selection rules, CRD rules, DRA device selectors): the libraries loaded once, on first use
 * (loading them costs tens of milliseconds, and most programs evaluate no CEL), Kubernetes'
 * quantity and semver libraries with one protobuf registry for their value types, and the
 * environment with them.
 */
import type * as CelLib from '@bufbuild/cel';
import type * as CelExt from '@bufbuild/cel/ext';
import type * as Protobuf from '@bufbuild/protobuf';
import type * as ProtobufWkt from '@bufbuild/protobuf/wkt';
import { celQuantityLibrary } from './quantity';
import { celSemverLibrary } from './semver';

/** The loaded libraries. */
export interface CelModules {
  readonly cel: typeof CelLib;
  readonly ext: typeof CelExt;
  readonly protobuf: typeof Protobuf;
  readonly wkt: typeof ProtobufWkt;
}

let modules: CelModules | undefined;

/** @bufbuild/cel, its extensions and @bufbuild/protobuf, loaded once. */
export function celModules(): CelModules {
  if (!modules) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    modules = {
      cel: require('@bufbuild/cel'),
      ext: require('@bufbuild/cel/ext'),
      protobuf: require('@bufbuild/protobuf'),
      wkt: require('@bufbuild/protobuf/wkt'),
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  }
  return modules;
}

/** Kubernetes' quantity and semver libraries: their functions and the registry of their types. */
export interface KubernetesCelLibraries {
  readonly funcs: CelLib.CelFunc[];
  readonly registry: Protobuf.Registry;
}

/** Builds the quantity and semver libraries on the loaded modules. */
export function kubernetesCelLibraries({ cel, protobuf, wkt }: CelModules): KubernetesCelLibraries {
  const quantity = celQuantityLibrary(cel, protobuf, wkt);
  const semver = celSemverLibrary(cel, protobuf, wkt);
  return { funcs: [...quantity.funcs, ...semver.funcs], registry: protobuf.createRegistry(quantity.registry, semver.registry) };
}


let environment: CelLib.CelEnv | undefined;

/**
 * The standard library, the strings extension (Kubernetes enables strings v2) and Kubernetes'
 * quantity and semver libraries, built once. What an expression may call is the checker's
 * decision (src/cel/overloads.ts): a selection rule that calls `lowerAscii` never reaches this
 * environment.
 */
export function kubernetesCelEnv(): CelLib.CelEnv {
  if (!environment) {
    const loaded = celModules();
    const kubernetes = kubernetesCelLibraries(loaded);
    environment = loaded.cel.celEnv({ funcs: [...loaded.ext.strings, ...kubernetes.funcs], registry: kubernetes.registry });
  }
  return environment;
}
