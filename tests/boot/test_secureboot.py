"""Secure Boot on every scheme, and measured boot (issue 13).

Firmware: Debian's Secure Boot OVMF with the snakeoil key enrolled (PK, KEK,
db). handoff.efi is signed with that key. Debian's kernel is signed by
Debian, which this db does not trust: that is the "signed by another key"
case; a copy re-signed with the snakeoil key is the good one. Each boot
checks what Linux saw (its SecureBoot variable, the command line, the
initrd's payload) and, with a TPM (swtpm), the PCRs it reads against the
values computed here from the entry's command line and initrd
(tests/boot/measured.py), and the firmware's event log replayed.
"""
import hashlib
import io
import os
import shutil
import subprocess

import measured
from measured_boot import check_measurements, eventlog
from harness import case, esp, firmware, initramfs, loaders, qemu, tool
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL, root_path

TIMEOUT = 300
SCHEMES = ("stub", "handover", "legacy")
MENU = r"handoff [0-9.]+ boot menu"


def kernels():
    """Signed (snakeoil), Debian's own (another key), unsigned, one byte changed, no PE header."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    orig = root_path(KERNEL)
    k = {"debian": open(orig, "rb").read()}
    unsigned = os.path.join(wd, "vmlinuz.unsigned")
    shutil.copyfile(orig, unsigned)
    subprocess.run(["sbattach", "--remove", unsigned], check=True, capture_output=True)
    k["unsigned"] = open(unsigned, "rb").read()
    signed = firmware.sbsign(orig, os.path.join(wd, "vmlinuz.signed"), key, cert)
    k["signed"] = open(signed, "rb").read()
    t = bytearray(k["signed"])
    t[len(t) // 2] ^= 0x01
    k["tampered"] = bytes(t)
    nope = bytearray(k["unsigned"])
    nope[0:2] = b"\0\0"             # no "MZ": still a bzImage, no longer a PE image
    k["nope"] = bytes(nope)
    return k


def signed_loader():
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    return firmware.sbsign(root_path(LOADER), os.path.join(wd, "handoff.signed.efi"), key, cert)


def sb_esp(entries, files, loader_conf="timeout 0\n"):
    return esp.image(esp.loader_tree(entries, loader_conf, files, loader=signed_loader()))


def measured_boots(secure_boot):
    """Every scheme with a TPM, with Secure Boot (the kernel signed with the
    snakeoil key) or without: PCRs 4, 9 and 12 as predicted, the log replays."""
    k = kernels()
    kernel = k["signed"] if secure_boot else k["debian"]
    pcr4s = []
    for scheme in SCHEMES:
        options = "console=ttyS0 handoff.marker=measured-%s panic=-1" % scheme
        files = {"debian/vmlinuz": kernel}
        if secure_boot:
            img = sb_esp({"debian.conf": entry("Debian", options, scheme)}, files)
        else:
            img = esp.image(esp.loader_tree({"debian.conf": entry("Debian", options, scheme)}, "timeout 0\n", files))
        res = qemu.run_qemu(img, TIMEOUT, name=scheme, secure_boot=secure_boot, tpm=True)
        init = qemu.expect_linux_saw(res, options)
        qemu.expect_eq(init.get("secureboot"), "1" if secure_boot else "0", "Linux's SecureBoot variable", res)
        # issue 21: by legacy nothing told the kernel, which then ran unlocked
        qemu.expect_eq(init.get("bp_secure_boot"), 3 if secure_boot else 2,
                       "boot_params.secure_boot (3 enabled, 2 disabled)", res)
        qemu.expect_eq(init.get("lockdown"), "integrity" if secure_boot else "none",
                       "/sys/kernel/security/lockdown of Debian's signed kernel", res)
        qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % scheme) is not None, "booted by %s" % scheme,
                    res)
        if secure_boot:
            qemu.expect(res.time_of(r"to be verified by the firmware \(db/dbx\)") is not None,
                        "handoff says the firmware verifies the kernel", res)
        check_measurements(res, init, options, kernel, pcr4s)
    qemu.expect(len(set(pcr4s)) == 1, "PCR 4 identical on all three schemes: %r" % pcr4s)


case.each(globals(), measured_boots, {"test_secureboot_signed_kernel_every_scheme_measured": (True,),
                                      "test_tpm_every_scheme_without_secure_boot": (False,)},
          needs=(LOADER, KERNEL, INITRD))


def refusals(scheme):
    """Unsigned, another key, one byte changed (and, by handover, no PE
    header at all): each refused with its reason, the menu back each time,
    then the signed kernel boots by the same scheme."""
    k = kernels()
    bad = [("unsigned", "not signed, and its hash is not in db"),
           ("debian", "signed by a key db does not trust, or changed after signing"),
           ("tampered", "signed by a key db does not trust, or changed after signing")]
    if scheme == "handover":
        bad.append(("nope", "bzImage without a PE/COFF header, so it carries no signature"))
    entries, files, keys = {}, {"debian/vmlinuz": k["signed"]}, [(MENU, b"1")]
    for i, (name, _) in enumerate(bad):
        entries["a%d.conf" % i] = entry("Bad %s" % name, "console=ttyS0", scheme, linux="/k/%s" % name,
                                        sort_key="a%d" % i)
        files["k/%s" % name] = k[name]
        # the menu comes back by itself with the cause under it; then the next entry
        keys.append((r"Problems: [\s\S]*/k/%s: refused" % name, str(i + 2).encode(), 0.5))
    good = "console=ttyS0 handoff.marker=sb-after-refusals panic=-1"
    entries["z.conf"] = entry("Good", good, scheme, sort_key="z")
    img = sb_esp(entries, files, "timeout menu-force\n")
    res = qemu.run_qemu(img, TIMEOUT, keys=keys, secure_boot=True)
    qemu.expect_eq(res.keys_pending, [], "all keys sent (the menu came back after every refusal)", res)
    for name, why in bad:
        rx = r"/k/%s: refused.*%s" % (name, why.replace("(", r"\(").replace(")", r"\)"))
        qemu.expect(res.time_of(rx) is not None, "refusal of %s names the file and the reason (%r)" % (name, why), res)
    qemu.expect(res.time_of(r"/k/(unsigned|debian|tampered): refused by Secure Boot: "
                            r".*\(EFI_(SECURITY_VIOLATION|ACCESS_DENIED): the platform policy forbids") is not None,
                "the firmware's status and its meaning are named", res)
    init = qemu.expect_linux_saw(res, good)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)
    starts = [t for t, line in res.lines if "Linux version" in line]
    last_refusal = max(res.time_of(r"/k/%s: refused" % n) for n, _ in bad)
    qemu.expect(len(starts) == 1 and starts[0] > last_refusal,
                "Linux started once, after the last refusal (never for a refused kernel): %r" % starts, res)


case.each(globals(), refusals, {"test_secureboot_refusals_" + s: (s,) for s in SCHEMES},
          needs=(LOADER, KERNEL, INITRD))


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_secureboot_signed_uki_measures_pcr11():
    """`handoff uki --sign-key --sign-cert`: sbverify accepts it; handoff
    boots it as a Type #2 entry under Secure Boot. Its Debian-signed kernel
    is not trusted by db on its own, so the stub boots the same (covered)
    bytes by handover (from the menu: planned so, the .initrd in place).
    PCR 11 has the sections as systemd-stub measures them, PCR 9 the
    .cmdline and .initrd."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    options = "console=ttyS0 handoff.marker=signed-uki panic=-1"
    uki = tool.uki(os.path.join(wd, "debian.efi"), KERNEL, INITRD, options, 'PRETTY_NAME="Signed UKI"', stub=None,
                   sign=(key, cert))
    v = subprocess.run(["sbverify", "--cert", cert, uki], capture_output=True, text=True)
    qemu.expect(v.returncode == 0, "sbverify accepts the signed UKI: %s" % (v.stderr or v.stdout))
    data = open(uki, "rb").read()
    img = esp.image(esp.loader_tree({}, "timeout 0\n", {"EFI/Linux/debian.efi": data}, loader=signed_loader()))
    res = qemu.run_qemu(img, TIMEOUT, secure_boot=True, tpm=True)
    init = qemu.expect_linux_saw(res, options)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)
    # From the menu the stub's path runs on handoff's buffer and plans handover up front (its
    # .initrd taken in place, docs/design.md "A UKI from the menu"): never by the firmware's LoadImage,
    # which would refuse the kernel on its own.
    qemu.expect(res.time_of(r"booting the embedded kernel by handover") is not None,
                "the stub boots the kernel by handover when the firmware does not trust it on its own", res)
    pcrs = init.get("pcr_sha256") or {}
    qemu.expect_eq(pcrs.get("11"), measured.uki_pcr11(data).hex().upper(), "PCR 11 = the UKI's sections", res)
    initrd = measured.section(data, ".initrd")   # the bytes handed over: the section, padding included
    qemu.expect_eq(pcrs.get("9"), measured.linux_stub_pcr9(options, initrd).hex().upper(),
                   "PCR 9 = .cmdline + .initrd as Linux's stub measures them", res)
    qemu.expect_eq(pcrs.get("12"), measured.ZERO.hex().upper(),
                   "PCR 12 untouched: the sealed .cmdline is no command line from outside", res)
    events = measured.parse_event_log(eventlog(res) or b"")
    qemu.expect_eq(measured.replay(events).get(11, measured.ZERO).hex().upper(), pcrs.get("11"),
                   "event log replays to PCR 11", res)
    # issue 21: refused by LoadImage and booted by handover, the kernel went unmeasured
    linux = measured.authenticode_sha256(measured.section(data, ".linux"))
    qemu.expect_eq(measured.pcr4_apps(events).count(linux), 1, "PCR 4 has the UKI's kernel once", res)
    qemu.expect_eq(measured.replay(events).get(4, measured.ZERO).hex().upper(), pcrs.get("4"),
                   "event log replays to PCR 4", res)
    qemu.expect_eq(init.get("lockdown"), "integrity", "the UKI's kernel is locked down", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_tpm_uki_measures_the_load_options_it_takes():
    """A UKI without .cmdline as a Type #1 entry with options (Secure Boot
    off): handoff.efi measures the options into PCR 12 as systemd-boot does,
    and handoff's stub, which takes them as LoadOptions, measures them once
    more as systemd-stub does (systemd-boot + systemd-stub leave the same)."""
    wd = case.workdir()
    options = "console=ttyS0 handoff.marker=uki-options panic=-1"
    uki = tool.uki(os.path.join(wd, "open.efi"), KERNEL, INITRD, None, 'PRETTY_NAME="Open UKI"')
    data = open(uki, "rb").read()
    text = entry("Open UKI", options, linux="/open.efi", initrds=())
    img = esp.image(esp.loader_tree({"open.conf": text}, "timeout 0\n", {"open.efi": data}))
    res = qemu.run_qemu(img, TIMEOUT, tpm=True)
    init = qemu.expect_linux_saw(res, options)
    pcrs = init.get("pcr_sha256") or {}
    digest = hashlib.sha256(measured.utf16z(options)).digest()
    qemu.expect_eq(pcrs.get("12"), measured.chain([digest, digest]).hex().upper(),
                   "PCR 12 = the options twice (loader, then the UKI's stub)", res)
    qemu.expect_eq(pcrs.get("11"), measured.uki_pcr11(data).hex().upper(), "PCR 11 = the UKI's sections", res)
    events = measured.parse_event_log(eventlog(res) or b"")
    qemu.expect_eq(measured.replay(events).get(12, measured.ZERO).hex().upper(), pcrs.get("12"),
                   "event log replays to PCR 12", res)
    apps = measured.pcr4_apps(events)
    qemu.expect_eq((apps.count(measured.authenticode_sha256(data)),
                    apps.count(measured.authenticode_sha256(measured.section(data, ".linux")))), (1, 1),
                   "PCR 4: the UKI once, its kernel once (LoadImage)", res)


def shim_esp(entries, loader_conf, files=None):
    """An ESP with Debian's shim (signed here with the snakeoil key) as the
    fallback loader and the signed handoff as its second stage (grubx64.efi)."""
    shim = loaders.need(loaders.SHIM)
    key, cert = firmware.snakeoil_key(case.workdir())
    signed_shim = firmware.sbsign(shim, os.path.join(case.workdir(), "shimx64.signed.efi"), key, cert)
    return esp.image(esp.loader_tree(entries, loader_conf, {**(files or {}), "EFI/BOOT/grubx64.efi": signed_loader()},
                                     loader=signed_shim))


@case.needs(LOADER, KERNEL, INITRD)
def test_secureboot_under_shim_verifies_by_shim_lock():
    """Debian's shim (shim-unsigned, signed here with the snakeoil key) starts
    handoff as its second stage (grubx64.efi: shim checks handoff's .sbat).
    handoff verifies kernels with SHIM_LOCK.Verify(): an unsigned kernel is
    refused by shim, by handover and by stub (there shim's LoadImage hook
    refuses it and Verify() names the reason); Debian's own kernel, which db
    does not trust but shim's built-in Debian certificate does (as a
    MOK-signed kernel would be), boots by handover. PCR 9 and 12 as
    predicted."""
    k = kernels()
    good = "console=ttyS0 handoff.marker=under-shim panic=-1"
    entries = {"a.conf": entry("Unsigned", "console=ttyS0", "handover", linux="/k/unsigned", sort_key="a"),
               "b.conf": entry("Unsigned by stub", "console=ttyS0", "stub", linux="/k/unsigned-stub", sort_key="b"),
               "c.conf": entry("Debian", good, "handover", sort_key="c")}
    img = shim_esp(entries, "timeout menu-force\n", {"k/unsigned": k["unsigned"], "k/unsigned-stub": k["unsigned"]})
    res = qemu.run_qemu(img, TIMEOUT, secure_boot=True, tpm=True,
                        keys=[(MENU, b"1"), (r"Problems: [\s\S]*/k/unsigned: refused by shim", b"2", 0.5),
                              (r"Problems: [\s\S]*/k/unsigned-stub: refused by shim", b"3", 0.5)])
    qemu.expect_eq(res.keys_pending, [], "the menu came back after each of shim's refusals", res)
    qemu.expect(res.time_of(r"/k/unsigned: refused by shim: EFI_") is not None, "shim's refusal is named", res)
    qemu.expect(res.time_of(r"/k/unsigned-stub: refused by shim: EFI_") is not None,
                "on the stub scheme too (shim's LoadImage refused, then shim's verdict asked)", res)
    qemu.expect(res.time_of(r"booting 'Debian' by handover .*to be verified by shim \(SHIM_LOCK\)") is not None,
                "handoff uses shim's verification", res)
    init = qemu.expect_linux_saw(res, good)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)
    pcrs = init.get("pcr_sha256") or {}
    initrd = open(root_path(INITRD), "rb").read()
    qemu.expect_eq(pcrs.get("9"), measured.linux_stub_pcr9(good, initrd).hex().upper(), "PCR 9 under shim", res)
    qemu.expect_eq(pcrs.get("12"), measured.options_pcr12(good).hex().upper(), "PCR 12 under shim", res)


