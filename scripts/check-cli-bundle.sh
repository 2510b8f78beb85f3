#!/usr/bin/env bash
# The CLI bundle (lib/cli/bundle.js, which bin/cdk8s-inference runs) does what the compiled
# modules it is made of (lib/cli/main.js) do:
# 1. the CLI corpus (scripts/cli-corpus.ts: synth, explain and synth -o over generated valid and
#    invalid ModelDeployments) through each, byte for byte;
# 2. every example input through `synth` and `explain`, and every synthesized example
#    (dist/examples) through `validate`, twice, with a fresh schema cache: the first run compiles
#    and stores the validators, the second loads them (the code path that differs when bundled);
# 3. the published package holds the bundle, and its bin runs it.
# Needs `npx projen compile` (lib/) and `npm run synth:examples` (dist/examples) first.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
test -f lib/cli/bundle.js || { echo "FAIL: lib/cli/bundle.js is missing (run npx projen compile)"; exit 1; }
test -d dist/examples || { echo "FAIL: dist/examples is missing (run npm run synth:examples)"; exit 1; }

count="${CLI_BUNDLE_CORPUS:-300}"
for cli in main bundle; do
  npx ts-node --project test/tsconfig.json scripts/cli-corpus.ts --count "$count" --cli "lib/cli/$cli.js" --out "$work/corpus-$cli" > /dev/null
done
diff -r "$work/corpus-main" "$work/corpus-bundle"
echo "corpus: $count cases, identical through lib/cli/main.js and lib/cli/bundle.js"

# One CLI run through a module's main: exit code, stdout and stderr in one file.
run() {
  local module="$1" out="$2"
  shift 2
  node -e 'require(process.argv[1]).main(process.argv.slice(2)).then((c) => { process.exitCode = c; })' "$repo/lib/cli/$module.js" "$@" > "$out" 2>&1 || echo "exit code $?" >> "$out"
}

inputs=(examples/*.yaml examples/*/*.yaml)
mapfile -t synthesized < <(find dist/examples -name "*.yaml" | sort)
for cli in main bundle; do
  dir="$work/examples-$cli"
  mkdir -p "$dir"
  for f in "${inputs[@]}"; do
    name="$(echo "$f" | tr / _)"
    run "$cli" "$dir/synth-$name" synth -f "$f"
    run "$cli" "$dir/explain-$name" explain -f "$f"
  done
  for pass in compile load; do
    CDK8S_INFERENCE_SCHEMA_CACHE="$work/schema-cache-$cli" run "$cli" "$dir/validate-$pass" validate --skip-unknown-kinds $(printf -- '-f %s ' "${synthesized[@]}")
  done
done
diff -r "$work/examples-main" "$work/examples-bundle"
test -n "$(ls -A "$work/schema-cache-bundle/validators")" || { echo "FAIL: validate through the bundle stored no compiled validators"; exit 1; }
echo "examples: ${#inputs[@]} inputs synthesized and explained, ${#synthesized[@]} outputs validated twice, identical through both"

npm pack --dry-run --json 2> /dev/null | node -e '
  const files = JSON.parse(require("fs").readFileSync(0, "utf8"))[0].files.map((f) => f.path);
  for (const f of ["bin/cdk8s-inference", "lib/cli/bundle.js"]) if (!files.includes(f)) { console.error(`FAIL: the package lacks ${f}`); process.exit(1); }'
node bin/cdk8s-inference synth -f examples/airunway-modeldeployment.yaml | cmp - "$work/examples-bundle/synth-examples_airunway-modeldeployment.yaml"
echo "package: holds lib/cli/bundle.js; bin/cdk8s-inference writes what the bundle writes"
