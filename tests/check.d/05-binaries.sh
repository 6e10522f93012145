#!/usr/bin/env bash
# The EFI binaries: format, W^X, relocations, size budgets.
exec tests/checks/check_binaries.py