def shim_boot(scheme):
    """Debian's kernel (trusted by shim's certificate, not by db) by @scheme,
    handoff as shim's second stage, nothing else tried first."""
    options = "console=ttyS0 handoff.marker=shim-%s panic=-1" % scheme
    img = shim_esp({"d.conf": entry("Debian", options, scheme)}, "timeout 0\n")
    res = qemu.run_qemu(img, TIMEOUT, name=scheme, secure_boot=True, tpm=True)
    init = qemu.expect_linux_saw(res, options)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)
    events = measured.parse_event_log(eventlog(res) or b"")
    kernel = measured.authenticode_sha256(open(root_path(KERNEL), "rb").read())
    apps = [e for e in events if e[0] == 4 and e[2].get(measured.TPM_ALG_SHA256) == kernel]
    return (init.get("pcr_sha256") or {}).get("4"), len(apps), res


@case.needs(LOADER, KERNEL, INITRD)
def test_secureboot_under_shim_pcr4_same_on_every_scheme():
    """Under shim, a shim-trusted kernel is measured into PCR 4 once,
    whichever scheme boots it (on the stub scheme by shim's LoadImage hook
    alone, no SHIM_LOCK.Verify() before it)."""
    got = {s: shim_boot(s) for s in SCHEMES}
    for s, (pcr4, n, res) in got.items():
        qemu.expect_eq(n, 1, "%s: the kernel's digest is in PCR 4's log once" % s, res)
    qemu.expect(len({pcr4 for pcr4, _, _ in got.values()}) == 1,
                "PCR 4 identical on the three schemes: %r" % {s: v[0] for s, v in got.items()})


