#!/usr/bin/env bash
# Builds the Python virtualenvs that hold the real engine argument parsers
# (vLLM, SGLang, NVIDIA Dynamo workers, Ray Serve), one per id, in a cache
# outside the repository.
#
#   scripts/engine-parsers/setup.sh                 # every id
#   scripts/engine-parsers/setup.sh vllm-0.11.0 ray-2.60.0
#   scripts/engine-parsers/setup.sh dynamo-1.1.1    # both Dynamo venvs
#   scripts/engine-parsers/setup.sh --list          # the ids, one a line
#
# Cache root: ${CDK8S_INFERENCE_ENGINE_CACHE:-$HOME/.cache/cdk8s-inference/engines}
#   <root>/<id>/                   the venv
#   <root>/<id>/.setup-complete    marker, written last (spec fingerprint, timings)
#   <root>/<id>/resolution.json    pip's resolution report (what was resolved, from where)
#   <root>/<id>/requirements.lock  the exact name==version set that was installed
#   <root>/pip/                    PIP_CACHE_DIR
#   <root>/pip/wheels/             every wheel downloaded, kept: a rebuild installs offline
#
# A venv whose marker matches its spec is left alone; one without a marker
# (an interrupted install) or with a stale one is rebuilt from scratch.
#
# How a venv is built:
#  1. resolve with pip (--dry-run --report) as PyPI stood a day after the
#     engine's release (--uploaded-prior-to), so unpinned dependencies
#     (transformers, fastapi, pydantic, ...) are those of the release, not of
#     today; pip only fetches metadata here (PEP 658), not the wheels;
#  2. write the exact pins to requirements.lock;
#  3. pip download the pinned wheels into <root>/pip/wheels (files already
#     there are not fetched again);
#  4. pip install --no-index --no-deps from that folder.
# The wheel folder is what makes a rebuild fast: pip's own HTTP cache stays
# empty behind a proxy that drops Cache-Control headers, as on these machines.
#
# The last line on stdout is the cache root; progress goes to stderr.
set -euo pipefail

ROOT="${CDK8S_INFERENCE_ENGINE_CACHE:-$HOME/.cache/cdk8s-inference/engines}"
PYTHON="${PYTHON:-python3}"
# pip >= 26 for --uploaded-prior-to.
PIP_VERSION="26.3"
WHEELS="$ROOT/pip/wheels"
export PIP_CACHE_DIR="$ROOT/pip"
export PIP_DISABLE_PIP_VERSION_CHECK=1
export PIP_NO_INPUT=1

ALL_IDS=(vllm-0.11.0 vllm-0.9.1 sglang-0.5.4 dynamo-1.1.1-vllm dynamo-1.1.1-sglang ray-2.55.0
  vllm-0.33.0 sglang-0.5.23 dynamo-1.6.1-vllm dynamo-1.6.1-sglang ray-2.60.0)

# spec <id>: sets CUTOFF, REQS (array) and EXCLUDE (a regex: resolved
# packages whose name matches are dropped, with their own exclusive
# dependencies, by resolving the requirement set without them), and
# STANDINS (name==version ...: requirements satisfied by a local stand-in
# wheel, see standin_wheels).
spec() {
  EXCLUDE=""
  STANDINS=""
  case "$1" in
    vllm-0.11.0) CUTOFF=2025-10-05T00:00:00Z; REQS=("vllm==0.11.0") ;;
    vllm-0.9.1) CUTOFF=2025-06-12T00:00:00Z; REQS=("vllm==0.9.1" "transformers==4.52.4") ;;
    sglang-0.5.4)
      # flashinfer_python==0.4.1 needs a build here (no usable wheel) and
      # sglang.srt.server_args does not import it: sglang goes in with every
      # other declared requirement.
      CUTOFF=2025-10-25T00:00:00Z; REQS=("sglang==0.5.4"); EXCLUDE="flashinfer" ;;
    # ai-dynamo[vllm] and ai-dynamo[sglang] cannot share a venv: vllm 0.19.0
    # needs torch 2.10.0, sglang 0.5.10.post1 torch 2.9.1.
    dynamo-1.1.1-vllm) CUTOFF=2026-05-10T00:00:00Z; REQS=("ai-dynamo[vllm]==1.1.1") ;;
    dynamo-1.1.1-sglang) CUTOFF=2026-05-10T00:00:00Z; REQS=("ai-dynamo[sglang]==1.1.1") ;;
    # ray.serve.llm imports boto3 (its S3 filesystem helper) at import time,
    # but ray[llm] (2.55.0, 2.60.0) does not declare it; the ray-llm image has it.
    # ray-2.55.0 was the KubeRay default's venv before 2.60.0 (its fixtures stay committed).
    ray-2.55.0) CUTOFF=2026-04-16T00:00:00Z; REQS=("ray[serve,llm]==2.55.0" "boto3") ;;
    # Today's releases (issue 26), each resolved as PyPI stood a day after its upload
    # (vllm 0.33.0 2026-11-02, sglang 0.5.23 2026-10-30, ai-dynamo 1.6.1 2026-10-27,
    # ray 2.60.0 2026-11-04).
    vllm-0.33.0) CUTOFF=2026-11-03T12:00:00Z; REQS=("vllm==0.33.0") ;;
    sglang-0.5.23) CUTOFF=2026-10-31T12:00:00Z; REQS=("sglang==0.5.23"); EXCLUDE="flashinfer" ;;
    # ai-dynamo 1.6.1 requires aisimulate==0.13.0, and sglang 0.5.21 (its sglang extra)
    # cuda-tile==1.6.0rc5: both releases are placeholder sdists on PyPI whose build downloads the
    # real wheel from pypi.nvidia.com, which is unreachable here. They are stand-ins (empty wheels,
    # see standin_wheels): only Dynamo's planner and mocker perf-model paths import aisimulate
    # (lazily, aisimulate_core), and SGLang's cuda-tile kernels are not imported by its server
    # arguments; no parser imports either (engines.py checks it after building each parser).
    # flashinfer-python has py3-none-any wheels at these versions: nothing is excluded.
    dynamo-1.6.1-vllm) CUTOFF=2026-10-28T12:00:00Z; REQS=("ai-dynamo[vllm]==1.6.1"); STANDINS="aisimulate==0.13.0" ;;
    dynamo-1.6.1-sglang) CUTOFF=2026-10-28T12:00:00Z; REQS=("ai-dynamo[sglang]==1.6.1")
      STANDINS="aisimulate==0.13.0 cuda-tile==1.6.0rc5" ;;
    # The KubeRay default's venv (ray[llm]==2.60.0 pins vllm 0.29.0: also the venv of
    # the vllm-0.29.0-serve parser).
    ray-2.60.0) CUTOFF=2026-11-05T12:00:00Z; REQS=("ray[serve,llm]==2.60.0" "boto3") ;;
    *) echo "setup.sh: unknown id '$1' (known: ${ALL_IDS[*]} dynamo-1.1.1 dynamo-1.6.1)" >&2; return 1 ;;
  esac
}

