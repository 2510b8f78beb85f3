/**
 * Consistency checks between fields that end up on the same engine command line or image:
 * AI Runway's `ValidateEngineArgs` and `ValidateImageFields`. Both return the error text (or
 * undefined); the admission rules and the reconciler wrap it in their own field error/condition.
 */

/**
 * The flag name an `extraArgs` token sets, or undefined when the token cannot collide with a
 * named arg: only `--name` / `--name=value` tokens count (not `-x`, not `---x`, not bare values).
 */
export function extraArgFlagKey(token: string): string | undefined {
  if (!token.startsWith('--') || token.length <= 2) return undefined;
  const rest = token.slice(2);
  if (rest.startsWith('-')) return undefined;
  const eq = rest.indexOf('=');
  const key = (eq >= 0 ? rest.slice(0, eq) : rest).trim();
  return key === '' ? undefined : key;
}

/**
 * Rejects a launch flag set both in `engine.args` (bare names) and in `engine.extraArgs` (raw
 * tokens), reporting the first collision in `extraArgs` order. `args` keys are matched exactly
 * (case-sensitive, not trimmed or de-dashed).
 */
export function validateEngineArgs(
  args: Readonly<Record<string, string>> | undefined,
  extraArgs: readonly string[] | undefined,
): string | undefined {
  if (!args || Object.keys(args).length === 0 || !extraArgs || extraArgs.length === 0) return undefined;
  for (const token of extraArgs) {
    const key = extraArgFlagKey(token);
    if (key !== undefined && Object.prototype.hasOwnProperty.call(args, key)) {
      return (
        `launch flag ${JSON.stringify(key)} is set in both spec.engine.args and spec.engine.extraArgs ` +
        `(${JSON.stringify(token)}); set it in exactly one place so the engine does not receive conflicting values`
      );
    }
  }
  return undefined;
}

/**
 * Rejects a legacy `spec.image` that disagrees with `spec.engine.image` (both non-empty and
 * different); `spec.engine.image` is the preferred field.
 */
export function validateImageFields(legacyImage: string | undefined, engineImage: string | undefined): string | undefined {
  if (!legacyImage || !engineImage || legacyImage === engineImage) return undefined;
  return (
    `spec.image ${JSON.stringify(legacyImage)} conflicts with spec.engine.image ${JSON.stringify(engineImage)}; ` +
    'remove spec.image or set both fields to the same value (spec.engine.image is preferred)'
  );
}
