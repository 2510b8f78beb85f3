"""The engine parsers: which venv holds each, how its entrypoint builds it,
what runs after argparse, and the stand-ins that let it run without a GPU.

Imported by extract.py and parse.py, inside the engine's venv (they re-exec
themselves with the venv's python). Engine modules are imported lazily, in
the builder of the parser asked for, after the stand-ins are in place.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))


def cache_root() -> str:
    return os.environ.get("CDK8S_INFERENCE_ENGINE_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "cdk8s-inference", "engines"
    )


# --------------------------------------------------------------------------
# Environment: the parsers read defaults from the environment (DYN_*, VLLM_*,
# SGLANG_*); a clean, offline one keeps the definitions reproducible and keeps
# anything from reaching the Hugging Face Hub.

ENV_PREFIXES_DROPPED = ("DYN_", "VLLM_", "SGLANG_", "SGL_", "RAY_", "HF_", "TRT", "NIXL_", "CUDA_")
ENV_SET = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "CUDA_VISIBLE_DEVICES": "",
    "VLLM_NO_USAGE_STATS": "1",
    "DO_NOT_TRACK": "1",
    "RAY_USAGE_STATS_ENABLED": "0",
    "TOKENIZERS_PARALLELISM": "false",
    "PYTHONWARNINGS": "ignore",
    "PYTHONHASHSEED": "0",  # stable iteration order of sets (some choices are sets)
}


def clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(ENV_PREFIXES_DROPPED)}
    env.update(ENV_SET)
    env["CDK8S_INFERENCE_ENGINE_CACHE"] = cache_root()
    # A local Hugging Face cache of stand-in snapshots (hf_snapshot_standin): the Dynamo workers
    # resolve the model's snapshot while parsing, and nothing may reach the Hub.
    env["HF_HUB_CACHE"] = os.path.join(cache_root(), "hf-standin")
    env["CDK8S_INFERENCE_ENGINE_REEXEC"] = "1"
    return env


def ensure_venv(venv_id: str) -> None:
    """Re-exec the running script with the venv's python and a clean env."""
    venv = os.path.join(cache_root(), venv_id)
    if os.environ.get("CDK8S_INFERENCE_ENGINE_REEXEC") == "1" and os.path.realpath(
        sys.prefix
    ) == os.path.realpath(venv):
        return
    marker = os.path.join(venv, ".setup-complete")
    if not os.path.exists(marker):
        sys.exit(
            f"venv {venv_id} is not built (no {marker}); run scripts/engine-parsers/setup.sh {venv_id}"
        )
    py = os.path.join(venv, "bin", "python")
    os.execve(py, [py, "-X", "utf8", os.path.abspath(sys.argv[0])] + sys.argv[1:], clean_env())


# --------------------------------------------------------------------------
# Stand-ins.


def install_vllm_platform_standin() -> None:
    """vLLM resolves `vllm.platforms.current_platform` on first use; with no
    GPU it becomes UnspecifiedPlatform, whose empty device_type makes
    DeviceConfig() raise while add_cli_args computes the defaults. The real
    CudaPlatform cannot be imported either (vllm._C needs libcuda.so.1). The
    stand-in is a Platform that says it is CUDA, as the images' platform is,
    with an H100's capability and memory; nothing in argument parsing touches
    a device."""
    import vllm.platforms as platforms
    from vllm.platforms import interface

    class StandInCudaPlatform(interface.Platform):
        _enum = interface.PlatformEnum.CUDA
        device_name = "cuda"
        device_type = "cuda"
        dispatch_key = "CUDA"
        ray_device_key = "GPU"
        dist_backend = "nccl"
        device_control_env_var = "CUDA_VISIBLE_DEVICES"

        @classmethod
        def get_device_capability(cls, device_id: int = 0):
            return interface.DeviceCapability(major=9, minor=0)

        @classmethod
        def get_device_name(cls, device_id: int = 0) -> str:
            return "NVIDIA H100 80GB HBM3 (cdk8s-inference stand-in)"

        @classmethod
        def get_device_total_memory(cls, device_id: int = 0) -> int:
            return 80 * (1 << 30)

        @classmethod
        def is_async_output_supported(cls, enforce_eager) -> bool:
            return True

    platforms._current_platform = StandInCudaPlatform()


