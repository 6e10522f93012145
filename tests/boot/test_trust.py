"""What Secure Boot and the TPM promise, where the firmware matters (issue 21).

- PCR 4 holds every kernel exactly once, also where LoadImage cannot measure
  it: a bzImage without a PE header (the SHA-256 of the file, measured by
  handoff) and a 64-bit kernel on 32-bit firmware (its Authenticode digest,
  measured by handoff through EFI_TCG2_PROTOCOL with PE_COFF_IMAGE: the value
  LoadImage would log). Each boot replays the firmware's event log to the PCRs
  Linux reads (measured.py).
- default @saved remembers only an entry whose kernel was accepted: a refused
  one never becomes LoaderEntryLastBooted.
- a sealed UKI whose stub cannot hide the loader's LoadFile2 initrd from its
  kernel does not boot (tests/helpers/efi_lf2_pin.c pins one).
"""
import hashlib
import os

import measured
import test_ia32
import test_secureboot as sb
from measured_boot import eventlog
from harness import case, esp, firmware, host, qemu, tool
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, LOADER32, STUB, TOOL, root_path

TIMEOUT = 300
MENU = r"handoff [0-9.]+ boot menu"


def check_pcr4_once(res, init, digest, what):
    """@digest is in PCR 4's log once, and the log replays to what Linux read for PCRs 4, 9 and 12."""
    pcrs = init.get("pcr_sha256") or {}
    events = measured.parse_event_log(eventlog(res) or b"")
    apps = measured.pcr4_apps(events)
    qemu.expect_eq(apps.count(digest), 1, "PCR 4 has %s once (EV_EFI_BOOT_SERVICES_APPLICATION)" % what, res)
    replayed = measured.replay(events)
    for i in ("4", "9", "12"):
        qemu.expect_eq(replayed.get(int(i), measured.ZERO).hex().upper(), pcrs.get(i),
                       "event log replays to PCR %s" % i, res)
    return pcrs


def bare_bzimage_measured(scheme):
    """Debian's kernel with its MZ header zeroed (a bzImage without a PE header:
    nothing LoadImage can load) by @scheme with a TPM, Secure Boot off: handoff
    puts the file's SHA-256 into PCR 4 before the kernel runs (it went
    unmeasured before issue 21); PCR 9 and 12 as ever."""
    kernel = bytearray(open(root_path(KERNEL), "rb").read())
    kernel[0:2] = b"\0\0"
    options = "console=ttyS0 handoff.marker=bare-%s panic=-1" % scheme
    img = esp.image(esp.loader_tree({"d.conf": entry("Debian", options, scheme)}, "timeout 0\n",
                                    {"debian/vmlinuz": bytes(kernel)}))
    res = qemu.run_qemu(img, TIMEOUT, name=scheme, tpm=True)
    init = qemu.expect_linux_saw(res, options)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % scheme) is not None, "booted by %s" % scheme, res)
    pcrs = check_pcr4_once(res, init, hashlib.sha256(kernel).digest(), "the file's SHA-256")
    initrd = open(root_path(INITRD), "rb").read()
    qemu.expect_eq(pcrs.get("9"), measured.linux_stub_pcr9(options, initrd).hex().upper(), "PCR 9", res)
    qemu.expect_eq(pcrs.get("12"), measured.options_pcr12(options).hex().upper(), "PCR 12", res)


case.each(globals(), bare_bzimage_measured,
          {"test_tpm_bzimage_without_pe_header_in_pcr4_by_" + s: (s,) for s in ("handover", "legacy")},
          needs=(LOADER, KERNEL, INITRD))


def ia32_measured(scheme):
    """handoffia32 on 32-bit OVMF with a TPM boots Debian's 64-bit kernel by
    @scheme: the kernel's Authenticode digest is in PCR 4 once, measured by
    handoff (a 32-bit firmware's LoadImage need not load it), equal to what
    the 64-bit firmware's LoadImage logs; boot_params.secure_boot says
    disabled (2) there too."""
    options = "console=ttyS0 handoff.marker=ia32-tpm-%s panic=-1" % scheme
    tree = test_ia32.esp32_tree(KERNEL, INITRD, {"debian.conf": entry("Debian", options, scheme)}, "timeout 0\n")
    res = qemu.run_qemu(esp.image(tree), TIMEOUT, ia32=True, tpm=True)
    test_ia32.check_mixed_mode_boot(res, INITRD, options, scheme, "debian")
    init = res.init or {}
    kernel = open(root_path(KERNEL), "rb").read()
    pcrs = check_pcr4_once(res, init, measured.authenticode_sha256(kernel), "the kernel's Authenticode digest")
    initrd = open(root_path(INITRD), "rb").read()
    qemu.expect_eq(pcrs.get("9"), measured.linux_stub_pcr9(options, initrd).hex().upper(), "PCR 9", res)
    qemu.expect_eq(pcrs.get("12"), measured.options_pcr12(options).hex().upper(), "PCR 12", res)
    qemu.expect_eq(init.get("bp_secure_boot"), 2, "boot_params.secure_boot: disabled", res)


case.each(globals(), ia32_measured, {"test_ia32_tpm_kernel_in_pcr4_once_by_" + s: (s,)
                                     for s in ("stub", "handover", "legacy")},
          needs=(LOADER32, KERNEL, INITRD))


