#!/usr/bin/env python3
"""Run an engine's REAL argument parser on argv lines; print its verdicts.

    scripts/engine-parsers/parse.py <parser-name> < cases.jsonl > verdicts.jsonl

Each input line: {"id": "...", "argv": ["--model", "x", ...]} (argv without
the program). Each output line, in input order:
    {"id", "accepted": bool, "error": str|null, "values": {dest: value}|null,
     "warnings": [logged warnings]}
'values' are JSON values, repr() for anything JSON cannot carry. The parser
is built once (see engines.py for how each entrypoint builds it and what
runs after argparse), then reused for every line. argparse's error() exits:
the SystemExit is caught and the message taken from what it wrote to stderr.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines  # noqa: E402


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records: list = []

    def emit(self, record):
        try:
            self.records.append(record.getMessage())
        except Exception:  # noqa: BLE001
            self.records.append(str(record.msg))


def _attach(handler) -> list:
    """Attach to the root logger and to every logger that does not propagate
    (vLLM's and SGLang's have their own handlers)."""
    attached = [logging.getLogger()]
    for name, lg in list(logging.Logger.manager.loggerDict.items()):
        if isinstance(lg, logging.Logger) and not lg.propagate:
            attached.append(lg)
    for lg in attached:
        lg.addHandler(handler)
    return attached


def error_text(stderr: str, code, logged: list) -> str:
    """argparse's own 'prog: error: ...' line when there is one; else the exit
    code with the last message the entrypoint logged or printed before
    sys.exit() (Dynamo's workers log 'Unrecognized argument: ...' and exit 1)."""
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
    for ln in reversed(lines):
        if ": error: " in ln:
            return ln.strip()
    if code == 0:
        return "exited 0 without an error (help or version was printed; the server would not start)"
    said = logged[-1] if logged else (lines[-1].strip() if lines else "")
    return f"SystemExit({code})" + (f": {said}" if said else "")


def run_one(built, argv, handler) -> dict:
    handler.records = []
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            engines.hf_snapshot_standin(list(argv))
            values = built.run(list(argv))
        return {"accepted": True, "error": None,
                "values": {k: engines.jsonable(v) for k, v in sorted(values.items())}}
    except SystemExit as e:
        return {"accepted": False, "error": error_text(err.getvalue(), e.code, handler.records), "values": None}
    except BaseException as e:  # noqa: BLE001 - post-parse validation raises anything
        if isinstance(e, KeyboardInterrupt):
            raise
        msg = str(e).strip()
        if not msg:  # a bare `assert`: say which one failed
            import traceback

            frame = traceback.extract_tb(e.__traceback__)[-1]
            msg = f"(no message) at {os.path.basename(frame.filename)}:{frame.lineno}: {frame.line}"
        return {"accepted": False, "error": f"{type(e).__name__}: {msg}", "values": None}


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    spec = engines.get_spec(sys.argv[1])
    engines.ensure_venv(spec.venv)
    t0 = time.time()
    with engines.quiet_stdout() as out:
        sys.argv[0] = spec.prog
        built = spec.build()
        t_built = time.time() - t0
        handler = _Capture()
        _attach(handler)
        n = 0
        t1 = time.time()
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            try:
                case = json.loads(line)
                argv = case["argv"]
                if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                    raise ValueError("argv must be a list of strings")
            except (ValueError, KeyError, TypeError) as e:
                res = {"id": None, "accepted": False, "error": f"bad input line: {e}", "values": None}
                out.write(json.dumps(res) + "\n")
                continue
            res = {"id": case.get("id")}
            res.update(run_one(built, argv, handler))
            res["warnings"] = handler.records
            out.write(json.dumps(res, ensure_ascii=False) + "\n")
            n += 1
        t2 = time.time()
        print(f"{spec.name}: built in {t_built:.1f}s; {n} lines in {t2 - t1:.2f}s"
              f" ({(t2 - t1) / max(n, 1) * 1000:.1f} ms/line)", file=sys.stderr)


if __name__ == "__main__":
    main()