def install_tensorrt_llm_standin(version: str = "1.3.0rc11", llm_args: bool = False) -> None:
    """TensorRT-LLM (ai-dynamo[trtllm] 1.1.1 pins tensorrt-llm==1.3.0rc11, 1.6.1
    1.3.0rc29) is not on PyPI for this Python: the PyPI project is a
    placeholder that downloads from NVIDIA's own index. dynamo.trtllm's
    argument definitions import only `tensorrt_llm.llmapi.BuildConfig` (1.1.1)
    or, from TensorRT-LLM 1.3.0rc21 on, which removed it,
    `tensorrt_llm.llmapi.llm_args.BaseLlmArgs` (1.6.1, `llm_args=True`), and
    only for four defaults read from `model_fields[...]`. The stand-in module
    provides just that. The four defaults are those of TensorRT-LLM's public
    BuildConfig source (max_batch_size 2048, max_num_tokens 8192, max_seq_len
    None, max_beam_width 1), not read from the pinned release itself."""
    if "tensorrt_llm" in sys.modules:
        return
    try:
        import importlib.util

        if importlib.util.find_spec("tensorrt_llm") is not None:
            return  # the real one is there: use it
    except (ImportError, ValueError):
        pass

    class _Field:
        def __init__(self, default):
            self.default = default

    class BuildConfig:
        model_fields = {
            "max_batch_size": _Field(2048),
            "max_num_tokens": _Field(8192),
            "max_seq_len": _Field(None),
            "max_beam_width": _Field(1),
        }

    pkg = types.ModuleType("tensorrt_llm")
    pkg.__path__ = []  # a package, so that submodule imports resolve
    pkg.__version__ = f"{version}+cdk8s-inference-standin"
    llmapi = types.ModuleType("tensorrt_llm.llmapi")
    llmapi.__path__ = []
    pkg.llmapi = llmapi
    sys.modules["tensorrt_llm"] = pkg
    sys.modules["tensorrt_llm.llmapi"] = llmapi
    if llm_args:
        args_module = types.ModuleType("tensorrt_llm.llmapi.llm_args")
        args_module.BaseLlmArgs = BuildConfig
        llmapi.llm_args = args_module
        sys.modules["tensorrt_llm.llmapi.llm_args"] = args_module
    else:
        llmapi.BuildConfig = BuildConfig


def importlib_util_file() -> str:
    import importlib.util

    return getattr(importlib.util, "__file__", None) or "<frozen importlib.util>"


class StandInImportWatch:
    """A meta-path finder that records every import of the modules the
    stand-in wheels replace (setup.sh's STANDINS: empty wheels that only
    satisfy a requirement, such as aisimulate and cuda-tile for ai-dynamo
    1.6.1). It finds nothing itself, so such an import still fails; what it
    records proves the parser never needed the real package. An availability
    probe (`importlib.util.find_spec`, as flashinfer asks whether cuda.tile is
    there for optional GEMM kernels) is recorded apart: it is answered "absent",
    as on a machine without the package, and imports nothing."""

    def __init__(self, modules):
        self.modules = tuple(modules)
        self.seen: list = []
        self.probed: list = []

    def find_spec(self, name, path=None, target=None):
        if any(name == m or name.startswith(m + ".") for m in self.modules):
            import traceback

            probe = any(f.name == "find_spec" and f.filename in ("<frozen importlib.util>", importlib_util_file())
                        for f in traceback.extract_stack())
            (self.probed if probe else self.seen).append(name)
        return None


def watching_standins(build: Callable[[], "Built"], modules) -> Callable[[], "Built"]:
    """`build`, which fails when building the parser, or parsing a line with it,
    imports a module of a stand-in wheel."""

    def watched():
        watch = StandInImportWatch(modules)
        sys.meta_path.insert(0, watch)
        built = build()
        if watch.seen:
            raise RuntimeError(f"building the parser imported stand-in modules {sorted(set(watch.seen))}")
        inner = built.run

        def run(argv):
            values = inner(argv)
            if watch.seen:
                raise RuntimeError(f"parsing imported stand-in modules {sorted(set(watch.seen))}")
            return values

        built.run = run
        built.notes.append(
            f"{', '.join(modules)}: empty stand-in wheels (scripts/engine-parsers/setup.sh), "
            "never imported while the parser is built or parses (checked)")
        if watch.probed:
            built.notes.append(
                f"probed for with importlib.util.find_spec and found absent: {', '.join(sorted(set(watch.probed)))} "
                "(availability checks of optional kernels; nothing of the parser depends on them)")
        return built

    return watched


# --------------------------------------------------------------------------
# Parser specs.


@dataclass
class Stage:
    """One argparse parser of an entrypoint. Composite entrypoints (Dynamo's
    vLLM and SGLang workers) parse with two: their own parser with
    parse_known_args, then the engine's parser on what was left."""

    name: str
    parser: argparse.ArgumentParser


@dataclass
class Built:
    stages: list  # [Stage]
    # run(argv) -> dict of values; raises SystemExit (argparse) or an exception
    run: Callable[[list], dict]
    checks: list = field(default_factory=list)  # what post-parse validation runs
    notes: list = field(default_factory=list)


@dataclass
class Spec:
    name: str
    venv: str
    package: str
    version: str
    entrypoint: list
    prog: str  # sys.argv[0] the entrypoint sees (argparse's prog in messages)
    build: Callable[[], Built]
    custom_parsing: str
    extra: dict = field(default_factory=dict)


def namespace_values(ns) -> dict:
    return dict(vars(ns)) if ns is not None else {}


