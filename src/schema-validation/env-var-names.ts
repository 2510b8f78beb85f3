/**
 * Environment variable names as the API server checks them in Go. Kubernetes 1.35 (the version of
 * the OpenAPI documents in ../shared/upstream/kubernetes) accepts any printable ASCII character
 * except '=' (RelaxedEnvironmentVariableValidation, GA and always on since 1.34); the name must
 * not be empty. Before 1.34 the rule was a C identifier-like name; this file implements 1.35's.
 */
import { joinPath, Report } from '../core/field-path';
import { quoted } from '../core/quoted-value';

type Json = any;

/** Printable ASCII (space to '~') without '='. */
const ENV_VAR_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;

/** Problems with an environment variable name, or [] when valid. */
export function envVarNameErrors(name: string): string[] {
  if (name === '') return ['must not be empty'];
  return ENV_VAR_NAME.test(name) ? [] : ["must consist of printable ASCII characters other than '='"];
}

/** Reports the invalid names of a container's `env` list at `at`. */
export function checkEnvVarNames(env: Json, at: string, report: Report): void {
  if (!Array.isArray(env)) return;
  env.forEach((e: Json, i: number) => {
    if (typeof e?.name !== 'string') return; // The schema reports a missing or non-string name.
    for (const m of envVarNameErrors(e.name)) {
      report(joinPath(joinPath(at, String(i), true), 'name', false), `environment variable name ${quoted(e.name)} is invalid: ${m}`);
    }
  });
}

