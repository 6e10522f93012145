#!/usr/bin/env bash
# The EFI binaries: format, W^X, relocations, size budgets.
exec tests/tools/check_binaries.py