def object_values(obj) -> dict:
    """An object's attributes: its __dict__, then its public __slots__ (SGLang
    0.5.21's ServerArgs keeps its fields in slots, so vars() is empty)."""
    values = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if not name.startswith("_") and name not in values and hasattr(obj, name):
                values[name] = getattr(obj, name)
    return values


# ---- vLLM -----------------------------------------------------------------

VLLM_CUSTOM = (
    "vLLM's FlexibleArgumentParser (subclass of argparse.ArgumentParser) rewrites argv in "
    "parse_args() before argparse sees it: (1) in every token that starts with '--', the part "
    "between '--' and the first '.' (or '=') has '_' turned into '-', so --max_model_len and "
    "--max-model-len are the same flag (values and single-dash tokens are left alone); "
    "(2) '--help=<kw>' becomes '--help' filtered by keyword; (3) -O<n>, -O=<n> and '-O <0-3>' "
    "become '-O.level <n>'; (4) dotted JSON keys: '--x.a.b v' or '--x.a.b=v' are removed from "
    "argv and merged (recursively, later wins, lists concatenated) into one '--x <json>' "
    "appended at the end; a value is json.loads'ed when it parses as JSON, else kept as a "
    "string; a trailing '+' ('--x.k+ a,b') makes a JSON list from a comma split; "
    "(5) '--config file.yaml' (at most once) is replaced by the YAML file's flat mapping, "
    "inserted before the other arguments (a true boolean becomes a bare --key, false is "
    "dropped unless the action is StoreBoolean, a list becomes '--key v1 v2 ...'), so the "
    "command line wins over the file. The rewriting happens only in parse_args(), not in "
    "parse_known_args(). JSON-valued options use a type that json.loads the value. "
    "allow_abbrev is argparse's default (True): unambiguous prefixes of long flags are accepted."
)


def _vllm_import_parser_bits():
    try:
        from vllm.utils.argparse_utils import FlexibleArgumentParser  # >= 0.11.1
    except ImportError:
        from vllm.utils import FlexibleArgumentParser
    try:
        from vllm.entrypoints.common.cli_args import make_arg_parser, validate_parsed_serve_args  # >= 0.2x
    except ImportError:
        try:
            from vllm.entrypoints.launchers.cli_args import make_arg_parser, validate_parsed_serve_args  # 0.29.x
        except ImportError:
            from vllm.entrypoints.openai.cli_args import make_arg_parser, validate_parsed_serve_args

    return FlexibleArgumentParser, make_arg_parser, validate_parsed_serve_args


def _vllm_startup_bits():
    """cli_env_setup and the subcommand epilog, wherever this vLLM keeps them."""
    try:
        from vllm.entrypoints.common.startup import VLLM_SUBCMD_PARSER_EPILOG, cli_env_setup  # >= 0.2x
    except ImportError:
        try:
            from vllm.entrypoints.serve.utils.api_utils import VLLM_SUBCMD_PARSER_EPILOG, cli_env_setup  # 0.29.x
        except ImportError:
            from vllm.entrypoints.utils import VLLM_SUBCMD_PARSER_EPILOG, cli_env_setup
    return VLLM_SUBCMD_PARSER_EPILOG, cli_env_setup


def build_vllm_api_server() -> Built:
    """python3 -m vllm.entrypoints.openai.api_server: its __main__ block runs
    cli_env_setup(), FlexibleArgumentParser(description=...),
    make_arg_parser(parser), parser.parse_args(), validate_parsed_serve_args(args),
    then starts the server (not done here)."""
    install_vllm_platform_standin()
    _, cli_env_setup = _vllm_startup_bits()

    FlexibleArgumentParser, make_arg_parser, validate_parsed_serve_args = _vllm_import_parser_bits()
    cli_env_setup()
    parser = FlexibleArgumentParser(description="vLLM OpenAI-Compatible RESTful API server.")
    parser = make_arg_parser(parser)

    def run(argv):
        args = parser.parse_args(argv)
        validate_parsed_serve_args(args)
        return namespace_values(args)

    return Built(
        [Stage("api_server", parser)],
        run,
        checks=["FlexibleArgumentParser.parse_args", "validate_parsed_serve_args"],
    )


