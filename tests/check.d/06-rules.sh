#!/usr/bin/env bash
# Code-base rules a grep can keep (style.md).
exec tests/tools/check_rules.py