@case.needs(LOADER, KERNEL, INITRD)
def test_secureboot_refused_entry_is_not_saved():
    """default @saved under Secure Boot: choosing an entry whose kernel is
    refused does not make it LoaderEntryLastBooted (before issue 21 it did,
    before the kernel was verified, and the next boot went straight back to
    the refused kernel). The next start highlights the first entry and boots it."""
    k = sb.kernels()
    good = "console=ttyS0 handoff.marker=saved-after-refusal panic=-1"
    entries = {"good.conf": entry("Good", good, sort_key="a"),
               "bad.conf": entry("Bad", "console=ttyS0", linux="/k/unsigned", sort_key="b")}
    img = sb.sb_esp(entries, {"debian/vmlinuz": k["signed"], "k/unsigned": k["unsigned"]},
                    "timeout menu-force\ndefault @saved\n")
    res = qemu.run_qemu(img, TIMEOUT, name="1-refused", secure_boot=True, keys=[(MENU, b"2")],
                        stop_on=r"/k/unsigned: refused by Secure Boot")
    qemu.expect(res.time_of(r"/k/unsigned: refused by Secure Boot") is not None, "the unsigned kernel is refused",
                res)
    res = qemu.run_qemu(img, TIMEOUT, name="2-saved", secure_boot=True, keys=[(MENU, b"\r")],
                        vars_file=os.path.join(res.run_dir, "OVMF_VARS.fd"))
    qemu.expect(res.time_of(r"> Bad") is None and res.time_of(r"> Good") is not None,
                "the menu highlights the first entry, not the refused one", res)
    init = qemu.expect_linux_saw(res, good)
    v = {k: bytes.fromhex(h).decode("utf-16-le").rstrip("\0") for k, h in init.get("bli_hex", {}).items()
         if k.startswith("LoaderEntry")}
    qemu.expect_eq(v.get("LoaderEntryLastBooted"), "good", "LoaderEntryLastBooted", res)


def pin_loader(initrd, key, cert):
    """tests/helpers/efi_lf2_pin.c built around @initrd, signed: a loader that
    offers @initrd by LoadFile2, pinned, and starts \\sealed.efi."""
    wd = case.workdir()
    with open(os.path.join(wd, "pin_initrd.h"), "w") as f:
        f.write("static const unsigned char pin_initrd[] = {%s};\n" % ",".join(str(b) for b in initrd))
    obj, efi = os.path.join(wd, "pin.o"), os.path.join(wd, "pin.efi")
    host.need_tool("lld-link", "lld")
    host.run(["clang", "-target", "x86_64-unknown-windows", "-std=gnu11", "-ffreestanding", "-fshort-wchar",
              "-mno-red-zone", "-mgeneral-regs-only", "-fno-stack-protector", "-fno-stack-check",
              "-mno-stack-arg-probe", "-fno-builtin", "-Os", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
              "-I" + root_path("include"), "-I" + wd, "-c", root_path("tests/helpers/efi_lf2_pin.c"), "-o", obj])
    host.run(["lld-link", "/nologo", "/machine:x64", "/subsystem:efi_application", "/entry:efi_main",
              "/nodefaultlib", "/debug:none", "/out:" + efi, obj])
    return firmware.sbsign(efi, os.path.join(wd, "pin.signed.efi"), key, cert)


@case.needs(TOOL, STUB, KERNEL, INITRD)
def test_secureboot_sealed_uki_refuses_an_initrd_it_cannot_hide():
    """A signed UKI with .initrd and .cmdline, started under Secure Boot by a
    loader whose LoadFile2 initrd cannot be unregistered: the stub would have
    said it does not use it and booted, and the kernel's EFI stub would have
    taken it (it prefers LoadFile2, on handover too). Now the UKI does not
    boot: the stub says why and returns to the loader; Linux never starts."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    options = "console=ttyS0 handoff.marker=pinned panic=-1"
    uki = tool.uki(os.path.join(wd, "sealed.efi"), KERNEL, INITRD, options, stub=None, sign=(key, cert))
    img = esp.image(esp.tree({"EFI/BOOT/BOOTX64.EFI": pin_loader(sb.evil_initrd(), key, cert),
                              "sealed.efi": open(uki, "rb").read()}))
    res = qemu.run_qemu(img, TIMEOUT, secure_boot=True, stop_on=r"HANDOFF-PIN returned|Linux version")
    qemu.expect(res.time_of(r"HANDOFF-PIN ok") is not None, "the pinned initrd is registered", res)
    qemu.expect(res.time_of(r"stub: Secure Boot: not booting this image, which carries its own \.initrd, with the "
                            r"loader's initrd in reach of its kernel") is not None, "the stub refuses, saying why",
                res)
    qemu.expect(res.time_of(r"initrd \(LoadFile2\) cannot be unregistered: EFI_[A-Z_]+") is not None,
                "the firmware's answer is named", res)
    qemu.expect(res.time_of(r"Linux version") is None, "Linux never started", res)
    qemu.expect(res.time_of(r"HANDOFF-PIN returned") is not None, "the stub returned to the loader", res)