def build_vllm_serve() -> Built:
    """`vllm serve` (vllm.entrypoints.cli.main:main): a FlexibleArgumentParser
    with -v/--version and subcommands from every CLI module; parse_args();
    then the subcommand's validate(args) (serve: validate_parsed_serve_args).
    The serve subcommand's cmd() later copies model_tag into model; not done
    here, so `values` is the namespace as parsed."""
    install_vllm_platform_standin()
    import importlib.metadata

    import vllm.entrypoints.cli.main as cli_main  # noqa: F401 (its imports register the platform)

    VLLM_SUBCMD_PARSER_EPILOG, cli_env_setup = _vllm_startup_bits()
    FlexibleArgumentParser, _, _ = _vllm_import_parser_bits()
    # main()'s CMD_MODULES, in its order; a release lacks some (ImportError: skipped).
    module_names = [
        "vllm.entrypoints.cli.openai",
        "vllm.entrypoints.cli.serve",
        "vllm.entrypoints.cli.launch",
        "vllm.entrypoints.cli.benchmark.main",
        "vllm.entrypoints.cli.collect_env",
        "vllm.entrypoints.cli.download_kernels",
        "vllm.entrypoints.cli.preload",
        "vllm.entrypoints.cli.run_batch",
        "vllm.entrypoints.cli.snapshot",
    ]
    import importlib

    modules = []
    for m in module_names:
        try:
            modules.append(importlib.import_module(m))
        except ImportError:
            pass
    cli_env_setup()
    parser = FlexibleArgumentParser(
        description="vLLM CLI", epilog=VLLM_SUBCMD_PARSER_EPILOG.format(subcmd="[subcommand]")
    )
    parser.add_argument("-v", "--version", action="version", version=importlib.metadata.version("vllm"))
    subparsers = parser.add_subparsers(required=False, dest="subparser")
    cmds = {}
    for mod in modules:
        # snapshot's cmd_init takes create_requested (True only for `vllm snapshot create`).
        inits = mod.cmd_init(create_requested=False) if mod.__name__.endswith(".snapshot") else mod.cmd_init()
        for cmd in inits:
            cmd.subparser_init(subparsers).set_defaults(dispatch_function=cmd.cmd)
            cmds[cmd.name] = cmd
    serve_parser = subparsers.choices["serve"]

    def run(argv):
        args = parser.parse_args(["serve"] + list(argv))
        if args.subparser in cmds:
            cmds[args.subparser].validate(args)
        values = namespace_values(args)
        values.pop("dispatch_function", None)
        return values

    return Built(
        [Stage("serve", serve_parser)],
        run,
        checks=[
            "FlexibleArgumentParser.parse_args(['serve', ...]) of the top-level `vllm` parser",
            "ServeSubcommand.validate (validate_parsed_serve_args)",
        ],
        notes=[
            "argv is prefixed with 'serve' and parsed by the top-level parser, as `vllm serve ...` is; "
            "the definition dumped is the serve subparser's",
        ],
    )


# ---- SGLang ---------------------------------------------------------------

SGLANG_CUSTOM = (
    "Stock argparse.ArgumentParser() (allow_abbrev True: unambiguous prefixes of long flags are "
    "accepted; no '_'/'-' normalisation: --model_path is unrecognized). Before argparse, "
    "prepare_server_args() expands '--config <file.yaml>' (sglang.srt.server_args_config_parser."
    "ConfigArgumentMerger) into flags, file values first so the command line wins. After "
    "argparse, ServerArgs.from_cli_args() copies tensor/pipeline/data/expert_parallel_size into "
    "tp/pp/dp/ep_size and builds the ServerArgs dataclass, whose __post_init__ fills derived "
    "defaults and validates combinations (raising ValueError/AssertionError)."
)


def _sglang_standins(notes: list) -> None:
    """ServerArgs.__post_init__ asks for the device (torch.cuda), the GPU's
    memory (nvidia-smi) and the model's Hugging Face config (a download).
    The stand-ins: device 'cuda', an 80 GB GPU, and a local Qwen3 config
    (transformers' Qwen3Config defaults, architectures Qwen3ForCausalLM) for
    every model path."""
    import sglang.srt.server_args as sa

    def get_device(*_a, **_k):
        return "cuda"

    def get_device_memory_capacity(*_a, **_k):
        return 80 * 1024  # MiB, as sglang's helpers return it

    for name, fn in (("get_device", get_device), ("get_device_memory_capacity", get_device_memory_capacity)):
        if hasattr(sa, name):
            setattr(sa, name, fn)

    def standin_config(*_a, **_k):
        from transformers import Qwen3Config

        cfg = Qwen3Config()
        cfg.architectures = ["Qwen3ForCausalLM"]
        return cfg

    import importlib

    for modname in ("sglang.srt.server_args", "sglang.srt.utils.hf_transformers_utils",
                    "sglang.srt.configs.model_config"):
        try:
            mod = importlib.import_module(modname)
        except ImportError:
            continue
        if hasattr(mod, "get_config"):
            mod.get_config = standin_config

    # ModelConfig asks the Hub whether the model has extra files
    # (hf_quant_config.json, ...), retrying with delays when it is unreachable:
    # the stand-in model has none.
    import huggingface_hub

    def no_file(*_a, **_k):
        return False

    huggingface_hub.HfApi.file_exists = no_file
    huggingface_hub.file_exists = no_file
    # ModelConfig imported get_config by name too (sglang.srt.configs.model_config).
    import sglang.srt.configs.model_config as mc

    if hasattr(mc, "get_config"):
        mc.get_config = standin_config
    notes.append(
        "ServerArgs.__post_init__ runs with stand-ins: device 'cuda', an 80 GB GPU "
        "(get_device_memory_capacity), and for any model path a local transformers Qwen3Config "
        "(architectures ['Qwen3ForCausalLM']) instead of the model's config.json from the Hub, "
        "and huggingface_hub's file_exists answering False (no Hub lookups)"
    )


