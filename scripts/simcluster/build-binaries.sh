#!/usr/bin/env bash
# Builds what the simulated GPU cluster (test/simcluster) runs besides the envtest control plane
# (kube-apiserver, kube-controller-manager and etcd come from scripts/envtest/build-binaries.sh):
#
#   kube-scheduler   k8s.io/kubernetes cmd/kube-scheduler, the envtest Kubernetes version
#   kwok             sigs.k8s.io/kwok cmd/kwok: fake kubelets for the harness's fake nodes
#   ray-operator     github.com/ray-project/kuberay/ray-operator (its main package is the module root)
#   keda-operator    github.com/kedacore/keda/v2 cmd/operator
#
# and copies, from the same module versions, the files those binaries need at run time:
#
#   kwok-stages/     KWOK's own stage configs (kustomize/stage/...): kwok itself starts with none
#                    (kwokctl writes these into its config), so the harness passes them with --config
#   kuberay-crds/    the operator's CRDs (config/crd/bases): RayJob's is not in ../shared/upstream, and
#                    the operator exits when a kind it watches is not served
#   keda-crds/       KEDA's CRDs of the operator's version (config/crd/bases): it watches all six kinds
#   keda-certs/      a self-signed certificate for the KEDA operator's gRPC metrics service, which
#                    will not start without one (made by Go's own crypto/tls/generate_cert.go)
#
# and prints the directory that holds them.
#
#   scripts/simcluster/build-binaries.sh     # prints e.g. ~/.cache/cdk8s-inference/simcluster/k8s-1.35.4-kwok-0.8.0-kuberay-1.5.0-keda-2.21.0
#
# CDK8S_INFERENCE_SIMCLUSTER_ASSETS, when it names a directory with all of the above, is used as it
# is. Otherwise everything is cached outside the clone (CDK8S_INFERENCE_SIMCLUSTER_CACHE, default
# ~/.cache/cdk8s-inference/simcluster), so only the first run on a machine compiles. The Go build
# cache is the one scripts/envtest/build-binaries.sh fills: kube-scheduler, built after
# kube-apiserver and kube-controller-manager, compiles little of its own.
set -euo pipefail

KUBERNETES_VERSION="${KUBERNETES_VERSION:-1.35.4}"
KWOK_VERSION="${KWOK_VERSION:-0.8.0}"
KUBERAY_VERSION="${KUBERAY_VERSION:-1.5.0}"
KEDA_VERSION="${KEDA_VERSION:-2.21.0}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/simcluster/kubernetes-module.sh
. "$here/kubernetes-module.sh"

# What a complete directory holds (the stage files the harness passes to kwok, and RayJob's CRD).
has_all() {
  [ -x "$1/kube-scheduler" ] && [ -x "$1/kwok" ] && [ -x "$1/ray-operator" ] && [ -x "$1/keda-operator" ] &&
    [ -f "$1/kwok-stages/node-initialize.yaml" ] && [ -f "$1/kwok-stages/node-heartbeat-with-lease.yaml" ] &&
    [ -f "$1/kwok-stages/pod-ready.yaml" ] && [ -f "$1/kwok-stages/pod-complete.yaml" ] && [ -f "$1/kwok-stages/pod-delete.yaml" ] &&
    [ -f "$1/kuberay-crds/ray.io_rayjobs.yaml" ] && [ -f "$1/keda-crds/keda.sh_scaledobjects.yaml" ] &&
    [ -f "$1/keda-certs/tls.crt" ] && [ -f "$1/keda-certs/tls.key" ] && [ -f "$1/keda-certs/ca.crt" ]
}

if [ -n "${CDK8S_INFERENCE_SIMCLUSTER_ASSETS:-}" ] && has_all "$CDK8S_INFERENCE_SIMCLUSTER_ASSETS"; then
  echo "$CDK8S_INFERENCE_SIMCLUSTER_ASSETS"
  exit 0
fi

cache_root="${CDK8S_INFERENCE_SIMCLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdk8s-inference/simcluster}"
assets="$cache_root/k8s-$KUBERNETES_VERSION-kwok-$KWOK_VERSION-kuberay-$KUBERAY_VERSION-keda-$KEDA_VERSION"
if has_all "$assets"; then
  echo "$assets"
  exit 0
fi

command -v go >/dev/null || { echo "build-binaries.sh: a Go toolchain is needed to build kube-scheduler, kwok, KubeRay and KEDA" >&2; exit 1; }
mkdir -p "$assets"
# A directory of an earlier version set of the same components: its binaries are copied rather
# than compiled again (adding KEDA did not change the others).
previous="$cache_root/k8s-$KUBERNETES_VERSION-kwok-$KWOK_VERSION-kuberay-$KUBERAY_VERSION"
for b in kube-scheduler kwok ray-operator; do
  [ -x "$assets/$b" ] || [ ! -x "$previous/$b" ] || cp "$previous/$b" "$assets/$b"
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

# Seconds each step took, on stderr, so a caller can tell a cold build from a cached one.
timed() {
  local what="$1" start=$SECONDS
  shift
  "$@"
  echo "build-binaries.sh: $what took $((SECONDS - start)) s" >&2
}

