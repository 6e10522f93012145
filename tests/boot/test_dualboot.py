"""Dual boot (issue 33, README "Dual boot"): the automatic entries for other
loaders on the ESP, as systemd-boot names them, and reboot-for-bitlocker.

The other loaders are stand-ins built here (tests/helpers/efi_standin.c): a
tiny EFI application that prints "HANDOFF-STANDIN NAME from FILE" and powers
off, so the serial console tells whether it ran, and whether handoff started
it (handoff's "loading" line before it) or the firmware did (no handoff at
all in that run). `default auto-windows` and `default auto-efi-shell` start
them, a one-shot LoaderEntryOneShot in the variable store too, Linux reads
LoaderEntries with them after its own entry (and without them under
`auto-entries no`). The BitLocker disk is a GPT disk whose second partition
starts with BitLocker's signature; the test's own variable store holds a
Boot#### for handoff (first in BootOrder) and one for the stand-in
bootmgfw.efi, as Windows makes it. With reboot-for-bitlocker yes the loader
writes BootNext and resets (-no-reboot: QEMU exits); the next start, with
that variable store, the firmware runs the stand-in itself.
"""
import os
import struct

from harness import case, disk, esp, firmware, gpt, host, qemu, varstore
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, root_path

TIMEOUT = 240
LINUX = "console=ttyS0 handoff.marker=dualboot panic=-1"
WINDOWS = "EFI/Microsoft/Boot/bootmgfw.efi"
STANDIN = root_path("tests", "helpers", "efi_standin.c")
BITLOCKER_WARNING = r"BitLocker: chainloaded \((.*)\), so PCR 4 holds handoff"
BOOT_NEXT_LINE = r"BitLocker: the firmware starts Boot0080 after a reset \(BootNext\)"


def standin(name):
    """The stand-in EFI application saying @name, built with the project's toolchain."""
    d = case.workdir()
    obj, efi = os.path.join(d, name + ".o"), os.path.join(d, name + ".efi")
    host.run(["clang", "-target", "x86_64-unknown-windows", "-std=gnu11", "-ffreestanding", "-fshort-wchar",
              "-mno-red-zone", "-mgeneral-regs-only", "-fno-stack-protector", "-mno-stack-arg-probe", "-Os",
              "-Wall", "-Werror", "-I" + root_path("include"), "-DSTANDIN_NAME=u\"%s\"" % name, "-c", STANDIN,
              "-o", obj])
    host.run(["lld-link", "/nologo", "/machine:x64", "/subsystem:efi_application", "/entry:efi_main",
              "/nodefaultlib", "/debug:none", "/out:" + efi, obj])
    with open(efi, "rb") as f:
        return f.read()


def dual_tree(loader_conf):
    """An ESP: handoff as the fallback loader, a Debian entry, Windows Boot
    Manager and an EFI shell (stand-ins)."""
    return esp.loader_tree({"debian.conf": entry("Debian", LINUX)}, loader_conf,
                           {WINDOWS: standin("bootmgfw"), "shellx64.efi": standin("shell")})


def boot(loader_conf, vars_file=None, name=None):
    return qemu.run_qemu(esp.image(dual_tree(loader_conf)), TIMEOUT, vars_file=vars_file, name=name)


def expect_standin(res, name, path):
    """The stand-in @name ran, loaded from @path, after handoff said it loads it."""
    ran = res.time_of(r"HANDOFF-STANDIN %s from " % name)
    qemu.expect(ran is not None, "the stand-in %s ran" % name, res)
    qemu.expect_in("HANDOFF-STANDIN %s from %s" % (name, path), res.serial_text, "its file path", res)
    loading = res.time_of(r"loading %s" % path.replace("\\", "/"))
    qemu.expect(loading is not None and loading <= ran, "handoff loaded it first", res)
    qemu.expect(res.init is None, "Linux did not boot", res)


def loader_entries(res):
    """LoaderEntries as Linux read it: the ids in menu order."""
    qemu.expect_init(res)
    raw = bytes.fromhex((res.init.get("bli_hex") or {}).get("LoaderEntries", ""))
    return [e for e in raw.decode("utf-16-le").split("\0") if e]