def build_sglang_launch_server() -> Built:
    """python3 -m sglang.launch_server: prepare_server_args(sys.argv[1:]) =
    (config-file merge if --config) + argparse.ArgumentParser() +
    ServerArgs.add_cli_args + parse_args + ServerArgs.from_cli_args
    (__post_init__); then the server starts (not done here)."""
    notes: list = []
    import sglang.srt.server_args as sa

    _sglang_standins(notes)
    parser = argparse.ArgumentParser()
    sa.ServerArgs.add_cli_args(parser)

    def run(argv):
        argv = list(argv)
        if "--config" in argv:
            server_args = sa.prepare_server_args(argv)  # the real merge path
            return {k: v for k, v in vars(server_args).items()}
        raw = parser.parse_args(argv)
        values = namespace_values(raw)
        sa.ServerArgs.from_cli_args(raw)  # __post_init__ validations
        return values

    return Built(
        [Stage("launch_server", parser)],
        run,
        checks=["argparse parse_args", "ServerArgs.from_cli_args + __post_init__ (with stand-ins)"],
        notes=notes,
    )


# ---- Dynamo ---------------------------------------------------------------

DYNAMO_VLLM_CUSTOM = (
    "Two parsers. First dynamo.vllm.args.parse_args builds a stock argparse.ArgumentParser("
    "allow_abbrev=False) with Dynamo's runtime and vLLM-worker groups and calls "
    "parse_known_args(argv): Dynamo flags must be spelled exactly (no prefixes, no '_' for '-'), "
    "and everything it does not know is passed on. vLLM's engine flags are attached to that "
    "parser's help only (a group's _group_actions), not to its parsing. Then the leftovers go to "
    "a vLLM FlexibleArgumentParser(add_help=False) holding AsyncEngineArgs.add_cli_args "
    "(engine flags only, no OpenAI-server flags such as --port, --api-key or "
    "--enable-auto-tool-choice) with parse_args(): the vLLM rewriting applies there ('_' to "
    "'-' in flag names, dotted JSON keys, --config YAML, -O<n>) and allow_abbrev is True. "
    "Unknown leftovers fail in the second parser ('unrecognized arguments'). Then Dynamo's "
    "Config.from_cli_args + validate(), AsyncEngineArgs.from_cli_args, and Dynamo's "
    "cross-validation between the two. Options carry 'stage': 'dynamo' or 'vllm'."
)

DYNAMO_SGLANG_CUSTOM = (
    "Two parsers. dynamo.sglang.args.parse_args (async) builds a stock argparse.ArgumentParser "
    "with Dynamo's runtime and SGLang-worker groups and parse_known_args(argv); the leftovers "
    "go to a second argparse.ArgumentParser holding sglang's ServerArgs.add_cli_args with "
    "parse_args() (so unknown flags fail there with 'unrecognized arguments'); SGLang's "
    "'--config' YAML is merged by Dynamo first. Then sglang's ServerArgs is built from the "
    "namespace (its __post_init__ validations) and Dynamo's own config. Options carry 'stage': "
    "'dynamo' or 'sglang'. Note sglang spells the model '--model-path' (alias '--model'), and "
    "prefix caching is on unless '--disable-radix-cache': there is no '--enable-prefix-caching'."
)


def _dynamo_collect_parsers(fn: Callable, call: Callable) -> list:
    """Run Dynamo's own parse_args once with argparse instrumented, to get the
    parsers it builds, in order of construction (no server is started)."""
    built: list = []
    orig_init = argparse.ArgumentParser.__init__

    def init(self, *a, **k):
        orig_init(self, *a, **k)
        built.append(self)

    argparse.ArgumentParser.__init__ = init
    try:
        call()
    except BaseException:  # noqa: BLE001 - we only want the parsers
        pass
    finally:
        argparse.ArgumentParser.__init__ = orig_init
    return built


def build_dynamo_vllm() -> Built:
    install_vllm_platform_standin()
    import dynamo.vllm.args as dargs

    def run(argv):
        config = dargs.parse_args(list(argv))
        values = {}
        for k, v in vars(config).items():
            if k == "engine_args":
                continue
            values[k] = v
        eng = getattr(config, "engine_args", None)
        if eng is not None:
            import dataclasses

            for f in dataclasses.fields(eng):
                values.setdefault(f.name, getattr(eng, f.name))
        return values

    parsers = _dynamo_collect_parsers(dargs.parse_args, lambda: dargs.parse_args(["--model", "m"]))
    stages = _dynamo_stages(parsers, "vllm")
    return Built(
        stages,
        run,
        checks=[
            "dynamo.vllm.args.parse_args(argv) itself: Dynamo parse_known_args, Config.from_cli_args, "
            "Config.validate, vLLM FlexibleArgumentParser.parse_args(leftovers), "
            "AsyncEngineArgs.from_cli_args, cross_validate_config, update_*_config",
        ],
    )


