#!/usr/bin/python3
"""CLI tests of build/handoff: every command, every error path, checking
output and the files written. Values are checked against what these scripts
read themselves (struct over the image bytes, zlib.crc32 over the GPT, sfdisk,
sgdisk, mtools, debugfs), never against the tool's own earlier output.

    tests/cli/run.py [-k SUBSTRING] [--no-boot]

The tests live one module per command (cmd_*.py) and register themselves with
common.test; they run in the order listed below. Prints PASS/FAIL per test and
"N passed, N failed" last.
"""
import importlib
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]  # tests/: the harness package; tests/cli: the cmd_* modules

import common  # noqa: E402

MODULES = ("cmd_general", "cmd_inspect", "cmd_install", "cmd_netboot", "cmd_entry", "cmd_disk", "cmd_run",
           "cmd_images", "cmd_pcr", "cmd_new_user", "cmd_system", "cmd_utf8", "cmd_partitions", "cmd_addon",
           "cmd_counting", "cmd_signing", "cmd_keys", "cmd_password", "cmd_random_seed", "cmd_profiles")
BOOTS = ("cmd_run", "cmd_new_user")  # the modules --no-boot leaves out


def main():
    for name in MODULES:
        importlib.import_module(name)
    args = sys.argv[1:]
    only = args[args.index("-k") + 1] if "-k" in args else None
    no_boot = "--no-boot" in args
    passed = failed = 0
    for t in common.TESTS:
        if only and only not in t.__name__:
            continue
        if no_boot and t.__module__ in BOOTS:
            continue
        try:
            t()
            print(f"PASS {t.__name__}", flush=True)
            passed += 1
        except Exception:
            print(f"FAIL {t.__name__}", flush=True)
            traceback.print_exc()
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
