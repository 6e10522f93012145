"""Type #1 entries that name a UKI, as systemd-boot 257/258 reads them (UAPI.1):
`uki PATH` (any directory; the entry's title, options and boot counter),
`profile N` ("@N" first in the load options), `extra PATH` (credentials and
extension images, in cpio archives under /.extra) and `uki-url` (fetched by
the firmware's HTTP Boot from a disk boot, through a QEMU user network with
restrict=on that reaches only the test server).
"""
import hashlib
import os

import measured
import test_sidecars as sidecars
from harness import case, esp, net, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, PROBE, STUB, TOOL, root_path
from measured_boot import eventlog
from test_bootcount import bli

TIMEOUT = 300


def uki():
    """A UKI of handoff's stub with Debian's kernel and the test initramfs, no .cmdline."""
    return tool.uki(os.path.join(case.workdir(), "x.efi"), KERNEL, INITRD, None, 'PRETTY_NAME="Not this title"')


def boot(entries, files, net_args=None, tpm=False):
    tree = esp.loader_tree(entries, "timeout 0\n", files)
    if net_args is None:
        return qemu.run_qemu(esp.image(tree), TIMEOUT, tpm=tpm)
    return qemu.run_qemu(esp.image(tree), TIMEOUT, interface="none", net=net_args + net.first_boot_disk_args())


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_uki_entry_options_title_and_counter():
    """`uki /some/dir/x.efi`: the entry's title and options (the UKI has no
    .cmdline, so they are its command line), its counter counts the try."""
    options = "console=ttyS0 handoff.marker=uki-entry panic=-1"
    conf = "title Type1 UKI\nsort-key a\nuki /some/dir/x.efi\noptions %s\n" % options
    res = boot({"u+3.conf": conf}, {"some/dir/x.efi": uki()})
    v = bli(qemu.expect_linux_saw(res, options))
    qemu.expect(res.time_of(r"booting 'Type1 UKI' by stub") is not None, "booted as the entry's title", res)
    qemu.expect_eq(v.get("LoaderBootCountPath", "").rstrip("\0"), "\\loader\\entries\\u+2-1.conf",
                   "LoaderBootCountPath: the entry file, counted", res)


@case.needs(LOADER, PROBE)
def test_uki_entry_profile_first_in_load_options():
    """`profile 1`: the program (the probe, an EFI program that reports its
    LoadOptions as its command line) is handed "@1 OPTIONS", as systemd-boot
    hands a multi-profile UKI its profile."""
    options = "console=ttyS0 handoff.probe=uki-profile quiet"
    res = boot({"p.conf": "title P\nuki /probe.efi\nprofile 1\noptions %s\n" % options},
               {"probe.efi": root_path(PROBE)})
    p = res.probe
    if p is None:
        qemu.fail("no HANDOFF-PROBE line", res)
    qemu.expect_eq(p.get("cmdline"), "@1 " + options, "the load options the program got", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_uki_entry_extra_credential_and_sysext():
    """`extra`: a .cred in /.extra/credentials (0400, the directory 0500), a
    .sysext.raw in /.extra/sysext and a .confext.raw in /.extra/confext (0444,
    0555), as systemd-boot packs them; another suffix is left out. Each
    archive is measured after the command line as systemd-stub measures the
    same files beside a UKI: the credential's and the confext's into PCR 12,
    the sysext's into PCR 13, with systemd-stub's event descriptions."""
    options = "console=ttyS0 handoff.marker=uki-extra panic=-1"
    files = {"a.cred": b"a credential\n", "b.sysext.raw": hashlib.shake_256(b"sysext").digest(4099),
             "c.confext.raw": b"a confext image"}
    conf = ("title X\nuki /EFI/x.efi\noptions %s\nextra /c/a.cred\nextra /c/b.sysext.raw\nextra /c/other.txt\n"
            "extra /c/c.confext.raw\n" % options)
    tree = {"EFI/x.efi": uki(), "c/other.txt": b"x"}
    tree.update({"c/" + n: d for n, d in files.items()})
    res = boot({"x.conf": conf}, tree, tpm=True)
    init = qemu.expect_linux_saw(res, options)
    want = {}
    for target, dmode, fmode, name in (("credentials", "500", "400", "a.cred"),
                                       ("sysext", "555", "444", "b.sysext.raw"),
                                       ("confext", "555", "444", "c.confext.raw")):
        want[target + "/"] = {"mode": dmode}
        want["%s/%s" % (target, name)] = {"sha256": hashlib.sha256(files[name]).hexdigest(), "mode": fmode}
    qemu.expect_eq(init.get("dot_extra"), want, "/.extra: the entry's extras", res)
    qemu.expect(res.time_of(r"other.txt: extra: not .cred") is not None, "the other file said and left out", res)
    arch = {k[0]: hashlib.sha256(sidecars.archive(k[0], k[1], k[2], [n], files)).digest()
            for k, n in ((sidecars.KINDS[0], "a.cred"), (sidecars.KINDS[2], "b.sysext.raw"),
                         (sidecars.KINDS[3], "c.confext.raw"))}
    # The options as the loader hands them over (systemd-boot measures load
    # options), the archives, then the options as the UKI's stub takes them.
    line = hashlib.sha256(measured.utf16z(options)).digest()
    pcrs = init.get("pcr_sha256") or {}
    qemu.expect_eq(pcrs.get("12"), measured.chain([line, arch["credentials"], arch["confext"], line]).hex().upper(),
                   "PCR 12 = the options, the credential's and the confext's archives, the options", res)
    qemu.expect_eq(pcrs.get("13"), measured.chain([arch["sysext"]]).hex().upper(), "PCR 13 = the sysext's archive", res)
    events = measured.parse_event_log(eventlog(res) or b"")
    qemu.expect_eq([e[3] for e in events if e[0] in (12, 13) and e[1] == measured.EV_IPL][1:-1],
                   [measured.utf16z(d) for d in ("Credentials initrd", "System extension initrd",
                                                 "Configuration extension initrd")],
                   "the archives' events, described as systemd-stub does", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_uki_entry_url_from_a_disk_boot():
    """`uki-url`: from a disk boot, the UKI comes from the server by the
    firmware's HTTP Boot, and boots with the entry's options."""
    options = "console=ttyS0 handoff.marker=uki-url panic=-1"
    root = esp.tree({"EFI/Linux/net.efi": uki()}, os.path.join(case.workdir(), "srv"))
    srv = net.Server(root)
    conf = "title Net\nuki-url http://%s/EFI/Linux/net.efi\noptions %s\n" % (net.SERVER_IP, options)
    netdev = "user,id=n0,restrict=on,%s" % srv.guestfwd(80)
    res = boot({"n+3.conf": conf}, {}, net.FW_NO_IPV6 + net.FW_NO_PXE + ["-netdev", netdev] + net.NIC)
    v = bli(qemu.expect_linux_saw(res, options))
    qemu.expect_eq(net.gets(srv)[-1:], ["/EFI/Linux/net.efi"], "the UKI fetched from the server", res)
    qemu.expect("LoaderBootCountPath" not in v, "no boot counting for a UKI from the network (systemd-boot)", res)
