#!/usr/bin/env bash
# Builds the binaries of a real control plane for the controller tests — kube-apiserver and
# kube-controller-manager (for its garbage collector) from the published k8s.io/kubernetes module
# and etcd from go.etcd.io/etcd/server/v3, all through the Go module proxy — and prints the
# directory that holds them (the KUBEBUILDER_ASSETS layout).
#
#   scripts/envtest/build-binaries.sh            # prints e.g. ~/.cache/cdk8s-inference/envtest/k8s-1.35.4-etcd-3.6.16
#
# KUBEBUILDER_ASSETS, when it names a directory with the three binaries, is used as it is (the
# layout setup-envtest downloads has no kube-controller-manager: add one there, or unset the
# variable to have all three built). Otherwise
# the binaries are cached outside the clone (CDK8S_INFERENCE_ENVTEST_CACHE, default
# ~/.cache/cdk8s-inference/envtest), so only the first run on a machine compiles: 15–35 minutes on
# 2 cores, seconds afterwards.
#
# k8s.io/kubernetes cannot be required as it is published: its go.mod replaces every staging
# module (k8s.io/api, k8s.io/apiserver, ...) with a directory of its own repository. A wrapper
# module requires it and replaces each of those with the staging module's published version,
# v0.<minor>.<patch>. etcd's own main package has the same problem, so a two-line main calls
# etcdmain.Main from the server module.
set -euo pipefail

KUBERNETES_VERSION="${KUBERNETES_VERSION:-1.35.4}"
ETCD_VERSION="${ETCD_VERSION:-3.6.16}"

BINARIES="kube-apiserver kube-controller-manager etcd"
has_all() {
  for b in $BINARIES; do [ -x "$1/$b" ] || return 1; done
}

if [ -n "${KUBEBUILDER_ASSETS:-}" ] && has_all "$KUBEBUILDER_ASSETS"; then
  echo "$KUBEBUILDER_ASSETS"
  exit 0
fi

cache_root="${CDK8S_INFERENCE_ENVTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdk8s-inference/envtest}"
assets="$cache_root/k8s-$KUBERNETES_VERSION-etcd-$ETCD_VERSION"
if has_all "$assets"; then
  echo "$assets"
  exit 0
fi

command -v go >/dev/null || { echo "build-binaries.sh: a Go toolchain is needed to build kube-apiserver and etcd" >&2; exit 1; }
mkdir -p "$assets"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

staging_version="v0.${KUBERNETES_VERSION#1.}"
# kube-apiserver and kube-controller-manager: one wrapper module, one build cache.
if [ ! -x "$assets/kube-apiserver" ] || [ ! -x "$assets/kube-controller-manager" ]; then
  mkdir -p "$work/kubernetes"
  cd "$work/kubernetes"
  go mod init envtest/kubernetes >/dev/null 2>&1
  gomod="$(go mod download -json "k8s.io/kubernetes@v$KUBERNETES_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
  [ -f "$gomod" ] || { echo "build-binaries.sh: cannot download k8s.io/kubernetes@v$KUBERNETES_VERSION" >&2; exit 1; }
  {
    echo "require k8s.io/kubernetes v$KUBERNETES_VERSION"
    # Every `k8s.io/x => ./staging/src/k8s.io/x` of Kubernetes' go.mod, at its published version.
    sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/k8s\.io/[a-z0-9-]*$#replace \1 => \1 '"$staging_version"'#p' "$gomod"
  } >> go.mod
  # No `go mod tidy`: nothing in this module imports Kubernetes, so tidy would drop the pin.
  # The version Kubernetes' own build stamps (hack/lib/version.sh); without it /version reports
  # gitVersion "v0.0.0-master+$Format:%H$", which clients that parse the server version trip on.
  minor="${KUBERNETES_VERSION#*.}"; minor="${minor%%.*}"
  version_pkg=k8s.io/component-base/version
  ldflags="-s -w -X $version_pkg.gitVersion=v$KUBERNETES_VERSION -X $version_pkg.gitMajor=${KUBERNETES_VERSION%%.*} -X $version_pkg.gitMinor=$minor -X $version_pkg.gitTreeState=clean"
  for component in kube-apiserver kube-controller-manager; do
    if [ ! -x "$assets/$component" ]; then
      echo "build-binaries.sh: building $component v$KUBERNETES_VERSION (slow the first time)" >&2
      go build -trimpath -ldflags "$ldflags" -o "$assets/$component" "k8s.io/kubernetes/cmd/$component"
    fi
  done
fi

if [ ! -x "$assets/etcd" ]; then
  echo "build-binaries.sh: building etcd v$ETCD_VERSION" >&2
  mkdir -p "$work/etcd"
  cd "$work/etcd"
  go mod init envtest/etcd >/dev/null 2>&1
  cat > main.go <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  go get "go.etcd.io/etcd/server/v3@v$ETCD_VERSION" >/dev/null 2>&1
  go mod tidy >/dev/null 2>&1
  go build -trimpath -ldflags "-s -w" -o "$assets/etcd" .
fi
echo "$assets"
