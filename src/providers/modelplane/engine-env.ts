/**
 * The engine container's environment: `spec.env` in order, then `HF_TOKEN` from the Secret named
 * in `spec.secrets.huggingFaceToken` (a user `HF_TOKEN` is dropped then, as every provider does,
 * so the container does not list the name twice). Each entry goes through modelplane's env shape
 * (src/modelplane/env-var.ts); a value source it does not have fails at the entry.
 */
import { ENV_SOURCES, lacking } from './features';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, fieldPath, invalid } from '../../core/field-error';
import { envVarJson, EnvVarJson } from '../../modelplane/env-var';

/** The variable, and Secret key, that carries the Hugging Face token. */
export const HF_TOKEN_ENV = 'HF_TOKEN';

/** The engine's env, or the errors of the entries modelplane cannot take. */
export function engineEnv(md: ResolvedModelDeployment): { env: EnvVarJson[]; errors: FieldError[] } {
  const secret = md.spec.secrets?.huggingFaceToken;
  const env: EnvVarJson[] = [];
  const errors: FieldError[] = [];
  (md.spec.env ?? []).forEach((e, i) => {
    if (secret && e.name === HF_TOKEN_ENV) return;
    const at = fieldPath('spec', 'env', i);
    const result = envVarJson(e.name, e.value, e.valueFrom);
    for (const p of result.problems) {
      // A source modelplane lacks is also a feature other targets have: the same reason, with where to go instead.
      errors.push(p.unsupportedSource ? lacking(`${at}.${p.field}`, p.value, ENV_SOURCES, p.message) : invalid(`${at}.${p.field}`, p.value, p.message));
    }
    if (result.env) env.push(result.env);
  });
  if (secret) env.push({ name: HF_TOKEN_ENV, valueFrom: { secretKeyRef: { name: secret, key: HF_TOKEN_ENV } } });
  return { env, errors };
}