# The directory of a module version in the module cache (downloads it if needed).
module_dir() {
  (cd "$work" && go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
}

build_scheduler() {
  (
    kubernetes_module "$work/kubernetes" "$KUBERNETES_VERSION"
    go build -trimpath -ldflags "$(kubernetes_ldflags "$KUBERNETES_VERSION")" -o "$assets/kube-scheduler" k8s.io/kubernetes/cmd/kube-scheduler
  )
}

# Neither module has replace directives, so `go install pkg@version` builds each exactly as its
# own go.mod and go.sum pin it.
build_kwok() {
  # consts.Version is what kwok's release build stamps (hack/releases.sh); the node-initialize
  # stage writes it into each node's kubeletVersion ("kwok-v0.8.0").
  GOBIN="$work/bin" go install -trimpath -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=v$KWOK_VERSION" "sigs.k8s.io/kwok/cmd/kwok@v$KWOK_VERSION"
  mv "$work/bin/kwok" "$assets/kwok"
}

build_kuberay() {
  GOBIN="$work/bin" go install -trimpath -ldflags "-s -w" "github.com/ray-project/kuberay/ray-operator@v$KUBERAY_VERSION"
  mv "$work/bin/ray-operator" "$assets/ray-operator"
}

# KEDA's go.mod has a replace directive, which `go install pkg@version` refuses: it is built in a
# wrapper module that requires it and repeats its replacements, so the build is the one its own
# go.mod pins (the wrapper imports the command only under a build tag, the tools.go idiom).
build_keda() {
  (
    local dir
    dir="$(module_dir github.com/kedacore/keda/v2 "v$KEDA_VERSION")"
    mkdir -p "$work/keda" && cd "$work/keda"
    go mod init cdk8s-inference.local/keda-build 2>/dev/null
    go mod edit -require="github.com/kedacore/keda/v2@v$KEDA_VERSION"
    # `replace old [v] => new [v]`, single-line or in a block.
    awk '/^replace \($/ { block = 1; next } block && /^\)/ { block = 0; next }
      block { print; next } /^replace / { sub(/^replace /, ""); print }' "$dir/go.mod" |
      while read -r old a b c d; do
        if [ "$a" = "=>" ]; then go mod edit -replace="$old=$b${c:+@$c}"; else go mod edit -replace="$old@$a=$c${d:+@$d}"; fi
      done
    printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/kedacore/keda/v2/cmd/operator"\n' > tools.go
    go mod tidy
    go build -trimpath -ldflags "-s -w" -o "$assets/keda-operator" github.com/kedacore/keda/v2/cmd/operator
  )
}

if [ ! -x "$assets/kube-scheduler" ]; then
  echo "build-binaries.sh: building kube-scheduler v$KUBERNETES_VERSION" >&2
  timed "kube-scheduler" build_scheduler
fi
if [ ! -x "$assets/kwok" ]; then
  echo "build-binaries.sh: building kwok v$KWOK_VERSION" >&2
  timed "kwok" build_kwok
fi
if [ ! -x "$assets/ray-operator" ]; then
  echo "build-binaries.sh: building the KubeRay operator v$KUBERAY_VERSION" >&2
  timed "ray-operator" build_kuberay
fi

if [ ! -x "$assets/keda-operator" ]; then
  echo "build-binaries.sh: building the KEDA operator v$KEDA_VERSION" >&2
  timed "keda-operator" build_keda
fi

# KWOK's default stages, as kwokctl configures them: nodes become Ready at once and keep a lease,
# pods become Running/Ready as soon as they are bound, complete and are deleted "fast".
kwok_dir="$(module_dir sigs.k8s.io/kwok "v$KWOK_VERSION")"
mkdir -p "$assets/kwok-stages"
for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
  pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
  cp "$kwok_dir/kustomize/stage/$f" "$assets/kwok-stages/"
done
chmod u+w "$assets/kwok-stages/"*

kuberay_dir="$(module_dir github.com/ray-project/kuberay/ray-operator "v$KUBERAY_VERSION")"
mkdir -p "$assets/kuberay-crds"
cp "$kuberay_dir"/config/crd/bases/ray.io_*.yaml "$assets/kuberay-crds/"
chmod u+w "$assets/kuberay-crds/"*

keda_dir="$(module_dir github.com/kedacore/keda/v2 "v$KEDA_VERSION")"
mkdir -p "$assets/keda-crds"
cp "$keda_dir"/config/crd/bases/*.yaml "$assets/keda-crds/"
chmod u+w "$assets/keda-crds/"*

if [ ! -f "$assets/keda-certs/tls.crt" ]; then
  mkdir -p "$assets/keda-certs"
  (cd "$assets/keda-certs" && go run "$(go env GOROOT)/src/crypto/tls/generate_cert.go" \
    --host 127.0.0.1,localhost --ecdsa-curve P256 --ca --duration 87600h >/dev/null 2>&1 &&
    mv cert.pem tls.crt && mv key.pem tls.key && cp tls.crt ca.crt)
fi

has_all "$assets" || { echo "build-binaries.sh: $assets is incomplete after the build" >&2; exit 1; }
echo "$assets"
