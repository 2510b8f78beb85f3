# Sourced, not run: how to build a component of Kubernetes itself (cmd/kube-scheduler,
# cmd/kube-apiserver, ...) from the published k8s.io/kubernetes module.
#
#   . scripts/simcluster/kubernetes-module.sh
#   kubernetes_module "$work/kubernetes" 1.35.4        # cd's into a ready wrapper module
#   go build -trimpath -ldflags "$(kubernetes_ldflags 1.35.4)" -o out k8s.io/kubernetes/cmd/kube-scheduler
#
# k8s.io/kubernetes cannot be required as it is published: its go.mod replaces every staging module
# (k8s.io/api, k8s.io/apiserver, ...) with a directory of its own repository. The wrapper module
# requires it and replaces each of those with the staging module's published version,
# v0.<minor>.<patch>. This is the recipe scripts/envtest/build-binaries.sh inlines; the same module
# path and flags give the same Go build cache entries, so a component built after another one is
# mostly linked from the cache.

# kubernetes_module DIR VERSION: creates the wrapper module in DIR (which must not exist yet or be
# empty) and changes into it. Needs GOFLAGS=-mod=mod (no `go mod tidy`: nothing in the module
# imports Kubernetes, so tidy would drop the pin).
kubernetes_module() {
  local dir="$1" version="$2"
  mkdir -p "$dir"
  cd "$dir" || return 1
  go mod init envtest/kubernetes >/dev/null 2>&1
  local gomod
  gomod="$(go mod download -json "k8s.io/kubernetes@v$version" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
  if [ ! -f "$gomod" ]; then
    echo "kubernetes-module.sh: cannot download k8s.io/kubernetes@v$version" >&2
    return 1
  fi
  {
    echo "require k8s.io/kubernetes v$version"
    # Every `k8s.io/x => ./staging/src/k8s.io/x` of Kubernetes' go.mod, at its published version.
    sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/k8s\.io/[a-z0-9-]*$#replace \1 => \1 v0.'"${version#1.}"'#p' "$gomod"
  } >> go.mod
}

# kubernetes_ldflags VERSION: the version stamp Kubernetes' own build sets (hack/lib/version.sh),
# so /version and the components' logs say v<VERSION> rather than "v0.0.0-master+$Format:%H$".
kubernetes_ldflags() {
  local version="$1" minor
  minor="${version#*.}"; minor="${minor%%.*}"
  local pkg=k8s.io/component-base/version
  echo "-s -w -X $pkg.gitVersion=v$version -X $pkg.gitMajor=${version%%.*} -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
}
