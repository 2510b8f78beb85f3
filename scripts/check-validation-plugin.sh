#!/usr/bin/env bash
# The cdk8s validation plugin (src/validation-plugin/) through the real cdk8s CLI, as a user gets
# it: the package is packed (npm pack: what npm publishes, so lib/ and schemas/ must be in it) and
# unpacked into a fresh cdk8s app's node_modules, whose other dependencies are links to this
# repository's node_modules (no network). The app's cdk8s.yaml names the plugin by local path.
# Checks: the packed plugin reads the bundled schemas (no ../shared/upstream there); a valid app
# synthesizes; an app with an invalid ApiObject fails `cdk8s synth` with our report. Needs
# `npx projen compile` first (the projen task test:validation-plugin runs it).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
app="$work/app"
mkdir -p "$app/node_modules"

(cd "$repo" && npm pack --silent --pack-destination "$work" > "$work/pack.txt")
mkdir "$app/node_modules/cdk8s-inference"
tar -xzf "$work/$(tail -n 1 "$work/pack.txt")" -C "$app/node_modules/cdk8s-inference" --strip-components=1
test -f "$app/node_modules/cdk8s-inference/schemas/upstream/upstream-schemas.json.gz" || { echo "FAIL: the package lacks schemas/upstream/upstream-schemas.json.gz"; exit 1; }
for dep in "$repo"/node_modules/* "$repo"/node_modules/.bin; do
  name="$(basename "$dep")"
  [ "$name" = cdk8s-inference ] || ln -s "$dep" "$app/node_modules/$name"
done

cat > "$app/main.js" <<'JS'
const { ApiObject, App, Chart } = require('cdk8s');
const { ModelDeployment } = require('cdk8s-inference');
const app = new App();
const chart = new Chart(app, 'llm', { namespace: 'ml' });
new ModelDeployment(chart, 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } });
if (process.env.WITH_INVALID_OBJECT) {
  new ApiObject(chart, 'settings', {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'settings', labels: { team: 'not valid!' } },
    data: { a: 'b' },
    binaryDta: {},
  });
}
app.synth();
JS
cat > "$app/cdk8s.yaml" <<'YAML'
language: typescript
app: node main.js
validations:
  - package: ./node_modules/cdk8s-inference/lib/validation-plugin
    version: 1.0.0
    class: UpstreamSchemaValidation
YAML

cd "$app"
unset CDK8S_INFERENCE_UPSTREAM_DIR CDK8S_INFERENCE_SCHEMAS
passed=0
failed=0
check() { # description, condition
  if eval "$2"; then passed=$((passed + 1)); echo "ok: $1"; else failed=$((failed + 1)); echo "FAIL: $1"; fi
}

location="$(node -e "console.log(JSON.stringify(require('cdk8s-inference/lib/schema-validation/upstream-schemas').upstreamSchemaLocation()))")"
check "the packed library reads the bundled schemas ($location)" '[[ "$location" == *"\"kind\":\"bundle\""*"node_modules/cdk8s-inference/schemas/upstream/upstream-schemas.json.gz"* ]]'

set +e
node "$repo/node_modules/cdk8s-cli/bin/cdk8s" synth --no-check-upgrade > "$work/valid.log" 2>&1
valid_code=$?
WITH_INVALID_OBJECT=1 node "$repo/node_modules/cdk8s-cli/bin/cdk8s" synth --no-check-upgrade > "$work/invalid.log" 2>&1
invalid_code=$?
set -e

check "a valid app synthesizes (exit $valid_code)" '[ "$valid_code" = 0 ]'
check "the valid app ran the plugin" 'grep -q "cdk8s-inference: 3 object(s) in 1 manifest(s): 3 valid, 0 invalid" "$work/valid.log"'
check "an app with an invalid object fails the synth (exit $invalid_code)" '[ "$invalid_code" != 0 ]'
check "the report names the object and the rule" 'grep -q "ConfigMap/settings must match the upstream schema of v1 ConfigMap" "$work/invalid.log"'
check "the report lists the unknown field" 'grep -q "binaryDta: unknown field (not in the upstream schema; the API server would drop it)" "$work/invalid.log"'
check "the report lists the bad label value" 'grep -q "metadata.labels.team: label value \"not valid!\" is invalid" "$work/invalid.log"'
check "the report names the construct" 'grep -q "Construct Path: llm/settings" "$work/invalid.log"'
if [ "$failed" != 0 ] || [ -n "${VERBOSE:-}" ]; then
  echo "--- cdk8s synth (valid app) ---"; cat "$work/valid.log"
  echo "--- cdk8s synth (invalid object) ---"; cat "$work/invalid.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