def _dynamo_stages(parsers: list, engine: str) -> list:
    """The first parser built is Dynamo's; the engine's is the one with the
    most actions among the others (helper parsers may be built too)."""
    if not parsers:
        raise RuntimeError("no argparse parser was built")
    first = parsers[0]
    others = [p for p in parsers[1:] if p is not first]
    stages = [Stage("dynamo", first)]
    if others:
        stages.append(Stage(engine, max(others, key=lambda p: len(p._actions))))
    return stages


def build_dynamo_sglang() -> Built:
    notes: list = []
    import asyncio

    import sglang.srt.server_args  # noqa: F401

    _sglang_standins(notes)
    import dynamo.sglang.args as dargs

    # parse_args downloads the model (dynamo.llm.fetch_model) when the path is
    # not a local directory; the stand-in fetches nothing.
    async def fetch_model_standin(*_a, **_k):
        return None

    if hasattr(dargs, "fetch_model"):
        dargs.fetch_model = fetch_model_standin
        notes.append("dynamo.sglang.args.fetch_model (the model download in parse_args) is a no-op stand-in")

    def run(argv):
        config = asyncio.run(dargs.parse_args(list(argv)))
        values = {}
        for k, v in vars(config).items():
            if k in ("server_args", "dynamo_args"):
                continue
            values[k] = v
        for attr in ("dynamo_args", "server_args"):
            sub = getattr(config, attr, None)
            if sub is not None:
                for k, v in object_values(sub).items():
                    values.setdefault(k, v)
        return values

    parsers = _dynamo_collect_parsers(
        dargs.parse_args, lambda: asyncio.run(dargs.parse_args(["--model-path", "m"]))
    )
    return Built(
        _dynamo_stages(parsers, "sglang"),
        run,
        checks=[
            "dynamo.sglang.args.parse_args(argv) itself (asyncio): Dynamo parse_known_args, SGLang "
            "parse_args(leftovers), ServerArgs (with __post_init__), Dynamo config validation",
        ],
        notes=notes,
    )


def build_dynamo_trtllm(version: str = "1.3.0rc11", llm_args: bool = False) -> Built:
    install_tensorrt_llm_standin(version, llm_args)
    import dynamo.trtllm.args as dargs

    def run(argv):
        config = dargs.parse_args(list(argv))
        return dict(vars(config))

    parsers = _dynamo_collect_parsers(dargs.parse_args, lambda: dargs.parse_args(["--model", "m"]))
    return Built(
        _dynamo_stages(parsers, "trtllm")[:1],
        run,
        checks=["dynamo.trtllm.args.parse_args(argv) itself, with the tensorrt_llm stand-in module"],
        notes=["tensorrt_llm is a stand-in module (see engines.install_tensorrt_llm_standin)"],
    )


def build_dynamo_frontend() -> Built:
    """dynamo.frontend.main.parse_args() reads sys.argv; it is called with
    sys.argv set. With '--dyn-chat-processor vllm' it parses leftovers with
    vLLM's parser (vllm is installed in this venv, as in Dynamo's vLLM image)."""
    install_vllm_platform_standin()
    import dynamo.frontend.main as fmain

    def run(argv):
        saved = sys.argv
        sys.argv = [saved[0]] + list(argv)
        try:
            config, vllm_flags, sglang_flags = fmain.parse_args()
        finally:
            sys.argv = saved
        values = dict(vars(config))
        for extra in (vllm_flags, sglang_flags):
            if extra is not None:
                for k, v in vars(extra).items():
                    values.setdefault(k, v)
        return values

    def first():
        saved = sys.argv
        sys.argv = [saved[0]]
        try:
            fmain.parse_args()
        finally:
            sys.argv = saved

    parsers = _dynamo_collect_parsers(fmain.parse_args, first)
    return Built(
        [Stage("dynamo", parsers[0])],
        run,
        checks=["dynamo.frontend.main.parse_args() itself (FrontendConfig.from_cli_args + validate; "
                "leftover handling for --dyn-chat-processor vllm/sglang)"],
    )


def build_dynamo_mocker() -> Built:
    import dynamo.mocker.args as margs

    def run(argv):
        return dict(vars(margs.parse_args(list(argv))))

    parsers = _dynamo_collect_parsers(margs.parse_args, lambda: margs.parse_args([]))
    return Built(
        [Stage("dynamo", parsers[0])],
        run,
        checks=["dynamo.mocker.args.parse_args(argv) itself (argparse + validate_worker_type_args + "
                "port-list and worker-count checks)"],
    )


DYNAMO_PLAIN_CUSTOM = (
    "Stock argparse.ArgumentParser; Dynamo's flags are declared with helper functions "
    "(dynamo.common.configuration.utils: add_argument / add_negatable_bool_argument, the latter "
    "registering --x and --no-x), their defaults often read from DYN_* environment variables "
    "(unset here). After argparse, Dynamo's own validation runs."
)

SPECS = {}


def _spec(**kw):
    s = Spec(**kw)
    SPECS[s.name] = s


