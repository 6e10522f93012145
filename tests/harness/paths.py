"""Where things are. Paths of the project's own files are relative to the
repository root, as @case.needs() takes and reports them; root_path() makes
them absolute (and leaves an absolute path as it is)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = "build/boot-cache"               # tests/boot/prepare.sh fills it
TESTS_OUT = os.path.join(ROOT, "build", "boot-tests")

LOADER = "build/handoff.efi"
LOADER32 = "build/handoffia32.efi"
LOADERAA64 = "build/handoffaa64.efi"
# The loaders and the stub are packed (docs/design.md "Packed loaders"): these
# are the images LOADER, LOADER32, LOADERAA64, STUB and STUBAA64 carry compressed and run.
LOADER_IMAGE = "build/efi/handoff-image.efi"
LOADER32_IMAGE = "build/efi32/handoffia32-image.efi"
LOADERAA64_IMAGE = "build/efiaa64/handoffaa64-image.efi"
STUB = "build/handoff-stub.efi"
STUB_IMAGE = "build/efi/handoff-stub-image.efi"
STUBAA64 = "build/handoff-stubaa64.efi"                 # the stub for AArch64 UKIs, and the image it carries
STUBAA64_IMAGE = "build/efiaa64/handoff-stub-image.efi"
TOOL = "build/handoff"
PROBE = "build/probe.img"
PROBE_BARE = "build/probe/probe-bare.img"
PROBE_NONRELOC = "build/probe/probe-nonreloc.img"   # relocatable_kernel 0, pref_address 1 MiB

# Debian's kernel and the test initramfs built for it (tests/boot/prepare.sh);
# K612: Debian's 6.12 kernel and its initramfs, for the mixed-mode tests.
KERNEL = CACHE + "/vmlinuz"
INITRD = CACHE + "/initramfs.cpio.gz"
K612 = (CACHE + "/k6.12/vmlinuz", CACHE + "/k6.12/initramfs.cpio.gz")
# Debian's arm64 kernel (an Image with a PE header) and its initramfs (busybox-static:arm64).
ARM64 = (CACHE + "/arm64/vmlinuz", CACHE + "/arm64/initramfs.cpio.gz")
# systemd-stub for arm64 (systemd-boot-efi:arm64, tests/boot/fetch-arm64.sh), a UKI stub handoff starts.
SDSTUBAA64 = CACHE + "/arm64/linuxaa64.efi.stub"


# The size budgets of the EFI binaries (docs/style.md rule 12), in bytes: what
# `make check` enforces (tests/checks/check_binaries.py) and what `make bench`
# reports against (bench/report.py). Each is half of its counterpart in
# systemd-boot 252 with every feature in (issue 22): systemd-bootx64.efi is
# 140,891 bytes, linuxx64.efi.stub 83,297; for AArch64 (issue 34), half of
# Debian 12's systemd-bootaa64.efi, 123,434 bytes, and of its
# linuxaa64.efi.stub, 74,196 (systemd-boot-efi:arm64 252.39-1~deb12u2). All
# meet theirs packed (docs/design.md "Packed loaders").
SIZE_BUDGETS = {LOADER: 70445, STUB: 41648, LOADER32: 70445, LOADERAA64: 61717, STUBAA64: 37098}


def root_path(*parts):
    return os.path.join(ROOT, *parts)
