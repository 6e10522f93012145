#!/bin/bash
# tests/boot/mkinitramfs.sh OUT.cpio.gz [--pad-mib N]
#
# Builds the busybox initramfs for the boot tests (see tests/harness/initramfs.py for the
# layout and the /init script). Writes OUT and OUT.sha256 (the hex SHA-256 of
# /payload.bin inside it, one line), which the guest reports back as
# "payload_sha256" in its HANDOFF-INIT line.
#
# Without --pad-mib the archive is gzip -9. With --pad-mib N a further /pad.bin
# of N MiB incompressible data is added and the archive is written
# UNCOMPRESSED (the kernel detects the format by its magic, not by the name),
# so benchmarks measure the loader's I/O rather than gzip on TCG.
# Needs build/boot-cache/modules/efivarfs.ko (tests/boot/fetch-kernel.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ]; then
    echo "usage: $0 OUT.cpio.gz [--pad-mib N]" >&2
    exit 2
fi
exec /usr/bin/python3 "$here/../harness/initramfs.py" "$@"