_spec(name="vllm-0.11.0-api-server", venv="vllm-0.11.0", package="vllm", version="0.11.0",
      entrypoint=["python3", "-m", "vllm.entrypoints.openai.api_server"], prog="api_server.py",
      build=build_vllm_api_server, custom_parsing=VLLM_CUSTOM)
_spec(name="vllm-0.11.0-serve", venv="vllm-0.11.0", package="vllm", version="0.11.0",
      entrypoint=["vllm", "serve"], prog="vllm",
      build=build_vllm_serve, custom_parsing=VLLM_CUSTOM + (
          " `vllm serve` only: the top-level parse_args() raises ValueError when argv (after "
          "'serve') contains the exact token '--model' (the model goes in the positional model_tag "
          "or in --config); '--model=x' and '--model_x' spellings are not caught by that check."))
_spec(name="vllm-0.9.1-api-server", venv="vllm-0.9.1", package="vllm", version="0.9.1",
      entrypoint=["python3", "-m", "vllm.entrypoints.openai.api_server"], prog="api_server.py",
      build=build_vllm_api_server, custom_parsing=VLLM_CUSTOM)
_spec(name="vllm-0.9.1-serve", venv="vllm-0.9.1", package="vllm", version="0.9.1",
      entrypoint=["vllm", "serve"], prog="vllm",
      build=build_vllm_serve, custom_parsing=VLLM_CUSTOM)
_spec(name="vllm-0.33.0-serve", venv="vllm-0.33.0", package="vllm", version="0.33.0",
      entrypoint=["vllm", "serve"], prog="vllm",
      build=build_vllm_serve, custom_parsing=VLLM_CUSTOM)
# The vLLM the KubeRay default image (rayproject/ray-llm 2.60.0) carries: ray[llm]==2.60.0 pins
# vllm 0.29.0, so its parser is read from the Ray venv rather than a venv of its own.
_spec(name="vllm-0.29.0-serve", venv="ray-2.60.0", package="vllm", version="0.29.0",
      entrypoint=["vllm", "serve"], prog="vllm",
      build=build_vllm_serve, custom_parsing=VLLM_CUSTOM)
_spec(name="sglang-0.5.4-launch-server", venv="sglang-0.5.4", package="sglang", version="0.5.4",
      entrypoint=["python3", "-m", "sglang.launch_server"], prog="launch_server.py",
      build=build_sglang_launch_server, custom_parsing=SGLANG_CUSTOM)
_spec(name="sglang-0.5.23-launch-server", venv="sglang-0.5.23", package="sglang", version="0.5.23",
      entrypoint=["python3", "-m", "sglang.launch_server"], prog="launch_server.py",
      build=build_sglang_launch_server, custom_parsing=SGLANG_CUSTOM)
_spec(name="dynamo-1.1.1-vllm", venv="dynamo-1.1.1-vllm", package="ai-dynamo", version="1.1.1",
      entrypoint=["python3", "-m", "dynamo.vllm"], prog="__main__.py",
      build=build_dynamo_vllm, custom_parsing=DYNAMO_VLLM_CUSTOM)
_spec(name="dynamo-1.1.1-sglang", venv="dynamo-1.1.1-sglang", package="ai-dynamo", version="1.1.1",
      entrypoint=["python3", "-m", "dynamo.sglang"], prog="__main__.py",
      build=build_dynamo_sglang, custom_parsing=DYNAMO_SGLANG_CUSTOM)
_spec(name="dynamo-1.1.1-trtllm", venv="dynamo-1.1.1-vllm", package="ai-dynamo", version="1.1.1",
      entrypoint=["python3", "-m", "dynamo.trtllm"], prog="__main__.py",
      build=build_dynamo_trtllm, custom_parsing=DYNAMO_PLAIN_CUSTOM)
_spec(name="dynamo-1.1.1-frontend", venv="dynamo-1.1.1-vllm", package="ai-dynamo", version="1.1.1",
      entrypoint=["python3", "-m", "dynamo.frontend"], prog="__main__.py",
      build=build_dynamo_frontend, custom_parsing=DYNAMO_PLAIN_CUSTOM)
_spec(name="dynamo-1.1.1-mocker", venv="dynamo-1.1.1-vllm", package="ai-dynamo", version="1.1.1",
      entrypoint=["python3", "-m", "dynamo.mocker"], prog="__main__.py",
      build=build_dynamo_mocker, custom_parsing=DYNAMO_PLAIN_CUSTOM)
# ai-dynamo 1.6.1: aisimulate (Dynamo's own requirement) is an empty stand-in wheel in both venvs,
# cuda-tile (sglang 0.5.21's pin; its real wheel provides `cuda.tile`) in the SGLang one (setup.sh);
# the vLLM venv has cuda-tile's real wheel (vllm 0.31.0 takes a released one).
DYNAMO_1_6_STANDINS = ("aisimulate", "aisimulate_core")
DYNAMO_1_6_SGLANG_STANDINS = DYNAMO_1_6_STANDINS + ("cuda.tile", "cuda_tile")
_spec(name="dynamo-1.6.1-vllm", venv="dynamo-1.6.1-vllm", package="ai-dynamo", version="1.6.1",
      entrypoint=["python3", "-m", "dynamo.vllm"], prog="__main__.py",
      build=watching_standins(build_dynamo_vllm, DYNAMO_1_6_STANDINS), custom_parsing=DYNAMO_VLLM_CUSTOM)
