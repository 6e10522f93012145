#!/usr/bin/env bash
# Host unit tests of src/core (and the src/efi files that take their firmware
# tables as parameters) under ASan/UBSan.
exec build/unit-tests
