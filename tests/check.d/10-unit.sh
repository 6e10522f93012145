#!/usr/bin/env bash
# Host unit tests of src/core (and the src/efi files that take their firmware
# tables as parameters) under ASan/UBSan, each run and counted once. The ext4
# tests read images made by mke2fs -d (tests/unit/ext4/mkimages.sh, skipped
# when up to date), built first so that a failure to build them is reported
# as such.
set -u
cd "$(dirname "$0")/../.."
start=$SECONDS
if ! tests/unit/ext4/mkimages.sh build/ext4-test; then
	echo "mkimages.sh failed"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "ext4 images ready in $((SECONDS - start))s"
HANDOFF_EXT4_IMAGES=build/ext4-test exec build/unit-tests
