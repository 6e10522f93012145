#!/usr/bin/env bash
# The Debian package: contents, control fields, scripts, lintian (tests/deb/check.py).
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/deb/check.py
