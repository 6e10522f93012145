"""The random seed for Linux (README "Random seed"): handoff reads
\\loader\\random-seed, mixes it with LoaderSystemToken, the firmware's RNG and
the monotonic counter, writes a new seed back to the ESP before it boots and
hands the kernel a LINUX_EFI_RANDOM_SEED_TABLE on every scheme.

Checked on the booted side: the probe finds the table in the system table (its
size, the digest of its bytes), on the stub, handover and legacy schemes (and
on 32-bit firmware); the seed file on the ESP afterwards is 32 new bytes, not
the kernel's seed and not the old one; a boot without seed file and without
an RNG (Debian's OVMF has an EFI_RNG_PROTOCOL only with a virtio-rng device)
still boots and passes no table; Linux entered at its 64-bit entry (no EFI stub to add its
own) lists the table in its "efi:" line (RNG=0x...)."""
import hashlib
import os

import test_matrix
import shutil

from harness import case, disk, esp, firmware, net, qemu, varstore
from harness.paths import INITRD, KERNEL, LOADER, LOADER32, PROBE

TIMEOUT = 240
OLD_SEED = bytes(range(0x40, 0x60)) + b"tail bytes that get zeroed"


def seed_file(img):
    """\\loader\\random-seed as the boot left it on the FAT image @img."""
    return disk.mtools("mcopy", img, "::/loader/random-seed", "-").stdout


RNG = ("-device", "virtio-rng-pci")  # OVMF's VirtioRngDxe: EFI_RNG_PROTOCOL (Debian's OVMF has none without it)


def probe_files(cell, protocol, loader=LOADER, arch="x64"):
    cmdline = test_matrix.marker_cmdline(cell)
    initrd, _, _ = test_matrix.make_initrd(cell)
    conf = "title probe\nlinux /probe.img\ninitrd /initrd.bin\noptions %s\nprotocol %s\n" % (cmdline, protocol)
    return {**esp.loader_files(loader, "timeout 0\n", arch), "probe.img": PROBE, "initrd.bin": initrd,
            "loader/entries/probe.conf": conf.encode()}


def boot_probe(cell, protocol, seed=OLD_SEED, ia32=False, extra_args=RNG, vars_file=None):
    """The probe booted by handoff by @protocol from an ESP holding @seed
    (None: no seed file); the result and the ESP image."""
    files = probe_files(cell, protocol, LOADER32 if ia32 else LOADER, "ia32" if ia32 else "x64")
    if seed is not None:
        files["loader/random-seed"] = seed
    img = esp.image(esp.tree(files))
    res = qemu.run_qemu(img, TIMEOUT, ia32=ia32, extra_args=extra_args, vars_file=vars_file)
    if res.probe is None:
        qemu.fail("no HANDOFF-PROBE line", res)
    qemu.expect_eq(res.probe.get("errors"), [], "probe errors", res)
    return res, img


def seed_passed(protocol, ia32=False):
    """The table is there, 32 bytes; the file holds 32 new bytes, then zeros
    where the old file was longer; neither seed is the other nor the old one."""
    res, img = boot_probe("seed-" + protocol, protocol, ia32=ia32)
    p = res.probe
    qemu.expect_eq(p.get("rng_seed"), 32, "size of the LINUX_EFI_RANDOM_SEED_TABLE the probe found", res)
    qemu.expect(res.time_of(r"handoff: random seed: passed$") is not None, "handoff says it passed a seed", res)
    new = seed_file(img)
    qemu.expect_eq(len(new), len(OLD_SEED), "the seed file keeps its size", res)
    qemu.expect_eq(new[32:], bytes(len(OLD_SEED) - 32), "the old file's tail is zeroed", res)
    qemu.expect(new[:32] != OLD_SEED[:32], "the seed file was rewritten", res)
    qemu.expect(p.get("rng_seed_sha256") not in (hashlib.sha256(new[:32]).hexdigest(),
                                                 hashlib.sha256(OLD_SEED[:32]).hexdigest()),
                "the kernel's seed is neither the new file's nor the old one", res)
    return p.get("rng_seed_sha256"), new[:32]


def check_passed(protocol):
    seed_passed(protocol)


case.each(globals(), check_passed, {
    "test_random_seed_stub": ("stub",),
    "test_random_seed_handover": ("handover",),
    "test_random_seed_legacy": ("legacy",),
}, needs=(LOADER, PROBE))


@case.needs(LOADER32, PROBE)
def test_random_seed_ia32_legacy():
    """32-bit firmware: the table in the IA-32 system table, found by the probe."""
    seed_passed("legacy", ia32=True)


@case.needs(LOADER, PROBE)
def test_random_seed_differs_across_boots():
    """The same ESP contents booted twice: the kernel gets another seed each time."""
    a, file_a = seed_passed("legacy")
    b, file_b = seed_passed("legacy")
    qemu.expect(a != b and file_a != file_b, "two boots from the same seed file got different seeds")


