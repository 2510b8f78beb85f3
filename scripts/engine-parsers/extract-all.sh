#!/usr/bin/env bash
# Writes every parser definition to test/fixtures/engine-parsers/<parser>.json,
# and Ray Serve's schemas (ray-serve-check.py --dump-schemas) and vLLM's engine
# argument names (engine-arg-fields.py) for the Ray release of the KubeRay
# default image (the kuberay row of src/core/version-matrix.ts), building the
# venvs first (setup.sh; a no-op when they are complete).
#   scripts/engine-parsers/extract-all.sh [parser-name ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# parser -> venv id
declare -A VENV=(
  [vllm-0.11.0-api-server]=vllm-0.11.0
  [vllm-0.11.0-serve]=vllm-0.11.0
  [vllm-0.9.1-api-server]=vllm-0.9.1
  [vllm-0.9.1-serve]=vllm-0.9.1
  [vllm-0.33.0-serve]=vllm-0.33.0
  [vllm-0.29.0-serve]=ray-2.60.0
  [sglang-0.5.4-launch-server]=sglang-0.5.4
  [sglang-0.5.23-launch-server]=sglang-0.5.23
  [dynamo-1.1.1-vllm]=dynamo-1.1.1-vllm
  [dynamo-1.1.1-sglang]=dynamo-1.1.1-sglang
  [dynamo-1.1.1-trtllm]=dynamo-1.1.1-vllm
  [dynamo-1.1.1-frontend]=dynamo-1.1.1-vllm
  [dynamo-1.1.1-mocker]=dynamo-1.1.1-vllm
  [dynamo-1.6.1-vllm]=dynamo-1.6.1-vllm
  [dynamo-1.6.1-sglang]=dynamo-1.6.1-sglang
  [dynamo-1.6.1-trtllm]=dynamo-1.6.1-vllm
  [dynamo-1.6.1-frontend]=dynamo-1.6.1-vllm
  [dynamo-1.6.1-mocker]=dynamo-1.6.1-vllm
)
ORDER=(vllm-0.11.0-api-server vllm-0.11.0-serve vllm-0.9.1-api-server vllm-0.9.1-serve vllm-0.33.0-serve vllm-0.29.0-serve
       sglang-0.5.4-launch-server sglang-0.5.23-launch-server dynamo-1.1.1-vllm dynamo-1.1.1-sglang dynamo-1.1.1-trtllm
       dynamo-1.1.1-frontend dynamo-1.1.1-mocker dynamo-1.6.1-vllm dynamo-1.6.1-sglang dynamo-1.6.1-trtllm
       dynamo-1.6.1-frontend dynamo-1.6.1-mocker)
# The Ray venv: the one of the KubeRay default image (its row's parser is ray-<version>-serve-llm).
RAY_VENV="$(grep -A12 "provider: 'kuberay'" "$here/../../src/core/version-matrix.ts" | grep -o "ray-[0-9][0-9.]*-serve-llm" | head -1)"
RAY_VENV="${RAY_VENV%-serve-llm}"
[[ -n "$RAY_VENV" ]] || { echo "extract-all.sh: no ray-<version>-serve-llm parser in the kuberay row of src/core/version-matrix.ts" >&2; exit 1; }
parsers=("$@")
[[ ${#parsers[@]} -gt 0 ]] || parsers=("${ORDER[@]}" ray)
ids=()
for p in "${parsers[@]}"; do
  if [[ "$p" == ray ]]; then ids+=("$RAY_VENV"); else ids+=("${VENV[$p]:?unknown parser $p}"); fi
done
bash "$here/setup.sh" $(printf '%s\n' "${ids[@]}" | sort -u) >/dev/null
for p in "${parsers[@]}"; do
  start=$(date +%s.%N)
  if [[ "$p" == ray ]]; then
    python3 "$here/ray-serve-check.py" --ray "${RAY_VENV#ray-}" --dump-schemas
    python3 "$here/engine-arg-fields.py" "$RAY_VENV"
  else
    python3 "$here/extract.py" "${VENV[$p]}" "$p"
  fi
  printf '%s: %.1f s\n' "$p" "$(echo "$(date +%s.%N) - $start" | bc)" >&2
done
