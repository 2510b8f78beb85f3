#!/usr/bin/env bash
# What the controller image's Dockerfile does, without a Docker engine (none on the CI machine):
# packs the library as `npx projen package:js` does, installs the tarball the way the Dockerfile's
# RUN line does (production dependencies only, from the registry), and runs the image's entry
# point from that install as an unprivileged user: `--help` must print the controller's usage,
# and a controller with an unreadable kubeconfig must exit 1 with a JSON log line (the runtime's
# modules all load from the installed package); then it reconciles a record on the envtest API
# server (scripts/run-installed-controller.ts). Needs `npx projen compile` first, and the envtest
# binaries (KUBEBUILDER_ASSETS, or scripts/envtest/build-binaries.sh's cache).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
npx jsii-pacmak --targets js -o "$work/dist" > "$work/pacmak.log" 2>&1 || { cat "$work/pacmak.log"; exit 1; }
tarball="$(ls "$work"/dist/js/*.tgz)"
mkdir -p "$work/opt"
# The Dockerfile's install step, verbatim but for the paths.
(cd "$work/opt" && npm install --omit=dev --no-audit --no-fund --no-package-lock "$tarball" > "$work/npm.log" 2>&1) || { cat "$work/npm.log"; exit 1; }
entry="$work/opt/node_modules/cdk8s-inference/bin/cdk8s-inference"
# The image runs as 65532 (USER in the Dockerfile); so does this check when it can switch users.
as_user=()
uid="$(id -u)"
if [ "$uid" = 0 ] && command -v setpriv > /dev/null; then
  as_user=(setpriv --reuid=65532 --regid=65532 --clear-groups)
  uid=65532
  chmod -R a+rX "$work/opt"
fi
"${as_user[@]}" node "$entry" controller --help | grep -q -- '--leader-elect' || { echo "check-controller-image: controller --help printed no usage" >&2; exit 1; }
set +e
out="$("${as_user[@]}" node "$entry" controller --kubeconfig "$work/missing-kubeconfig" 2>&1)"
code=$?
set -e
if [ "$code" != 1 ] || ! grep -q '"msg":"cannot load the Kubernetes client configuration"' <<< "$out"; then
  echo "check-controller-image: expected exit 1 and a JSON log line for a missing kubeconfig, got $code:" >&2
  echo "$out" >&2
  exit 1
fi
echo "controller image install: ok ($(du -sh "$work/opt/node_modules" | cut -f1) of node_modules, entry point runs as uid $uid)"
# The same entry point reconciling a record on a real API server (envtest; KUBEBUILDER_ASSETS as
# for npm test): what a reconcile loads lazily must be in the package too.
npx ts-node --project test/tsconfig.json scripts/run-installed-controller.ts "$work/kubeconfig" -- "${as_user[@]}" node "$entry"
