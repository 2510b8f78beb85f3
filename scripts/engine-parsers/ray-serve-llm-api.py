#!/usr/bin/env python3
"""What Ray Serve LLM's application builders read, from a ray wheel's own source (read, not run:
ray's `llm` extra needs vLLM >= 0.18, a GPU stack of its own): the builders `ray.serve.llm`
exports, the fields of the argument model each builder validates its `args` with, and the fields
of LLMConfig and ModelLoadingConfig (pydantic models: their annotated class attributes).

    scripts/engine-parsers/ray-serve-llm-api.py RAY_WHEEL [--out FILE]

Writes test/fixtures/engine-parsers/ray-<version>-serve-llm.json by default.
"""
import ast
import json
import os
import re
import sys
import zipfile

wheel = sys.argv[1]
version = re.search(r"ray-([0-9.]+)-", os.path.basename(wheel)).group(1)
z = zipfile.ZipFile(wheel)


def tree(path):
    return ast.parse(z.read(path).decode("utf-8"))


def class_fields(path, name):
    for node in tree(path).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return sorted(
                n.target.id for n in node.body
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and not n.target.id.startswith("_")
            )
    raise SystemExit(f"no class {name} in {path}")


public = tree("ray/serve/llm/__init__.py")
builders = sorted(n.name for n in public.body if isinstance(n, ast.FunctionDef) and n.name.startswith("build_"))
api = {
    "package": "ray",
    "version": version,
    "extractedWith": "scripts/engine-parsers/ray-serve-llm-api.py",
    "module": "ray.serve.llm",
    "builders": builders,
    # The model each application builder validates its `args` with.
    "builderArgs": {
        "build_openai_app": class_fields("ray/llm/_internal/serve/core/ingress/builder.py", "LLMServingArgs"),
        "build_pd_openai_app": class_fields("ray/llm/_internal/serve/serving_patterns/prefill_decode/builder.py", "PDServingArgs"),
    },
    "LLMConfig": class_fields("ray/llm/_internal/serve/core/configs/llm_config.py", "LLMConfig"),
    "ModelLoadingConfig": class_fields("ray/llm/_internal/serve/core/configs/llm_config.py", "ModelLoadingConfig"),
    "vllmRequirement": next((l.split(":", 1)[1].strip() for l in z.read(f"ray-{version}.dist-info/METADATA").decode().splitlines()
                             if l.startswith("Requires-Dist: vllm")), None),
}
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else os.path.join(here, "..", "..", "test", "fixtures", "engine-parsers", f"ray-{version}-serve-llm.json")
with open(out, "w") as f:
    json.dump(api, f, indent=1)
    f.write("\n")
print(f"ray {version}: {len(builders)} builders -> {os.path.normpath(out)}")