fingerprint() {
  spec "$1"
  printf 'spec-v2 %s python=%s pip=%s cutoff=%s reqs=%s exclude=%s%s\n' \
    "$1" "$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" \
    "$PIP_VERSION" "$CUTOFF" "${REQS[*]}" "$EXCLUDE" "${STANDINS:+ standins=$STANDINS}"
}

# standin_wheels <dir> <name==version ...>: writes one empty wheel per
# requirement (metadata only, no module: any import of it fails, as with the
# package missing). They stand in for PyPI placeholder sdists that can only be
# built by downloading from an unreachable index; the lock names them, and
# the offline install takes them from <dir> (never from the wheel folder).
standin_wheels() {
  local dir="$1"; shift
  rm -rf "$dir"; mkdir -p "$dir"
  "$PYTHON" - "$dir" "$@" <<'PY'
import base64, hashlib, re, sys, zipfile
out = sys.argv[1]
for req in sys.argv[2:]:
    name, version = req.split("==")
    stem = re.sub(r"[-_.]+", "_", name).lower()
    info = f"{stem}-{version}.dist-info"
    files = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                            "Summary: cdk8s-inference stand-in (scripts/engine-parsers/setup.sh), no modules\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: cdk8s-inference\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    def digest(text):
        return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
    files[f"{info}/RECORD"] = "".join(f"{p},{digest(t)},{len(t.encode())}\n" for p, t in files.items()) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(f"{out}/{stem}-{version}-py3-none-any.whl", "w", zipfile.ZIP_DEFLATED) as z:
        for p, t in files.items():
            z.writestr(zipfile.ZipInfo(p, (1980, 1, 1, 0, 0, 0)), t)
PY
}

# lock <venv python> <report.json> <exclude regex>: prints name==version lines.
lock_from_report() {
  "$1" - "$2" "$3" <<'PY'
import json, re, sys
report, exclude = sys.argv[1], sys.argv[2]
for item in json.load(open(report))["install"]:
    name, version = item["metadata"]["name"], item["metadata"]["version"]
    if exclude and re.search(exclude, name, re.I):
        continue
    print(f"{name}=={version}")
PY
}

