#!/usr/bin/env python3
"""Dump an engine's real argparse definition as JSON.

    scripts/engine-parsers/extract.py <venv-id> <parser-name> [--out FILE]

Writes test/fixtures/engine-parsers/<parser-name>.json (or FILE; '-' for
stdout). Re-executes itself with the venv's python (see setup.sh). The parser
is built as its entrypoint builds it (engines.py), with the GPU stand-ins.
Help texts are not copied, only the machine-readable definition.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines  # noqa: E402

REPO = os.path.dirname(os.path.dirname(engines.HERE))
FIXTURES = os.path.join(REPO, "test", "fixtures", "engine-parsers")

STOCK_ACTIONS = [
    ("_StoreTrueAction", "store_true"),
    ("_StoreFalseAction", "store_false"),
    ("_StoreConstAction", "store_const"),
    ("_AppendConstAction", "append_const"),
    ("_ExtendAction", "extend"),
    ("_AppendAction", "append"),
    ("_CountAction", "count"),
    ("_HelpAction", "help"),
    ("_VersionAction", "version"),
    ("BooleanOptionalAction", "boolean_optional"),
    ("_StoreAction", "store"),
]

PROBES = [
    "8", "0", "-1", "65536", "1.5", "1e3", "0x10", "auto", "1k", "1K", "2M", "1G", "1Ki",
    "true", "false", "True", "False", "TRUE", "1", "yes", "no", "on", "off", "t", "f", "y", "n",
    "none", "None", "null", "", "{}", "[]", '{"a": 1}', "[1, 2]", "abc", "a,b", "x=1",
]
BOOL_PROBES = ["true", "false", "True", "False", "TRUE", "FALSE", "1", "0", "yes", "no", "Yes",
               "No", "on", "off", "t", "f", "y", "n", "", "none", "abc"]


# Choices whose order the real parser does not fix: Dynamo takes its tool-call and
# reasoning parser names from its Rust core (dynamo._core.get_*_parser_names), a
# hash map whose order changes from one process to the next. Sorted here, so that
# the fixtures are stable; 'choicesUnordered' says so.
UNORDERED_CHOICE_DESTS = {"dyn_tool_call_parser", "dyn_reasoning_parser"}


def stock_name(action) -> tuple[str, str | None]:
    """(action kind, stock base for subclasses)."""
    cls = type(action)
    for name, kind in STOCK_ACTIONS:
        if cls.__name__ == name and cls.__module__ == "argparse":
            return kind, None
    for klass in cls.__mro__[1:]:
        if klass.__module__ == "argparse":
            for name, kind in STOCK_ACTIONS:
                if klass.__name__ == name:
                    return f"other:{cls.__name__}", kind
            if klass.__name__ == "Action":
                break
    return f"other:{cls.__name__}", None


def callable_name(t) -> str:
    """module.qualname; closures (vLLM's optional_type(int), parse_type(json.loads), ...)
    are named after the function that made them, with what they captured."""
    if isinstance(t, functools.partial):
        return f"partial({callable_name(t.func)})"
    mod = getattr(t, "__module__", "") or ""
    qual = getattr(t, "__qualname__", None) or getattr(t, "__name__", None) or type(t).__name__
    name = f"{mod}.{qual}" if mod and mod != "builtins" else qual
    if "<locals>" in qual:
        name = name.replace("<locals>.", "")
        captured = []
        for cell in getattr(t, "__closure__", None) or ():
            try:
                v = cell.cell_contents
            except ValueError:
                continue
            if isinstance(v, type) or callable(v):
                captured.append(callable_name(v))
        if captured:
            name += "(" + ", ".join(captured) + ")"
    return name


def short(v, limit=300):
    if isinstance(v, str) and len(v) > limit:
        return v[:limit] + "..."
    return v


class _Timeout(Exception):
    pass


def _alarm(_s, _f):
    raise _Timeout()


def probe(t, samples):
    ok, values = {}, {}
    for s in samples:
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(5)
        try:
            v = t(s)
            ok[s] = True
            values[s] = short(engines.jsonable(v))
        except _Timeout:
            ok[s] = False
            values[s] = "timeout"
        except BaseException:  # noqa: BLE001 - any raise = rejected (argparse turns
            ok[s] = False      # TypeError/ValueError/ArgumentTypeError into an error)
        finally:
            signal.alarm(0)
    return ok, values


def is_json_parser(t) -> bool:
    if t is json.loads:
        return True
    ok, values = probe(t, ['{"a": 1}', "[1, 2]", "abc", "{"])
    return ok['{"a": 1}'] and values['{"a": 1}'] == {"a": 1} and not ok["{"] and not ok["abc"]


def describe_type(t) -> dict:
    if t is None:
        return {"type": "str"}
    if t is str:
        return {"type": "str"}
    if t is int:
        d = {"type": "int"}
    elif t is float:
        d = {"type": "float"}
    elif t is json.loads:
        d = {"type": "json"}
    else:
        name = callable_name(t)
        bok, bvals = probe(t, BOOL_PROBES)
        to_bool = {s: bvals[s] for s in BOOL_PROBES if bok[s] and isinstance(bvals.get(s), bool)}
        if to_bool and ("true" in to_bool or "True" in to_bool) and len(to_bool) == sum(bok.values()):
            # boolStrings: the probe strings it accepts; boolStringValues: what each becomes.
            d = {"type": "bool", "typeName": name,
                 "boolStrings": [s for s in BOOL_PROBES if s in to_bool],
                 "boolStringValues": {s: to_bool[s] for s in BOOL_PROBES if s in to_bool}}
            if t is bool:
                d["accepts"] = ("Python's bool(): any string; '' is False and every other string, "
                                "'false' and '0' included, is True")
        elif is_json_parser(t):
            d = {"type": "json", "typeName": name}
        else:
            d = {"type": f"other:{name}"}
    ok, values = probe(t, PROBES)
    d["typeProbes"] = ok
    d["typeProbeValues"] = {s: values[s] for s in PROBES if ok[s]}
    if d["type"].startswith("other:"):
        d["accepts"] = describe_accepts(t, ok, values)
    return d


def describe_accepts(t, ok, values) -> str:
    acc = [s for s, v in ok.items() if v]
    rej = [s for s, v in ok.items() if not v]
    if not rej:
        return "any string (every probe accepted)"
    parts = []
    ints = all(ok[s] for s in ("8", "0", "-1"))
    if ints:
        parts.append("integers")
    if ok.get("1.5"):
        parts.append("decimals")
    if ok.get("auto"):
        parts.append("'auto'")
    if ok.get("1k") or ok.get("2M"):
        human = [s for s in ("1k", "1K", "2M", "1G", "1Ki") if ok.get(s)]
        parts.append("human-readable sizes (" + ", ".join(f"{s}->{values[s]}" for s in human) + ")")
    if ok.get("none") or ok.get("None") or ok.get("null") or ok.get(""):
        nn = [repr(s) for s in ("none", "None", "null", "") if ok.get(s)]
        parts.append("null-ish " + "/".join(nn) + " -> " + ", ".join(repr(values[s]) for s in ("none", "None", "null", "") if ok.get(s)))
    if ok.get("abc"):
        parts.append("arbitrary words")
    if ok.get("a,b"):
        parts.append("comma lists")
    if ok.get('{"a": 1}'):
        parts.append("JSON objects")
    return ("accepts " + ", ".join(parts) if parts else "accepts only: " + ", ".join(map(repr, acc))) + \
        "; rejects: " + ", ".join(map(repr, rej[:12])) + (" ..." if len(rej) > 12 else "")


def flag_key(action) -> str:
    longs = [s for s in action.option_strings if s.startswith("--")]
    return (longs or action.option_strings)[0]


def describe_default(action) -> dict:
    d = action.default
    if d is argparse.SUPPRESS:
        return {"default": None, "defaultSuppressed": True}
    if engines.is_plain_json(d):
        return {"default": d}
    return {"default": None, "defaultRepr": repr(d)}


def describe_choices(action):
    c = action.choices
    if c is None:
        return None
    if isinstance(c, dict):  # subparsers
        return sorted(c)
    if isinstance(c, (set, frozenset, type({}.keys()))):  # unordered: sort, for stable output
        return sorted((engines.jsonable(x) for x in c), key=lambda x: (str(type(x)), str(x)))
    try:
        return [engines.jsonable(x) for x in c]
    except TypeError:
        return repr(c)


def deprecated_actions() -> set:
    out = set()
    for mod in list(sys.modules.values()):
        fap = getattr(mod, "FlexibleArgumentParser", None)
        if isinstance(fap, type) and hasattr(fap, "_deprecated"):
            out |= {id(a) for a in fap._deprecated}
    return out


def describe_action(action, stage: str | None, deprecated: set, registered: dict | None = None) -> dict:
    kind, base = stock_name(action)
    out = {}
    if action.option_strings:
        # Every string the parser recognizes for the action: its option_strings, then any it keeps
        # registered but out of help (vLLM >= 0.2x's EnableDisableAction hides `--no-enable-x`).
        flags = list(action.option_strings)
        flags += [k for k, v in (registered or {}).items() if v is action and k not in flags]
        out["flags"] = flags
    negative = getattr(action, "negative_option_strings", None)
    if negative:
        # The strings that set the destination False (EnableDisableAction: `--disable-x`, `--no-x`).
        out["negativeFlags"] = sorted(negative)
    out["dest"] = action.dest
    out["action"] = kind
    if base:
        out["baseAction"] = base
    out["nargs"] = action.nargs
    out["const"] = engines.jsonable(action.const)
    out["choices"] = describe_choices(action)
    if action.dest in UNORDERED_CHOICE_DESTS and isinstance(out["choices"], list):
        out["choices"] = sorted(out["choices"], key=str)
        out["choicesUnordered"] = True
    if action.nargs == 0 and action.type is None:
        out["type"] = None  # takes no value
    else:
        out.update(describe_type(action.type))
    out.update(describe_default(action))
    out["required"] = bool(action.required)
    # Deprecated: in the parser's own set (vLLM's FlexibleArgumentParser), argparse's `deprecated`
    # (Python 3.13), or an action class of the engine's that says so (SGLang's and vLLM's
    # Deprecated*Action); SGLang's also name the replacement (`new_flag`).
    if id(action) in deprecated or getattr(action, "deprecated", False) or type(action).__name__.startswith("Deprecated"):
        out["deprecated"] = True
        replacement = getattr(action, "new_flag", None)
        if isinstance(replacement, str) and replacement:
            out["replacement"] = replacement
    if stage:
        out["stage"] = stage
    return out


def describe_parser(parser, stage: str | None, deprecated: set, seen: set):
    # vLLM >= 0.2x keeps the set on the parser instance, not the class.
    deprecated = deprecated | {id(a) for a in getattr(parser, "_deprecated", ())}
    positionals, options = [], []
    for a in parser._actions:
        if id(a) in seen:
            continue
        seen.add(id(a))
        d = describe_action(a, stage, deprecated, parser._option_string_actions)
        if a.option_strings:
            options.append(d)
        else:
            d.pop("required", None)
            positionals.append(d)
    mutex = []
    for g in parser._mutually_exclusive_groups:
        mutex.append([flag_key(a) if a.option_strings else a.dest for a in g._group_actions])
    return positionals, options, mutex


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("venv")
    ap.add_argument("parser")
    ap.add_argument("--out")
    a = ap.parse_args()
    spec = engines.get_spec(a.parser)
    if spec.venv != a.venv:
        sys.exit(f"{a.parser} lives in venv {spec.venv}, not {a.venv}")
    engines.ensure_venv(spec.venv)

    t0 = time.time()
    with engines.quiet_stdout() as out:
        sys.argv[0] = spec.prog
        built = spec.build()
        t_build = time.time() - t0
        deprecated = deprecated_actions()
        positionals, options, mutex = [], [], []
        seen: set = set()
        stages = built.stages
        for st in stages:
            p, o, m = describe_parser(st.parser, st.name if len(stages) > 1 else None, deprecated, seen)
            positionals += p
            options += o
            mutex += m
        first = stages[0].parser
        import importlib.metadata as md

        doc = {
            "parser": spec.name,
            "package": spec.package,
            "version": spec.version,
            "entrypoint": spec.entrypoint,
            "extractedWith": "scripts/engine-parsers/extract.py",
            "allowAbbrev": bool(first.allow_abbrev),
            "prefixChars": first.prefix_chars,
            "customParsing": spec.custom_parsing,
            "positionals": positionals,
            "options": options,
            "mutuallyExclusive": mutex,
        }
        if len(stages) > 1:
            doc["stages"] = [
                {"stage": st.name, "parserClass": type(st.parser).__name__,
                 "allowAbbrev": bool(st.parser.allow_abbrev), "prefixChars": st.parser.prefix_chars,
                 "addHelp": bool(getattr(st.parser, "add_help", True)),
                 "parse": "parse_known_args" if i == 0 else "parse_args"}
                for i, st in enumerate(stages)
            ]
        else:
            doc["parserClass"] = type(first).__name__
        doc["checks"] = built.checks
        if built.notes:
            doc["notes"] = built.notes
        versions = {}
        for dist in ("vllm", "sglang", "ai-dynamo", "ai-dynamo-runtime", "ray", "torch", "transformers",
                     "pydantic", "tensorrt-llm"):
            try:
                versions[dist] = md.version(dist)
            except md.PackageNotFoundError:
                pass
        doc["installed"] = versions
        doc["python"] = "%d.%d.%d" % sys.version_info[:3]
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        dest = a.out or os.path.join(FIXTURES, f"{spec.name}.json")
        if dest == "-":
            out.write(text)
        else:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "w", encoding="utf-8") as f:
                f.write(text)
        print(f"{spec.name}: {len(options)} options, {len(positionals)} positionals, "
              f"built in {t_build:.1f}s, total {time.time() - t0:.1f}s -> {dest}", file=sys.stderr)


if __name__ == "__main__":
    main()
