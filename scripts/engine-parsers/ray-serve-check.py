#!/usr/bin/env python3
"""Validate RayService serveConfigV2 documents with Ray's own models.

    scripts/engine-parsers/ray-serve-check.py [--ray VERSION] < cases.jsonl > verdicts.jsonl
    scripts/engine-parsers/ray-serve-check.py [--ray VERSION] --dump-schemas

--ray picks the Ray release (the venv ray-<VERSION>, built by setup.sh); by
default it is the one the KubeRay provider's default image carries: the
version in the parser id of the kuberay row of src/core/version-matrix.ts
(`ray-<version>-serve-llm`), so the check follows the default image.

Input lines: {"id": "...", "serveConfigV2": "<YAML string>"}. Output lines:
    {"id", "accepted", "error", "values": {"deploy": <the validated
     ServeDeploySchema, as dict>, "applications": [{"name", "import_path",
     "builder", "argsModel", "args": <the validated args, as dict>}]}}
Each document is (1) YAML-loaded, (2) validated with
ray.serve.schema.ServeDeploySchema (pydantic), (3) for each application, its
import_path ('module:attr' or 'module.attr', as Serve accepts) is imported
with importlib; when the object is an application builder whose `args` Ray
validates with a pydantic model (Ray Serve LLM's build_openai_app ->
LLMServingArgs, build_pd_openai_app -> PDServingArgs, build_dp_openai_app ->
DPOpenAiServingArgs; or any builder whose single parameter is annotated with
a pydantic model, which Serve itself validates), the app's `args` are
validated with that model. No cluster is started and no builder is called.

--dump-schemas writes test/fixtures/engine-parsers/ray-<version>-serve-deploy-schema.json,
ray-<version>-llm-serving-args-schema.json (and the PD / DP serving-args schemas)
and ray-<version>-serve-llm-builders.json (the importable builder paths).
Runs in the ray-<version> venv (re-executes itself there).
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines  # noqa: E402

REPO = os.path.dirname(os.path.dirname(engines.HERE))
FIXTURES = os.path.join(REPO, "test", "fixtures", "engine-parsers")
VERSION_MATRIX = os.path.join(REPO, "src", "core", "version-matrix.ts")


def matrix_ray_version() -> str:
    """The Ray release of the KubeRay default image: the parser id of the matrix's kuberay row.
    Read from the TypeScript source (a regex over one object literal), so that the script and
    the provider cannot name different releases."""
    import re

    with open(VERSION_MATRIX, encoding="utf-8") as f:
        text = f.read()
    row = re.search(r"provider:\s*'kuberay'(.*?)\n\s*\}", text, re.S)
    parser = row and re.search(r"parser:\s*'ray-([0-9][0-9A-Za-z.]*)-serve-llm'", row.group(1))
    if not parser:
        sys.exit(f"ray-serve-check: no `parser: 'ray-<version>-serve-llm'` in the kuberay row of {VERSION_MATRIX}; pass --ray VERSION")
    return parser.group(1)


def ray_version(argv) -> str:
    for i, a in enumerate(argv):
        if a == "--ray":
            if i + 1 >= len(argv):
                sys.exit("ray-serve-check: --ray needs a version (e.g. --ray 2.60.0)")
            return argv[i + 1]
        if a.startswith("--ray="):
            return a.split("=", 1)[1]
    return matrix_ray_version()

# ray.serve.llm builder -> (module, class) of the model it validates its args with
KNOWN_ARGS_MODELS = {
    "build_openai_app": ("ray.serve.llm", "LLMServingArgs"),
    "build_pd_openai_app": ("ray.llm._internal.serve.serving_patterns.prefill_decode.builder", "PDServingArgs"),
    "build_dp_openai_app": ("ray.llm._internal.serve.serving_patterns.data_parallel.builder", "DPOpenAiServingArgs"),
}


def import_attr(path: str):
    """Serve's two spellings: 'pkg.mod:attr' and 'pkg.mod.attr'."""
    if ":" in path:
        mod, _, attr = path.partition(":")
    else:
        mod, _, attr = path.rpartition(".")
    if not mod or not attr:
        raise ValueError(f"import_path '{path}' is neither 'module:attr' nor 'module.attr'")
    obj = importlib.import_module(mod)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def args_model_for(obj):
    """The pydantic model the builder's args are validated with, or None."""
    name = getattr(obj, "__name__", None)
    mod = getattr(obj, "__module__", "") or ""
    if name in KNOWN_ARGS_MODELS and (mod.startswith("ray.serve.llm") or mod.startswith("ray.llm")):
        m, cls = KNOWN_ARGS_MODELS[name]
        return getattr(importlib.import_module(m), cls)
    if inspect.isfunction(obj):
        from pydantic import BaseModel

        params = list(inspect.signature(obj).parameters.values())
        if len(params) == 1 and inspect.isclass(params[0].annotation) and issubclass(params[0].annotation, BaseModel):
            return params[0].annotation
    return None


