#!/usr/bin/env bash
# ext2/3/4 driver against real images: builds them with mke2fs -d
# (tests/unit/ext4/mkimages.sh, skipped when up to date), then runs the
# ext4 unit tests (round trips of every image shape, symlinks, damaged
# images) under ASan/UBSan.
set -u
cd "$(dirname "$0")/../.."
start=$SECONDS
if ! tests/unit/ext4/mkimages.sh build/ext4-test; then
	echo "mkimages.sh failed"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "images ready in $((SECONDS - start))s"
HANDOFF_EXT4_IMAGES=build/ext4-test exec build/unit-tests test_ext4
