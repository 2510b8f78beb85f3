#!/usr/bin/env bash
# Fetches the standard-channel CRDs of a Gateway API release (sigs.k8s.io/gateway-api, through the
# Go module proxy) into a cache outside the clone and prints the directory that holds them
# (config/crd/standard of the module), for the tests that check our Gateway, HTTPRoute and
# ReferenceGrant output against that release.
#
#   scripts/gateway-api/fetch-crds.sh        # prints e.g. ~/.cache/cdk8s-inference/gateway-api/v1.7.0/standard
#
# GATEWAY_API_VERSION picks the release (default v1.7.0). The cache is
# CDK8S_INFERENCE_GATEWAY_API_CACHE, default ~/.cache/cdk8s-inference/gateway-api: only the first
# run on a machine downloads (about 1 MB).
#
# Why the module zip and not `go mod download`'s Dir: v1.7.0's go.mod asks for Go 1.27, and with
# an older local toolchain (GOTOOLCHAIN=local) the go command downloads and checks the zip against
# the checksum database but declines to extract it (its JSON then names the Zip and an Error). The
# CRDs are YAML, no Go is compiled, so the verified zip is unpacked here instead.
set -euo pipefail

VERSION="${GATEWAY_API_VERSION:-v1.7.0}"
MODULE=sigs.k8s.io/gateway-api
cache_root="${CDK8S_INFERENCE_GATEWAY_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdk8s-inference/gateway-api}"
out="$cache_root/$VERSION/standard"

complete() {
  [ -f "$1/gateway.networking.k8s.io_gateways.yaml" ] && [ -f "$1/gateway.networking.k8s.io_httproutes.yaml" ] &&
    [ -f "$1/gateway.networking.k8s.io_referencegrants.yaml" ]
}

if complete "$out"; then
  echo "$out"
  exit 0
fi

command -v go >/dev/null || { echo "fetch-crds.sh: the go command is needed to fetch $MODULE@$VERSION from the Go module proxy" >&2; exit 1; }
command -v unzip >/dev/null || { echo "fetch-crds.sh: unzip is needed to unpack $MODULE@$VERSION" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
# Outside any module: nothing is added to a go.mod. GOTOOLCHAIN=local: never fetch another Go.
json="$(GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod download -json "$MODULE@$VERSION" 2>/dev/null || true)"
field() { printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"'"$1"'": "\(.*\)",\{0,1\}$/\1/p' | head -1; }
dir="$(field Dir)"
zip="$(field Zip)"
sum="$(field Sum)"
if [ -n "$dir" ] && [ -d "$dir/config/crd/standard" ]; then
  src="$dir/config/crd/standard"
elif [ -n "$zip" ] && [ -f "$zip" ] && [ -n "$sum" ]; then
  # Sum is only reported for a zip the go command verified.
  unzip -q -o "$zip" "$MODULE@$VERSION/config/crd/standard/*" -d "$work/unpacked"
  src="$work/unpacked/$MODULE@$VERSION/config/crd/standard"
else
  echo "fetch-crds.sh: cannot download $MODULE@$VERSION: $(field Error)" >&2
  exit 1
fi
mkdir -p "$out.tmp"
cp "$src"/*.yaml "$out.tmp/"
complete "$out.tmp" || { echo "fetch-crds.sh: $MODULE@$VERSION has no Gateway, HTTPRoute or ReferenceGrant CRD in config/crd/standard" >&2; exit 1; }
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