build() {
  local id="$1" dir="$ROOT/$1" marker="$ROOT/$1/.setup-complete" fp start end t1 t2 t3
  fp="$(fingerprint "$id")"
  if [[ -f "$marker" ]] && [[ "$(head -n1 "$marker")" == "$fp" ]]; then
    echo "[$id] already complete ($dir)" >&2
    return 0
  fi
  spec "$id"
  echo "[$id] building in $dir" >&2
  start=$(date +%s)
  rm -rf "$dir"
  "$PYTHON" -m venv "$dir"
  local py="$dir/bin/python"
  local pip=("$py" -m pip)
  if [[ -f "$WHEELS/pip-$PIP_VERSION-py3-none-any.whl" ]]; then
    "${pip[@]}" install -q --no-index "$WHEELS/pip-$PIP_VERSION-py3-none-any.whl" >&2
  else
    "${pip[@]}" install -q "pip==$PIP_VERSION" >&2
    "${pip[@]}" download -q --no-deps -d "$WHEELS" "pip==$PIP_VERSION" >&2 || true
  fi
  mkdir -p "$WHEELS"

  # 1-2. resolve, metadata only, and pin. Stand-ins: only their local wheels
  # are candidates (--only-binary rules out the placeholder sdists).
  local standins="$ROOT/standins/$id" local_links=() standin_names=""
  if [[ -n "$STANDINS" ]]; then
    # shellcheck disable=SC2086
    standin_wheels "$standins" $STANDINS
    standin_names="$(printf '%s\n' $STANDINS | sed 's/==.*//' | paste -sd, -)"
    local_links=(--find-links "$standins" --only-binary "$standin_names")
  fi
  local dry=("${pip[@]}" install --dry-run --ignore-installed --quiet --uploaded-prior-to "$CUTOFF" "${local_links[@]}")
  if [[ -n "$EXCLUDE" ]]; then
    # The package alone first, for its declared requirements; then those
    # requirements (no extras) minus the excluded ones, so that their
    # exclusive dependencies drop out too.
    "${dry[@]}" --no-deps --report "$dir/package.json" "${REQS[@]}" >&2
    "$py" - "$dir/package.json" "$EXCLUDE" > "$dir/requirements-minus-excluded.txt" <<'PY'
import json, re, sys
report, exclude = sys.argv[1], sys.argv[2]
for item in json.load(open(report))["install"]:
    for req in item["metadata"].get("requires_dist") or []:
        if "extra ==" in req or re.match(r"\s*(%s)" % exclude, req, re.I):
            continue
        print(req)
PY
    "${dry[@]}" --report "$dir/resolution.json" -r "$dir/requirements-minus-excluded.txt" >&2
    { lock_from_report "$py" "$dir/package.json" "$EXCLUDE"
      lock_from_report "$py" "$dir/resolution.json" "$EXCLUDE"; } > "$dir/requirements.lock"
  else
    "${dry[@]}" --report "$dir/resolution.json" "${REQS[@]}" >&2
    lock_from_report "$py" "$dir/resolution.json" "$EXCLUDE" > "$dir/requirements.lock"
  fi
  t1=$(date +%s)

  # 3. fetch the pinned wheels (already present ones are skipped), stand-ins aside.
  if [[ -n "$standin_names" ]]; then
    grep -viE "^(${standin_names//,/|})==" "$dir/requirements.lock" > "$dir/requirements.download"
  else
    cp "$dir/requirements.lock" "$dir/requirements.download"
  fi
  "${pip[@]}" download --quiet --no-deps --only-binary=:all: --progress-bar off \
    -d "$WHEELS" -r "$dir/requirements.download" >&2
  t2=$(date +%s)

  # 4. install offline, exactly the lock.
  "${pip[@]}" install --quiet --no-index --find-links "$WHEELS" "${local_links[@]:0:2}" --no-deps \
    -r "$dir/requirements.lock" >&2
  "${pip[@]}" freeze > "$dir/freeze.txt"
  "${pip[@]}" check > "$dir/pip-check.txt" 2>&1 || true
  end=$(date +%s)
  local size
  size=$(du -sh "$dir" | cut -f1)
  {
    echo "$fp"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ) wall_seconds=$((end - start)) resolve_seconds=$((t1 - start)) download_seconds=$((t2 - t1)) install_seconds=$((end - t2)) size=$size packages=$(wc -l < "$dir/requirements.lock")"
  } > "$marker.tmp"
  mv "$marker.tmp" "$marker"
  echo "[$id] done in $((end - start)) s (resolve $((t1 - start)), download $((t2 - t1)), install $((end - t2))), $size" >&2
}

# Identical files across venvs (torch, the nvidia-* CUDA libraries) become
# hard links: several GB saved. CDK8S_INFERENCE_ENGINE_DEDUPE=0 skips this.
dedupe() {
  [[ "${CDK8S_INFERENCE_ENGINE_DEDUPE:-1}" != 0 ]] && command -v hardlink >/dev/null || return 0
  local dirs=() id
  for id in "${ALL_IDS[@]}"; do [[ -f "$ROOT/$id/.setup-complete" ]] && dirs+=("$ROOT/$id/lib"); done
  [[ ${#dirs[@]} -gt 1 ]] || return 0
  echo "deduplicating ${#dirs[@]} venvs with hardlink" >&2
  hardlink --quiet --content --minimum-size 65536 "${dirs[@]}" >&2 || true
}

ids=()
for a in "$@"; do
  case "$a" in
    --list) printf '%s\n' "${ALL_IDS[@]}"; exit 0 ;;
    dynamo-1.1.1) ids+=(dynamo-1.1.1-vllm dynamo-1.1.1-sglang) ;;
    dynamo-1.6.1) ids+=(dynamo-1.6.1-vllm dynamo-1.6.1-sglang) ;;
    *) spec "$a" >/dev/null; ids+=("$a") ;;
  esac
done
[[ ${#ids[@]} -gt 0 ]] || ids=("${ALL_IDS[@]}")

mkdir -p "$ROOT"
for id in "${ids[@]}"; do build "$id"; dedupe; done
echo "$ROOT"
