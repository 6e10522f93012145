#!/usr/bin/env bash
# Code-base rules a grep can keep (docs/style.md, docs/design.md "Layers").
exec tests/checks/check_rules.py
