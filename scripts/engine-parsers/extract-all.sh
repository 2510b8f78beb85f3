#!/usr/bin/env bash
# Writes every parser definition to test/fixtures/engine-parsers/<parser>.json,
# and Ray Serve's schemas (ray-serve-check.py --dump-schemas), building the
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
ORDER=(vllm-0.11.0-api-server vllm-0.11.0-serve vllm-0.9.1-api-server vllm-0.9.1-serve vllm-0.33.0-serve
       sglang-0.5.4-launch-server sglang-0.5.23-launch-server dynamo-1.1.1-vllm dynamo-1.1.1-sglang dynamo-1.1.1-trtllm
       dynamo-1.1.1-frontend dynamo-1.1.1-mocker dynamo-1.6.1-vllm dynamo-1.6.1-sglang dynamo-1.6.1-trtllm
       dynamo-1.6.1-frontend dynamo-1.6.1-mocker)
parsers=("$@")
[[ ${#parsers[@]} -gt 0 ]] || parsers=("${ORDER[@]}" ray)
ids=()
for p in "${parsers[@]}"; do
  if [[ "$p" == ray ]]; then ids+=(ray-2.55.0); else ids+=("${VENV[$p]:?unknown parser $p}"); fi
done
bash "$here/setup.sh" $(printf '%s\n' "${ids[@]}" | sort -u) >/dev/null
for p in "${parsers[@]}"; do
  start=$(date +%s.%N)
  if [[ "$p" == ray ]]; then
    python3 "$here/ray-serve-check.py" --dump-schemas
  else
    python3 "$here/extract.py" "${VENV[$p]}" "$p"
  fi
  printf '%s: %.1f s\n' "$p" "$(echo "$(date +%s.%N) - $start" | bc)" >&2
done
