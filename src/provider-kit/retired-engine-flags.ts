/**
 * Flags in `engine.args` / `extraArgs` that the default image's engine no longer takes (an error)
 * or takes but deprecates (a warning), from the engine's own parser data
 * (`generated/engine-arguments`: `removed` is what the releases we used to default to accepted
 * and this one's parser does not have; `deprecated` is what this one's parser marks deprecated).
 * A removed flag stops the engine at start ("unrecognized arguments"), so it is refused at synth
 * time, where the fix is cheap: the message names the replacement where the parser data has one
 * (a deprecated option's named replacement, or a current option of the same destination), and
 * otherwise says there is none.
 *
 * Only with the default image: a deployment that names its own image (`spec.image`,
 * `spec.engine.image`) may run another release, whose flags these tables do not describe.
 */
import type { EngineArgumentTable } from './generated/engine-arguments';
import { extraArgFlagKey } from '../core/engine-args';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { imageOverride } from '../core/model-deployment-object';

/** One flag the user set, where they set it. */
interface UserFlag {
  readonly path: string;
  readonly value: string;
  /** `--name`, as the engine reads it (`_` as `-`). */
  readonly option: string;
}

/** The `--options` of `engine.args` keys and `extraArgs` tokens, with their field paths. */
function userFlags(spec: ModelDeploymentSpec): UserFlag[] {
  const out: UserFlag[] = [];
  const args = spec.engine?.args ?? {};
  for (const key of Object.keys(args).sort()) {
    out.push({ path: `spec.engine.args.${key}`, value: key, option: `--${key.replace(/^-+/, '').replace(/_/g, '-')}` });
  }
  (spec.engine?.extraArgs ?? []).forEach((token, i) => {
    const key = extraArgFlagKey(token);
    if (key !== undefined) out.push({ path: `spec.engine.extraArgs[${i}]`, value: token, option: `--${key.replace(/_/g, '-')}` });
  });
  return out;
}

/**
 * Field errors for flags the default image's engine (`engineName`, e.g. `vLLM 0.33.0`) no longer
 * has; [] when the deployment names its own image or there is no table.
 */
export function removedEngineFlagErrors(spec: ModelDeploymentSpec, table: EngineArgumentTable | undefined, engineName: string): FieldError[] {
  if (!table || imageOverride(spec) !== undefined) return [];
  const errors: FieldError[] = [];
  for (const flag of userFlags(spec)) {
    // Own keys only: the tables are plain objects.
    if (Object.hasOwn(table.options, flag.option) || !Object.hasOwn(table.removed, flag.option)) continue;
    const removed = flag.option;
    const replacement = table.removed[removed];
    const was = table.previousParsers.join(', ');
    errors.push(invalid(flag.path, flag.value,
      `${removed} is no longer an option of ${engineName} (it was one of ${was}), which would refuse to start with it: ` +
        (replacement ? `use ${replacement} instead` : `${engineName} has no replacement; remove it, or pin the image it belongs to (spec.engine.image)`)));
  }
  return errors;
}

/** Warnings for flags the default image's engine deprecates, naming the replacement it gives. */
export function deprecatedEngineFlagWarnings(spec: ModelDeploymentSpec, table: EngineArgumentTable | undefined, engineName: string): string[] {
  if (!table || imageOverride(spec) !== undefined) return [];
  const out: string[] = [];
  for (const flag of userFlags(spec)) {
    if (!Object.hasOwn(table.deprecated, flag.option)) continue;
    const deprecated = flag.option;
    const replacement = table.deprecated[deprecated];
    out.push(`${flag.path}: ${deprecated} is deprecated in ${engineName}${replacement ? `; use ${replacement} instead` : ''}`);
  }
  return out;
}