@case.needs(LOADER, PROBE)
def test_random_seed_no_file_no_rng_still_boots():
    """No seed file and no RNG (no virtio-rng device): no table, one line
    saying why, the probe boots all the same; no file created."""
    res, img = boot_probe("seed-none", "legacy", seed=None, extra_args=())
    qemu.expect("rng_seed" not in res.probe, "no seed table without file and RNG", res)
    qemu.expect(res.time_of(r"handoff: random seed: none passed \(no RNG, no LoaderSystemToken\)") is not None,
                "handoff says why no seed was passed", res)
    names = disk.fat_names(img, "/loader")
    qemu.expect("random-seed" not in names, "no seed file created without an RNG: %r" % names, res)


@case.needs(LOADER, PROBE)
def test_random_seed_created_from_the_rng():
    """No seed file, but the firmware's RNG: a table, and the file created."""
    res, img = boot_probe("seed-create", "handover", seed=None)
    qemu.expect_eq(res.probe.get("rng_seed"), 32, "seed table from the RNG alone", res)
    qemu.expect_eq(len(seed_file(img)), 32, "the seed file created on the ESP", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_random_seed_linux_legacy_sees_table():
    """Linux entered at its 64-bit entry (its EFI stub never runs, so only the
    loader can have put the table there) lists RNG=0x... among the tables in
    its "efi:" line (drivers/firmware/efi/efi.c common_tables)."""
    options = "console=ttyS0 handoff.marker=seed panic=-1"
    files = {"debian.conf": esp.entry("Debian", options, "legacy")}
    tree = esp.loader_tree(files, "timeout 0\n", files={"loader/random-seed": OLD_SEED})
    img = esp.image(tree)
    res = qemu.run_qemu(img, TIMEOUT, extra_args=RNG)
    qemu.expect_linux_saw(res, options)
    qemu.expect(res.time_of(r"efi: .*\bRNG=0x[0-9a-f]+") is not None, "the kernel's efi: line names RNG=", res)
    qemu.expect(seed_file(img)[:32] != OLD_SEED[:32], "the seed file was rewritten", res)


@case.needs(LOADER, PROBE)
def test_random_seed_token_and_file_without_rng():
    """No RNG, but LoaderSystemToken (put into the firmware's variable store)
    and the seed file: systemd-boot's rules pass a seed then, and the file is
    rewritten. The same without the token: no seed, the file untouched."""
    res, img = boot_probe("seed-notoken", "legacy", extra_args=())
    qemu.expect("rng_seed" not in res.probe, "no seed table from the file alone", res)
    qemu.expect(res.time_of(r"handoff: random seed: none passed \(no RNG, no LoaderSystemToken\)$") is not None,
                "handoff says why no seed was passed", res)
    qemu.expect_eq(seed_file(img), OLD_SEED, "the seed file untouched when it was not used", res)
    vars_file = os.path.join(case.workdir(), "VARS-token.fd")
    shutil.copyfile(firmware.ovmf("x64")[1], vars_file)
    varstore.add_variable(vars_file, "LoaderSystemToken", "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f", 7,
                          bytes(range(0x80, 0xa0)))
    res, img = boot_probe("seed-token", "legacy", extra_args=(), vars_file=vars_file)
    qemu.expect_eq(res.probe.get("rng_seed"), 32, "seed table from token and file", res)
    qemu.expect(res.time_of(r"handoff: random seed: passed$") is not None, "handoff says it passed a seed", res)
    qemu.expect(seed_file(img)[:32] != OLD_SEED[:32], "the seed file was rewritten", res)


@case.needs(LOADER, PROBE)
def test_random_seed_netboot_read_only():
    """A network boot: the server's tree is read-only, so its seed file is
    neither fetched nor written; the RNG's seed still reaches the kernel, and
    one line says why the file was not used."""
    tree = esp.tree({**probe_files("seed-net", "legacy"), "loader/random-seed": OLD_SEED,
                     "loader/entries.list": b"loader/entries/probe.conf\n"},
                    path=os.path.join(case.workdir(), "srv"))
    srv = net.Server(tree)
    res = qemu.run_qemu(None, TIMEOUT, net=net.http_args(srv) + list(RNG))
    if res.probe is None:
        qemu.fail("no HANDOFF-PROBE line", res)
    qemu.expect_eq(res.probe.get("rng_seed"), 32, "seed table from the RNG on a network boot", res)
    qemu.expect(res.time_of(r"handoff: random seed: passed; read-only medium, \\loader\\random-seed not used$")
                is not None, "handoff says the read-only medium's seed file was not used", res)
    qemu.expect("/loader/random-seed" not in net.gets(srv), "the seed file was not fetched: %r" % net.gets(srv), res)
