#!/usr/bin/env bash
# CLI tests of build/handoff (tests/cli/run.py): every command and error
# path, the malformed-image corpus, disk images checked with sfdisk/sgdisk/
# mtools/e2fsprogs, boots in QEMU, and the new-user workflow end to end.
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/cli/run.py "$@"