def dump(model_obj):
    for meth in ("model_dump", "dict"):
        if hasattr(model_obj, meth):
            try:
                return engines.jsonable(getattr(model_obj, meth)(mode="json") if meth == "model_dump" else model_obj.dict())
            except TypeError:
                return engines.jsonable(getattr(model_obj, meth)())
            except Exception:  # noqa: BLE001 - a field pydantic cannot serialise
                return engines.jsonable(getattr(model_obj, meth)())
    return engines.jsonable(model_obj)


def validate(model, data):
    if hasattr(model, "model_validate"):
        return model.model_validate(data)
    return model.parse_obj(data)


def check(doc_text: str, schema):
    import yaml

    data = yaml.safe_load(doc_text)
    if not isinstance(data, dict):
        raise ValueError(f"serveConfigV2 is not a YAML mapping (got {type(data).__name__})")
    deploy = validate(schema, data)
    apps = []
    for app in data.get("applications") or []:
        path = app.get("import_path")
        entry = {"name": app.get("name"), "import_path": path, "builder": None, "argsModel": None, "args": None}
        obj = import_attr(path)
        entry["builder"] = f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', repr(obj)))}"
        model = args_model_for(obj)
        if model is not None:
            entry["argsModel"] = f"{model.__module__}.{model.__qualname__}"
            try:
                entry["args"] = dump(validate(model, app.get("args") or {}))
            except Exception as e:  # noqa: BLE001
                raise ValueError(f"application '{app.get('name')}': args do not validate as "
                                 f"{model.__qualname__}: {e}") from e
        apps.append(entry)
    return {"deploy": dump(deploy), "applications": apps}


def json_schema(model):
    if hasattr(model, "model_json_schema"):
        from pydantic.json_schema import GenerateJsonSchema

        class Lenient(GenerateJsonSchema):
            # fields typed with classes (ingress_cls, server_cls, ...) have no JSON schema
            def handle_invalid_for_json_schema(self, schema, error_info):
                return {"description": f"not representable in JSON schema: {error_info}"}

        return model.model_json_schema(schema_generator=Lenient)
    return json.loads(model.schema_json())


def dump_schemas():
    import ray
    import ray.serve.llm as llm
    from ray.serve.schema import ServeDeploySchema

    def write(name, obj):
        path = os.path.join(FIXTURES, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"-> {path}", file=sys.stderr)

    write(f"ray-{ray.__version__}-serve-deploy-schema.json", json_schema(ServeDeploySchema))
    write(f"ray-{ray.__version__}-llm-serving-args-schema.json", json_schema(llm.LLMServingArgs))
    builders = []
    for name in sorted(n for n in dir(llm) if n.startswith("build_")):
        for path in (f"ray.serve.llm:{name}", f"ray.serve.llm.{name}"):
            entry = {"importPath": path}
            try:
                obj = import_attr(path)
                entry["importable"] = True
                entry["definedIn"] = f"{obj.__module__}.{obj.__qualname__}"
                entry["parameters"] = list(inspect.signature(obj).parameters)
                model = args_model_for(obj)
                entry["argsModel"] = f"{model.__module__}.{model.__qualname__}" if model else None
                if model is not None and name != "build_openai_app":
                    short = {"build_pd_openai_app": "pd", "build_dp_openai_app": "dp"}.get(name, name)
                    write(f"ray-{ray.__version__}-{short}-serving-args-schema.json", json_schema(model))
            except Exception as e:  # noqa: BLE001
                entry["importable"] = False
                entry["error"] = f"{type(e).__name__}: {e}"
            builders.append(entry)
    import importlib.metadata as md

    write(f"ray-{ray.__version__}-serve-llm-builders.json", {
        "package": "ray", "version": ray.__version__,
        "extractedWith": "scripts/engine-parsers/ray-serve-check.py --dump-schemas",
        "vllm": md.version("vllm"),
        "rayRequiresVllm": [r for r in (md.requires("ray") or []) if r.startswith("vllm")],
        "builders": builders,
    })


def main():
    version = ray_version(sys.argv[1:])
    engines.ensure_venv(f"ray-{version}")
    with engines.quiet_stdout() as out:
        t0 = time.time()
        if "--dump-schemas" in sys.argv[1:]:
            dump_schemas()
            return
        from ray.serve.schema import ServeDeploySchema
        import ray
        import ray.serve.llm  # noqa: F401 - imported once, up front

        if ray.__version__ != version:
            sys.exit(f"ray-serve-check: venv ray-{version} holds ray {ray.__version__}")

        n, t1 = 0, time.time()
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                case = json.loads(line)
                text = case["serveConfigV2"]
            except (ValueError, KeyError, TypeError) as e:
                out.write(json.dumps({"id": None, "accepted": False, "error": f"bad input line: {e}", "values": None}) + "\n")
                continue
            res = {"id": case.get("id")}
            try:
                res.update({"accepted": True, "error": None, "values": check(text, ServeDeploySchema)})
            except Exception as e:  # noqa: BLE001
                res.update({"accepted": False, "error": f"{type(e).__name__}: {e}", "values": None})
            out.write(json.dumps(res, ensure_ascii=False) + "\n")
            n += 1
        print(f"ray-serve-check: ready in {t1 - t0:.1f}s; {n} documents in {time.time() - t1:.2f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
