#!/usr/bin/python3
"""Boot-test runner for handoff.

    tests/boot/run.py [-j N] [-k PATTERN]... [-v] [--no-prepare] [--list] [--write-matrix PATH]

Discovers tests/boot/test_*.py and runs every function named test_* in them
(a test fails by raising; harness.qemu's expect* helpers attach the serial
log tail).
Tests run in parallel on a pool of N threads (default 2: each TCG guest wants
a core). -k keeps tests whose name ("module::function") matches the regex
PATTERN (repeatable, OR). A test decorated with @case.needs("build/x.efi")
FAILS if that file is missing: nothing is ever skipped.

Before running, tests/boot/prepare.sh is called (idempotent: kernel +
standard initramfs in build/boot-cache/) unless --no-prepare.

Output: one line per test, "PASS name (12.3s)" or "FAIL name (12.3s): reason"
(followed by indented detail lines), and finally exactly "N passed, N failed".
Exit status 1 if any test failed or none ran. A JSON summary goes to
build/boot-tests/results.json. Per-test files: build/boot-tests/<name>/.
"""
import argparse
import concurrent.futures
import importlib.util
import inspect
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
# tests/: the harness package; tests/boot: what the tests here share (measured.py, test_matrix.py)
sys.path[:0] = [os.path.dirname(HERE), HERE]
from harness import case, host, paths, qemu  # noqa: E402

ROOT = paths.ROOT
_print_lock = threading.Lock()


def discover():
    tests = []
    for fn in sorted(os.listdir(HERE)):
        if not (fn.startswith("test_") and fn.endswith(".py")):
            continue
        modname = fn[:-3]
        spec = importlib.util.spec_from_file_location(modname, os.path.join(HERE, fn))
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except Exception:
            err = traceback.format_exc()
            tests.append((modname + "::<import>", _import_failure(err)))
            continue
        funcs = [(name, f) for name, f in vars(mod).items()
                 if name.startswith("test_") and inspect.isfunction(f)
                 and f.__module__ == mod.__name__]
        funcs.sort(key=lambda nf: nf[1].__code__.co_firstlineno)
        tests += [("%s::%s" % (modname, name), f) for name, f in funcs]
    return tests


def _import_failure(err):
    def f():
        raise AssertionError("test module failed to import:\n" + err)
    return f


def safe_dirname(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", ".", name.replace("::", "."))


def run_one(name, fn):
    wd = os.path.join(paths.TESTS_OUT, safe_dirname(name))
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    case.set_test(name, wd)
    t0 = time.monotonic()
    missing = [p for p in getattr(fn, "needs", [])
               if not os.path.exists(os.path.join(ROOT, p))]
    if missing:
        return dict(name=name, ok=False, duration=0.0,
                    reason="required file missing: %s (build it first)" % ", ".join(missing),
                    detail="", notes=[], workdir=wd)
    try:
        fn()
        ok, reason, detail = True, "", ""
    except AssertionError as e:
        msg = str(e) or "assertion failed"
        first, _, rest = msg.partition("\n")
        if not str(e):
            rest = traceback.format_exc()
        ok, reason, detail = False, first, rest
    except host.HarnessError as e:
        ok, reason, detail = False, "harness: %s" % e, ""
    except Exception as e:
        ok, reason, detail = False, "%s: %s" % (type(e).__name__, e), traceback.format_exc()
    return dict(name=name, ok=ok, duration=time.monotonic() - t0, reason=reason,
                detail=detail, notes=case.notes(), workdir=wd,
                runs=[dict(log=r.log_path, duration=round(r.duration, 3),
                           exit_code=r.exit_code, timed_out=r.timed_out,
                           init_time=r.init_time) for r in case.results()])


def report(res, verbose):
    with _print_lock:
        if res["ok"]:
            line = "PASS %s (%.1fs)" % (res["name"], res["duration"])
            if verbose and res["notes"]:
                line += "  [%s]" % "; ".join(res["notes"])
            print(line, flush=True)
        else:
            print("FAIL %s (%.1fs): %s" % (res["name"], res["duration"], res["reason"]),
                  flush=True)
            detail = res["detail"].rstrip("\n")
            if detail:
                print("\n".join("    " + l for l in detail.splitlines()), flush=True)


def main():
    ap = argparse.ArgumentParser(description="handoff boot tests (QEMU + OVMF)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-k", action="append", default=[], metavar="PATTERN",
                    help="run tests whose name matches this regex (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="show test notes (timings)")
    ap.add_argument("--no-prepare", action="store_true", help="do not run prepare.sh")
    ap.add_argument("--list", action="store_true", help="list tests and exit")
    ap.add_argument("--write-matrix", metavar="PATH",
                    help="after the run, write the probe's compatibility matrix (test_matrix.py) to PATH")
    a = ap.parse_args()

    tests = discover()
    if a.k:
        pats = [re.compile(p) for p in a.k]
        tests = [(n, f) for n, f in tests if any(p.search(n) for p in pats)]
    if a.list:
        for n, _ in tests:
            print(n)
        return 0
    if not tests:
        print("no tests selected")
        print("0 passed, 0 failed")
        return 1

    if not a.no_prepare:
        p = subprocess.run([os.path.join(HERE, "prepare.sh")])
        if p.returncode != 0:
            print("FAIL prepare (0.0s): tests/boot/prepare.sh exited %d" % p.returncode)
            print("0 passed, %d failed" % len(tests))
            return 1

    def on_signal(signum, frame):
        qemu.kill_all()
        sys.stderr.write("interrupted\n")
        os._exit(130)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    os.makedirs(paths.TESTS_OUT, exist_ok=True)
    t0 = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(run_one, n, f) for n, f in tests]
        for fut in concurrent.futures.as_completed(futs):
            r = fut.result()
            results.append(r)
            report(r, a.verbose)
    passed = sum(1 for r in results if r["ok"])
    failed = len(results) - passed
    with open(os.path.join(paths.TESTS_OUT, "results.json"), "w") as f:
        json.dump(dict(passed=passed, failed=failed, wall=round(time.monotonic() - t0, 1),
                       tests=sorted(results, key=lambda r: r["name"])), f, indent=1)
    slow = sorted(results, key=lambda r: -r["duration"])[:8]
    print("time: %.0f s of tests in %.0f s; slowest: %s" % (
        sum(r["duration"] for r in results), time.monotonic() - t0,
        ", ".join("%s %.0fs" % (r["name"], r["duration"]) for r in slow)))
    if a.write_matrix:
        import test_matrix
        test_matrix.write_doc(a.write_matrix, results)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
