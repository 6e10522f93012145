"""What the runner (tests/boot/run.py) and a test share: which test is
running, its output directory, its QEMU runs and notes; what files it needs;
and tests made from a table of cases. Per thread: run.py runs tests on a
pool of threads."""
import os
import threading

from . import paths

_ctx = threading.local()


def set_test(name, workdir):
    _ctx.name = name
    _ctx.workdir = workdir
    _ctx.results = []
    _ctx.notes = []


def current_test():
    return getattr(_ctx, "name", None)


def workdir():
    """This test's output directory (build/boot-tests/<test>/), created.
    Outside run.py: build/boot-tests/adhoc-<pid>/."""
    d = getattr(_ctx, "workdir", None)
    if d is None:
        set_test("adhoc-%d" % os.getpid(), os.path.join(paths.TESTS_OUT, "adhoc-%d" % os.getpid()))
        d = _ctx.workdir
    os.makedirs(d, exist_ok=True)
    return d


def record(result):
    """Keep a QEMU run's result (qemu.run_qemu does); returns how many runs the test has made."""
    workdir()
    _ctx.results.append(result)
    return len(_ctx.results)


def results():
    return list(getattr(_ctx, "results", []))


def note(text):
    """Attach a short note (e.g. a timing) to the current test's PASS line (run.py -v)."""
    workdir()
    _ctx.notes.append(text)


def notes():
    return list(getattr(_ctx, "notes", []))


def needs(*files):
    """Decorator: the test requires these files (relative to the repo root).

    run.py reports the test as FAILED (never skipped) when one is missing.
    """
    def deco(fn):
        fn.needs = list(getattr(fn, "needs", [])) + list(files)
        return fn
    return deco


def each(namespace, fn, table, needs=()):
    """One test per row of @table ({test name: the arguments of @fn}), put
    into @namespace (the module's globals(), where run.py collects test_*
    functions), each needing @needs and documented by @fn's docstring."""
    for name, args in table.items():
        def test(args=args):
            fn(*args)
        test.__name__ = test.__qualname__ = name
        test.__module__ = namespace["__name__"]
        test.__doc__ = fn.__doc__
        test.needs = list(needs)
        namespace[name] = test