@case.needs(LOADER, KERNEL, INITRD)
def test_default_auto_windows_starts_windows_boot_manager():
    """`default auto-windows`: the stand-in \\EFI\\Microsoft\\Boot\\bootmgfw.efi is started by handoff."""
    res = boot("timeout 0\ndefault auto-windows\n")
    expect_standin(res, "bootmgfw", "\\EFI\\Microsoft\\Boot\\bootmgfw.efi")
    qemu.expect(res.time_of(BITLOCKER_WARNING) is None, "no BitLocker warning without BitLocker", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_default_auto_efi_shell_starts_the_shell():
    """`default auto-efi-shell`: the stand-in \\shellx64.efi is started by handoff."""
    res = boot("timeout 0\ndefault auto-efi-shell\n")
    expect_standin(res, "shell", "\\shellx64.efi")


@case.needs(LOADER, KERNEL, INITRD)
def test_oneshot_auto_windows():
    """LoaderEntryOneShot=auto-windows (what `handoff set-oneshot auto-windows`
    writes) in the variable store starts Windows Boot Manager once, over
    loader.conf's default, and is gone afterwards."""
    vars_file = varstore.with_variables(firmware.ovmf("x64")[1], os.path.join(case.workdir(), "vars.fd"), {
        ("LoaderEntryOneShot", varstore.LOADER): (varstore.NV_BS_RT, "auto-windows\0".encode("utf-16-le"))})
    res = boot("timeout 0\ndefault debian\n", vars_file=vars_file)
    expect_standin(res, "bootmgfw", "\\EFI\\Microsoft\\Boot\\bootmgfw.efi")
    left = varstore.variables(os.path.join(res.run_dir, "OVMF_VARS.fd"))
    qemu.expect(("LoaderEntryOneShot", varstore.LOADER) not in left, "LoaderEntryOneShot was deleted", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_auto_entries_in_loader_entries():
    """Linux boots by default; LoaderEntries lists the other loaders after its
    entry, in systemd-boot's order, and not \\EFI\\BOOT\\BOOTX64.EFI: that is
    handoff itself."""
    res = boot("timeout 0\n")
    qemu.expect_linux_saw(res, LINUX)
    ids = loader_entries(res)
    qemu.expect_eq(ids[:3], ["debian", "auto-windows", "auto-efi-shell"], "LoaderEntries", res)
    qemu.expect("auto-efi-default" not in ids, "no auto-efi-default for handoff's own BOOTX64.EFI", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_auto_entries_no_hides_them():
    """`auto-entries no`: neither in LoaderEntries nor bootable as the default."""
    res = boot("timeout 0\nauto-entries no\n")
    qemu.expect_linux_saw(res, LINUX)
    qemu.expect_eq(loader_entries(res), ["debian"], "LoaderEntries", res)
    res = boot("timeout 0\nauto-entries no\ndefault auto-windows\n", name="default")
    qemu.expect_linux_saw(res, LINUX)
    qemu.expect(res.time_of("HANDOFF-STANDIN") is None, "no stand-in ran", res)


def bitlocker_setup(loader_conf):
    """A GPT disk: the ESP (dual_tree(@loader_conf)) and a data partition
    whose first sector carries BitLocker's signature ("-FVE-FS-" at byte 3);
    a variable store holding Boot0001 (handoff, first in BootOrder) and
    Boot0080 (Windows Boot Manager on the ESP, as Windows writes it).
    Returns (image, variable store)."""
    d = case.workdir()
    data = esp.tree({"README": b"not really a BitLocker volume\n"}, os.path.join(d, "data"))
    img = disk.gpt_disk(os.path.join(d, "disk.img"), dual_tree(loader_conf), data=data)
    part = gpt.partition(img, 2)
    with open(img, "r+b") as f:
        f.seek(part["first"] * gpt.SECTOR + 3)
        f.write(b"-FVE-FS-")
    e = gpt.partition(img, 1)
    hd = (1, e["first"], e["last"] - e["first"] + 1, e["guid"])
    boot_vars = {
        ("Boot0001", varstore.GLOBAL): (varstore.NV_BS_RT, varstore.load_option("handoff", "\\EFI\\BOOT\\BOOTX64.EFI",
                                                                                 hd)),
        ("Boot0080", varstore.GLOBAL): (varstore.NV_BS_RT, varstore.load_option(
            "Windows Boot Manager", "\\EFI\\Microsoft\\Boot\\bootmgfw.efi", hd) + b"WINDOWS\0"),
        ("BootOrder", varstore.GLOBAL): (varstore.NV_BS_RT, struct.pack("<HH", 0x0001, 0x0080)),
    }
    return img, varstore.with_variables(firmware.ovmf("x64")[1], os.path.join(d, "vars.fd"), boot_vars)


@case.needs(LOADER, KERNEL, INITRD)
def test_bitlocker_reboots_through_boot_next():
    """reboot-for-bitlocker yes, default auto-windows, a BitLocker partition:
    handoff sets BootNext to Boot0080 and resets, without starting the stand-in;
    the next start (the same variable store) the firmware runs it, no handoff."""
    img, vars_file = bitlocker_setup("timeout 0\ndefault auto-windows\nreboot-for-bitlocker yes\n")
    res = qemu.run_qemu(img, TIMEOUT, vars_file=vars_file, name="reset")
    qemu.expect(res.time_of(BOOT_NEXT_LINE) is not None, "handoff asks the firmware for Boot0080", res)
    qemu.expect(res.time_of("HANDOFF-STANDIN") is None, "the stand-in was not chainloaded", res)
    qemu.expect(not res.timed_out, "the machine reset (QEMU exits at once under -no-reboot)", res)
    after = os.path.join(res.run_dir, "OVMF_VARS.fd")
    boot_next = varstore.variables(after).get(("BootNext", varstore.GLOBAL))
    qemu.expect_eq(boot_next, (varstore.NV_BS_RT, b"\x80\x00"), "BootNext", res)
    res = qemu.run_qemu(img, TIMEOUT, vars_file=after, name="firmware")
    qemu.expect(res.time_of("HANDOFF-STANDIN bootmgfw from") is not None, "the firmware started the stand-in", res)
    qemu.expect(res.time_of(r"handoff [0-9.]+") is None and res.time_of("loading /EFI") is None,
                "handoff did not run before it", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_bitlocker_without_reboot_warns_and_chainloads():
    """reboot-for-bitlocker left at its default (no): Windows Boot Manager is
    chainloaded, after one warning naming PCR 4; BootNext is not written."""
    img, vars_file = bitlocker_setup("timeout 0\ndefault auto-windows\n")
    res = qemu.run_qemu(img, TIMEOUT, vars_file=vars_file)
    qemu.expect(res.time_of(BITLOCKER_WARNING + r".*recovery key") is not None, "the PCR 4 warning", res)
    qemu.expect_in("reboot-for-bitlocker is off", res.serial_text, "the reason", res)
    expect_standin(res, "bootmgfw", "\\EFI\\Microsoft\\Boot\\bootmgfw.efi")
    after = varstore.variables(os.path.join(res.run_dir, "OVMF_VARS.fd"))
    qemu.expect(("BootNext", varstore.GLOBAL) not in after, "no BootNext", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_secure_boot_verifies_windows_boot_manager():
    """Under Secure Boot (the snakeoil OVMF, handoff signed with its key) the
    firmware's LoadImage verifies auto-windows as any EFI program: an unsigned
    stand-in is refused, with the reason, and does not run; signed with a key
    in db it starts."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    loader = firmware.sbsign(root_path(LOADER), os.path.join(wd, "handoff.signed.efi"), key, cert)
    unsigned = os.path.join(wd, "bootmgfw.unsigned.efi")
    with open(unsigned, "wb") as f:
        f.write(standin("bootmgfw"))
    signed = firmware.sbsign(unsigned, os.path.join(wd, "bootmgfw.signed.efi"), key, cert)
    for name, app in (("unsigned", unsigned), ("signed", signed)):
        tree = esp.loader_tree({"debian.conf": entry("Debian", LINUX)}, "timeout 0\ndefault auto-windows\n",
                               {WINDOWS: app}, loader=loader)
        res = qemu.run_qemu(esp.image(tree), TIMEOUT, secure_boot=True, name=name,
                            stop_on=r"refused by Secure Boot")
        if name == "unsigned":
            qemu.expect(res.time_of(r"/EFI/Microsoft/Boot/bootmgfw.efi: refused by Secure Boot") is not None,
                        "the unsigned stand-in is refused by the firmware", res)
            qemu.expect(res.time_of("HANDOFF-STANDIN") is None, "it did not run", res)
        else:
            expect_standin(res, "bootmgfw", "\\EFI\\Microsoft\\Boot\\bootmgfw.efi")