_spec(name="dynamo-1.6.1-sglang", venv="dynamo-1.6.1-sglang", package="ai-dynamo", version="1.6.1",
      entrypoint=["python3", "-m", "dynamo.sglang"], prog="__main__.py",
      build=watching_standins(build_dynamo_sglang, DYNAMO_1_6_SGLANG_STANDINS), custom_parsing=DYNAMO_SGLANG_CUSTOM)
_spec(name="dynamo-1.6.1-trtllm", venv="dynamo-1.6.1-vllm", package="ai-dynamo", version="1.6.1",
      entrypoint=["python3", "-m", "dynamo.trtllm"], prog="__main__.py",
      build=watching_standins(lambda: build_dynamo_trtllm("1.3.0rc29", llm_args=True), DYNAMO_1_6_STANDINS),
      custom_parsing=DYNAMO_PLAIN_CUSTOM)
_spec(name="dynamo-1.6.1-frontend", venv="dynamo-1.6.1-vllm", package="ai-dynamo", version="1.6.1",
      entrypoint=["python3", "-m", "dynamo.frontend"], prog="__main__.py",
      build=watching_standins(build_dynamo_frontend, DYNAMO_1_6_STANDINS), custom_parsing=DYNAMO_PLAIN_CUSTOM)
_spec(name="dynamo-1.6.1-mocker", venv="dynamo-1.6.1-vllm", package="ai-dynamo", version="1.6.1",
      entrypoint=["python3", "-m", "dynamo.mocker"], prog="__main__.py",
      build=watching_standins(build_dynamo_mocker, DYNAMO_1_6_STANDINS), custom_parsing=DYNAMO_PLAIN_CUSTOM)


def get_spec(name: str) -> Spec:
    if name not in SPECS:
        sys.exit(f"unknown parser '{name}'; known: {', '.join(SPECS)}")
    return SPECS[name]


# --------------------------------------------------------------------------
# JSON helpers.


def jsonable(v: Any) -> Any:
    """v if JSON can carry it as is; lists/tuples/dicts element-wise; enums
    by value; anything else repr()."""
    import enum

    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if v == v and v not in (float("inf"), float("-inf")) else repr(v)
    if isinstance(v, enum.Enum):
        return jsonable(v.value)
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        return {k: jsonable(x) for k, x in v.items()}
    return repr(v)


def is_plain_json(v: Any) -> bool:
    try:
        return json.loads(json.dumps(v)) == v and jsonable(v) == v
    except (TypeError, ValueError):
        return False


@contextlib.contextmanager
def quiet_stdout():
    """Engines log to stdout; keep the JSON channel clean by sending fd 1 to
    fd 2 for the duration, and hand back a writer for the real stdout."""
    sys.stdout.flush()
    real = os.dup(1)
    os.dup2(2, 1)
    saved = sys.stdout
    sys.stdout = sys.stderr
    out = io.TextIOWrapper(os.fdopen(real, "wb", buffering=0), encoding="utf-8", write_through=True)
    try:
        yield out
    finally:
        sys.stdout = saved


# --------------------------------------------------------------------------
# A stand-in snapshot per model id: Dynamo's workers resolve the model's local snapshot (and read
# its config.json) while they parse; with the Hub unreachable, each model id the corpus names gets
# a snapshot holding transformers' Qwen3Config defaults (architectures Qwen3ForCausalLM). Only the
# existence and the config are read by the parsers' checks, never weights.


def hf_snapshot_standin(argv) -> None:
    model = None
    for i, a in enumerate(argv):
        if a in ("--model", "--model-path") and i + 1 < len(argv):
            model = argv[i + 1]
        elif a.startswith("--model=") or a.startswith("--model-path="):
            model = a.split("=", 1)[1]
    if not model or model.startswith("/") or model.count("/") != 1:
        return
    root = os.environ.get("HF_HUB_CACHE")
    if not root:
        return
    repo = os.path.join(root, "models--" + model.replace("/", "--"))
    commit = "0" * 40
    snap = os.path.join(repo, "snapshots", commit)
    if os.path.exists(os.path.join(snap, "config.json")):
        return
    os.makedirs(snap, exist_ok=True)
    os.makedirs(os.path.join(repo, "refs"), exist_ok=True)
    with open(os.path.join(repo, "refs", "main"), "w") as f:
        f.write(commit)
    from transformers import Qwen3Config

    cfg = Qwen3Config().to_dict()
    cfg["architectures"] = ["Qwen3ForCausalLM"]
    with open(os.path.join(snap, "config.json"), "w") as f:
        json.dump(cfg, f)
