#!/usr/bin/env bash
# Builds the jsii Go bindings, compiles a Go program against them (test/bindings/go/main.go, the
# examples/minimal-gpu.ts deployment written in Go) and checks that it synthesizes the same YAML as
# the TypeScript example. Needs `npx projen compile` first and a Go toolchain.
#
# The Go modules of cdk8s and cdk8s-plus-34 are generated here from the npm packages' jsii
# assemblies (the same generator and assembly their published Go modules come from): the Go module
# proxy this project reaches does not serve github.com/cdk8s-team/*. constructs, jsii-runtime-go and
# their dependencies come from the proxy. Module downloads and compiled packages stay in the default
# GOMODCACHE and GOCACHE, so a second run compiles almost nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"   # the jsii kernel runs on the project's Node 24
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$SECONDS

# Fetch the jsii runtime at the version the generated modules require (jsii-pacmak's own version).
runtime="v$(node -p "require('jsii-pacmak/package.json').version")"

# pacmak runs `go mod tidy` in each module with `replace` directives to the modules generated beside
# it; its own `go build ./...` per module is skipped here, the program's build below compiles what a
# user's program compiles, and `go vet` the whole module of ours.
JSII_BUILD_GO=0 jsii-pacmak --targets go --no-npmignore -o "$work/dist" \
  node_modules/constructs node_modules/cdk8s node_modules/cdk8s-plus-34 . > "$work/pacmak.log" 2>&1 \
  || { cat "$work/pacmak.log"; exit 1; }
gen="$work/dist/go"
echo "go bindings generated in $((SECONDS - start)) s"

mkdir "$work/smoke"
cp test/bindings/go/main.go "$work/smoke/"
cat > "$work/smoke/go.mod" <<EOF
module cdk8sinference-smoke

go 1.25

require (
	github.com/aws/jsii-runtime-go $runtime
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v$(node -p "require('cdk8s/package.json').version")
	github.com/maintainers/cdk8s-inference-go/cdk8sinference v0.0.0
)

replace github.com/maintainers/cdk8s-inference-go/cdk8sinference => $gen/cdk8sinference

replace github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 => $gen/cdk8s

replace github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2 => $gen/cdk8splus34
EOF
(
  cd "$work/smoke"
  go mod tidy
  go build -o smoke .
  # Every package of the module (the L1 submodules too) compiles and passes vet's checks.
  go vet github.com/maintainers/cdk8s-inference-go/cdk8sinference/...
)
echo "go program built in $((SECONDS - start)) s"

"$work/smoke/smoke" > "$work/go.k8s.yaml"

# The TypeScript example, synthesized in this checkout: the Go program must produce the same YAML.
TS_NODE_TRANSPILE_ONLY=1 ts-node --project test/tsconfig.json -e "
  const { App } = require('cdk8s');
  const app = new App();
  require('./examples/minimal-gpu').build(app);
  process.stdout.write(app.synthYaml());
" > "$work/ts.k8s.yaml"

failed=0
check() { # description, command...
  local what="$1"; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; failed=$((failed + 1)); fi
}
objects="$(node -e "
  const { parseAllDocuments } = require('yaml');
  const docs = parseAllDocuments(require('fs').readFileSync(process.argv[1], 'utf8')).map((d) => d.toJS());
  console.log(docs.map((o) => o.kind + ' ' + o.metadata.namespace + '/' + o.metadata.name).join('\n'));
" "$work/go.k8s.yaml")"
check 'the Go program synthesizes a Deployment ml/qwen' grep -qx 'Deployment ml/qwen' <<<"$objects"
check 'the Go program synthesizes a Service ml/qwen' grep -qx 'Service ml/qwen' <<<"$objects"
check 'the Go program synthesizes the ModelDeployment record ml/qwen' grep -qx 'ModelDeployment ml/qwen' <<<"$objects"
check 'the Go YAML equals the TypeScript example'"'"'s YAML' diff -u "$work/ts.k8s.yaml" "$work/go.k8s.yaml"
echo "go bindings checked in $((SECONDS - start)) s"
echo "go bindings: $((4 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
