#!/usr/bin/env python3
"""The names vLLM's engine takes its arguments by (the fields of AsyncEngineArgs), which is what
Ray Serve LLM's `engine_kwargs` must use: writes test/fixtures/engine-parsers/<venv-id>-engine-args.json.

    scripts/engine-parsers/engine-arg-fields.py vllm-0.11.0
"""
import dataclasses
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines  # noqa: E402

venv = sys.argv[1]
engines.ensure_venv(venv)
from vllm.engine.arg_utils import AsyncEngineArgs  # noqa: E402
import vllm  # noqa: E402

fields = sorted(f.name for f in dataclasses.fields(AsyncEngineArgs) if not f.name.startswith("_"))
out = os.path.join(os.path.dirname(os.path.dirname(engines.HERE)), "test", "fixtures", "engine-parsers", f"{venv}-engine-args.json")
with open(out, "w") as f:
    json.dump({"package": "vllm", "version": vllm.__version__, "source": "dataclasses.fields(vllm.engine.arg_utils.AsyncEngineArgs)",
               "extractedWith": "scripts/engine-parsers/engine-arg-fields.py", "fields": fields}, f, indent=1)
    f.write("\n")
print(f"{len(fields)} engine argument fields of vLLM {vllm.__version__} -> {out}")