def evil_initrd():
    """An unsigned cpio a hostile disk might add: if any loader's initrd got
    into the sealed UKI, the kernel would report this /extra.bin."""
    buf = io.BytesIO()
    c = initramfs.Cpio(buf)
    c.file("extra.bin", b"not signed by anyone\n")
    c.trailer()
    return buf.getvalue()


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_secureboot_sealed_uki_takes_no_outside_initrd():
    """issue 12: a signed UKI with .initrd and .cmdline, named by a Type #1
    entry that adds an unsigned initrd. systemd-boot (signed here) offers that
    initrd over LoadFile2 and in initrd=: handoff's stub hides it and says so
    once; handoff.efi does not offer it at all. Either way Linux sees only
    the UKI's own initrd. Also: under Secure Boot handoff's editor is off
    unless loader.conf says `editor yes`."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    options = "console=ttyS0 handoff.marker=sealed-uki panic=-1"
    uki = tool.uki(os.path.join(wd, "sealed.efi"), KERNEL, INITRD, options, stub=None, sign=(key, cert))
    conf = "title Sealed\nlinux /sealed.efi\ninitrd /evil.img\noptions console=ttyS0 rdinit=/bin/sh\n"
    files = {"sealed.efi": open(uki, "rb").read(), "evil.img": evil_initrd()}
    for loader in ("systemd-boot", "handoff"):
        if loader == "handoff":
            binary = signed_loader()
        else:
            binary = firmware.sbsign(loaders.need(loaders.SDBOOT), os.path.join(wd, "sdboot.signed.efi"), key, cert)
        tree = esp.loader_tree({"sealed.conf": conf}, "timeout 1\n", files, loader=binary)
        img = esp.image(tree, os.path.join(wd, "esp-%s.img" % loader))
        res = qemu.run_qemu(img, TIMEOUT, secure_boot=True, name=loader)
        init = qemu.expect_linux_saw(res, options)   # the UKI's .cmdline and its own initrd, intact
        qemu.expect_eq(init.get("secureboot"), "1", "%s: Linux's SecureBoot variable" % loader, res)
        qemu.expect_eq(init.get("extra_sha256"), "", "%s: the unsigned initrd never reached Linux" % loader, res)
        if loader == "handoff":
            qemu.expect(res.time_of(r"entry 'Sealed': initrd lines ignored: a unified kernel image takes no "
                                    r"initrd from the loader") is not None, "handoff says it ignores the initrd", res)
            menu = [l for _, l in res.lines if "Up/Down select" in l]
            qemu.expect(menu and not any("e edit" in l for l in menu),
                        "no editor under Secure Boot without 'editor yes', got %r" % menu[:1], res)
        else:
            qemu.expect_eq(sum(1 for _, l in res.lines if "the initrd offered by the loader is not used" in l), 1,
                           "the stub says once that it does not take systemd-boot's initrd", res)
