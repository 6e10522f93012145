"""Network boot (issue 25): OVMF fetches handoff by UEFI HTTP Boot, HTTPS or
PXE/TFTP, and handoff fetches the rest from the same server: loader.conf,
loader/entries.list, the entries it names, the chosen kernel and initrd.

The HTTP(S) server is tests/helpers/httpserve.py behind QEMU's user network
(tests/harness/net.py): it logs every request, so each test checks exactly
which files were fetched, and it misbehaves on demand (404, a truncated body,
no answer). Each boot checks what Linux saw (HANDOFF-INIT), or the exact
error naming the URL with the menu back; LoaderDeviceURL says where handoff
came from and LoaderDevicePartUUID is not set. QEMU's own TFTP server keeps
no log: the TFTP tests check what Linux saw and the URL handoff reports.
The HTTP scheme tests run with a TPM and check PCR 4, 9 and 12 as the disk
tests do (measured_boot.py); 32-bit firmware boots by all three schemes over
HTTP and by TFTP.
"""
import hashlib
import os
import re

from measured_boot import check_measurements
from harness import case, esp, firmware, net, qemu, tool
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, LOADER32, STUB, root_path

TIMEOUT = 300
SHORT = 150             # where the loader is meant to refuse: a failure shows soon
MENU = r"handoff [0-9.]+ boot menu"
STARTS_GOOD = r"handoff: booting 'Good'"  # where a test that only checks the menu stops QEMU
URL = "http://%s" % net.SERVER_IP
FIRMWARE_GET = "/EFI/BOOT/BOOTX64.EFI"


def net_tree(entries, loader_conf="timeout 0\n", files=None, listed=None, list_extra="", **kw):
    """The server's root: an ESP-like tree (loader, loader.conf, entries, kernel,
    initrd, @files) and loader/entries.list naming @listed (default: every entry)."""
    listed = listed if listed is not None else ["loader/entries/" + n for n in sorted(entries)]
    text = "# entries on this server\n" + "".join(p + "\n" for p in listed) + list_extra
    files = {**(files or {}), "loader/entries.list": text.encode()}
    return esp.loader_tree(entries, loader_conf, files, path=os.path.join(case.workdir(), "srv"), **kw)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def kernel_changed():
    """Debian's kernel, and the same with one bit changed (what a pin refuses)."""
    kernel = open(root_path(KERNEL), "rb").read()
    changed = bytearray(kernel)
    changed[len(changed) // 2] ^= 1
    return kernel, bytes(changed)


def check_net_vars(res, init, url):
    """The Boot Loader Interface of a network boot, as Linux reads it."""
    qemu.expect_eq(net.bli_var(init, "LoaderDeviceURL"), url, "LoaderDeviceURL", res)
    qemu.expect_eq(init.get("loader", {}).get("LoaderDevicePartUUID"), "", "no LoaderDevicePartUUID", res)


def check_gets(res, server, want):
    qemu.expect_eq(net.gets(server), want, "the files the server was asked for, in order", res)


def http_scheme_test(protocol, counted):
    """Debian's kernel by @protocol over HTTP, with a TPM: the server sees the
    loader's GET (the firmware's), entries.list, loader.conf, the entry, the
    kernel and the initrd, once each, nothing else; PCR 4, 9 and 12 are those of
    a disk boot (the kernel's digest once in PCR 4, the log replays). A counted
    entry boots uncounted, with one warning (the server cannot rename it)."""
    options = "console=ttyS0 handoff.marker=net-%s panic=-1" % protocol
    name = "debian+3.conf" if counted else "debian.conf"
    srv = net.Server(net_tree({name: entry("Debian", options, protocol)}))
    res = qemu.run_qemu(None, TIMEOUT, net=net.http_args(srv), tpm=True)
    init = qemu.expect_linux_saw(res, options)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % protocol) is not None,
                "handoff says it boots by %s" % protocol, res)
    check_measurements(res, init, options, open(root_path(KERNEL), "rb").read(), [])
    qemu.expect_eq(init.get("loader", {}).get("HandoffBootScheme"), protocol, "HandoffBootScheme", res)
    check_net_vars(res, init, URL + FIRMWARE_GET)
    check_gets(res, srv, [FIRMWARE_GET, "/loader/entries.list", "/loader/loader.conf", "/loader/entries/" + name,
                          "/debian/vmlinuz", "/debian/initrd.img"])
    warnings = [l for _, l in res.lines if "booting without boot counting" in l]
    if counted:
        qemu.expect_eq(len(warnings), 1, "one warning for the counted entry, got %r" % warnings, res)
        qemu.expect_in("/loader/entries/debian+3.conf is on a read-only volume (network boot)", warnings[0],
                       "the warning names the entry file", res)
        qemu.expect(net.bli_var(init, "LoaderBootCountPath") is None, "no LoaderBootCountPath", res)
    else:
        qemu.expect_eq(warnings, [], "no boot counting warning", res)


case.each(globals(), http_scheme_test, {
    "test_net_http_stub_counted_entry": ("stub", True),
    "test_net_http_handover": ("handover", False),
    "test_net_http_legacy": ("legacy", False),
}, needs=(LOADER, KERNEL, INITRD))


@case.needs(LOADER, STUB, KERNEL, INITRD)
def test_net_http_uki_fetched_once():
    """A Type #2 UKI named by entries.list: read for the menu (its .osrel) and
    booted from the same download, so the server sends it once."""
    cmdline = "console=ttyS0 handoff.marker=net-uki panic=-1"
    uki = tool.uki(os.path.join(case.workdir(), "uki.efi"), KERNEL, INITRD, cmdline,
                   "ID=netuki\nPRETTY_NAME=\"Net UKI\"\n")
    srv = net.Server(net_tree({}, files={"EFI/Linux/net.efi": uki}, listed=["EFI/Linux/net.efi"]))
    res = qemu.run_qemu(None, TIMEOUT, net=net.http_args(srv))
    init = qemu.expect_linux_saw(res, cmdline)
    qemu.expect_eq(init.get("loader", {}).get("LoaderEntrySelected"), "net.efi", "LoaderEntrySelected", res)
    check_gets(res, srv, [FIRMWARE_GET, "/loader/entries.list", "/loader/loader.conf", "/EFI/Linux/net.efi"])


def tftp_test(arch, protocol):
    """PXE: the firmware TFTPs handoff; handoff TFTPs the rest from the server
    its DHCP answer named, with the tree's root before EFI/."""
    options = "console=ttyS0 handoff.marker=net-tftp-%s panic=-1" % arch
    boot_file = "EFI/BOOT/BOOT%s.EFI" % arch.upper()
    root = net_tree({"debian.conf": entry("Debian", options, protocol)},
                    **({"loader": LOADER32, "arch": "ia32"} if arch == "ia32" else {}))
    res = qemu.run_qemu(None, TIMEOUT, ia32=arch == "ia32", net=net.tftp_args(root, loader=boot_file))
    init = qemu.expect_linux_saw(res, options)
    check_net_vars(res, init, "tftp://%s/%s" % (net.SLIRP_TFTP_IP, boot_file))
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % protocol) is not None,
                "handoff boots by %s" % protocol, res)


case.each(globals(), tftp_test, {
    "test_net_tftp": ("x64", "stub"),
    "test_net_tftp_ia32": ("ia32", "handover"),
}, needs=(LOADER, LOADER32, KERNEL, INITRD))


def https_boot(tls, trusted_connections=None, options="x", stop_on=None, timeout=TIMEOUT):
    """An HTTPS boot of the tree; the same tree is served in plain HTTP on
    port 80 too, and every test checks that nothing asked for it: a
    downgrade would be answered (and logged) at once."""
    tree = net_tree({"debian.conf": entry("Debian", options)})
    srv = net.Server(tree, tls=tls.server_config(trusted_connections))
    plain = net.Server(tree, name="plain")
    disk = net.uriboot_disk("https://%s%s" % (net.SERVER_IP, FIRMWARE_GET))
    res = qemu.run_qemu(disk, timeout, interface="none",
                        net=net.https_args(srv, tls, plain=plain) + net.first_boot_disk_args(), stop_on=stop_on)
    qemu.expect_eq(plain.requests(), [], "requests in plain HTTP (a downgrade)", res)
    return srv, res


@case.needs(LOADER, KERNEL, INITRD)
def test_net_https():
    """HTTPS with the server's CA in the firmware's list: the loader came over
    TLS, so does every file after it."""
    options = "console=ttyS0 handoff.marker=net-https panic=-1"
    srv, res = https_boot(net.Tls(), options=options)
    init = qemu.expect_linux_saw(res, options)
    check_net_vars(res, init, "https://%s%s" % (net.SERVER_IP, FIRMWARE_GET))
    check_gets(res, srv, [FIRMWARE_GET, "/loader/entries.list", "/loader/loader.conf", "/loader/entries/debian.conf",
                          "/debian/vmlinuz", "/debian/initrd.img"])
    qemu.expect(all(r["tls"] for r in srv.requests()), "every request came over TLS", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_https_untrusted_certificate():
    """After the loader, the server presents a certificate from a CA the
    firmware does not trust: handoff's fetch fails closed, naming the URL;
    nothing is read over an unverified connection (the server logs the failed
    handshakes and no request after the loader's) nor over plain HTTP (the
    same tree on port 80 logs no request)."""
    srv, res = https_boot(net.Tls(), trusted_connections=1, stop_on=r"URIBOOT: the image did not start",
                          timeout=SHORT)
    qemu.expect(res.time_of(r"https://%s/loader/entries.list: no connection \(TLS: is the server's CA enrolled\?\)"
                            % net.SERVER_IP) is not None, "the refusal names the URL and TLS", res)
    qemu.expect(res.time_of(r"no boot entries") is not None,
                "handoff says it has nothing to boot", res)
    check_gets(res, srv, [FIRMWARE_GET])
    qemu.expect(any(r.get("tls_error") for r in srv.requests()), "the server saw failed TLS handshakes", res)
    qemu.expect(res.init is None, "Linux never started", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_errors_name_the_url_and_return_to_the_menu():
    """A missing initrd (404), a kernel that is not the one entries.list pins,
    a body cut short (Content-Length not reached) and a server that stops
    answering (NET_STALL_SEC): each error names the URL, the menu comes back
    by itself, and a good entry then boots."""
    good = "console=ttyS0 handoff.marker=net-after-errors panic=-1"
    kernel = open(root_path(KERNEL), "rb").read()
    changed = bytearray(kernel)
    changed[len(changed) // 2] ^= 1
    entries = {
        "a1.conf": entry("Missing initrd", "x", initrds=("/debian/missing.img",), sort_key="a1"),
        "a2.conf": entry("Pinned", "x", linux="/k/pinned", sort_key="a2"),
        "a3.conf": entry("Truncated", "x", linux="/k/truncated", sort_key="a3"),
        "a4.conf": entry("Stalled", "x", linux="/k/stalled", sort_key="a4"),
        "a5.conf": entry("Good", good, sort_key="a5"),
    }
    pin = "sha256 %s k/pinned\n" % hashlib.sha256(kernel).hexdigest()
    tree = net_tree(entries, "timeout menu-force\n", {"k/pinned": bytes(changed), "k/truncated": KERNEL,
                                                      "k/stalled": KERNEL}, list_extra=pin)
    srv = net.Server(tree, faults={"/k/truncated": "truncate", "/k/stalled": "stall"})
    errors = [
        "%s/debian/missing.img: HTTP status 404" % URL,
        "%s/k/pinned: SHA-256 %s is not the one entries.list pins: refused"
        % (URL, hashlib.sha256(changed).hexdigest()),
        "%s/k/truncated: the body ended after %d bytes" % (URL, len(kernel) // 2),
        "%s/k/stalled: no answer \\(timed out\\)" % URL,
    ]
    keys = [(MENU, b"1")] + [(r"Problems: [\s\S]*" + e, str(i + 2).encode(), 0.5) for i, e in enumerate(errors)]
    res = qemu.run_qemu(None, SHORT + 60, keys=keys, net=net.http_args(srv))  # four failures, a 15 s stall, a boot
    qemu.expect_eq(res.keys_pending, [], "the menu came back after every error", res)
    for e in errors:
        qemu.expect(res.time_of(r"handoff: error: entry '[^']+': " + e) is not None, "error %r" % e, res)
    qemu.expect_linux_saw(res, good)
    reqs = {r["path"]: r for r in srv.requests()}
    qemu.expect_eq(reqs.get("/debian/missing.img", {}).get("status"), 404, "the server answered 404", res)
    qemu.expect_eq(reqs.get("/k/truncated", {}).get("sent"), len(kernel) // 2, "half the body was sent", res)
    qemu.expect("/k/stalled" in reqs, "the stalled kernel was asked for", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_secureboot():
    """Secure Boot over HTTP: the firmware verifies the signed handoff it
    fetched; handoff verifies the bytes it fetched: an unsigned kernel is
    refused (menu back), the snakeoil-signed one boots."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    signed = firmware.sbsign(root_path(KERNEL), os.path.join(wd, "vmlinuz.signed"), key, cert)
    unsigned = os.path.join(wd, "vmlinuz.unsigned")
    with open(unsigned, "wb") as f:
        f.write(open(root_path(KERNEL), "rb").read())
    os.system("sbattach --remove %s >/dev/null 2>&1" % unsigned)
    loader = firmware.sbsign(root_path(LOADER), os.path.join(wd, "handoff.signed.efi"), key, cert)
    good = "console=ttyS0 handoff.marker=net-sb panic=-1"
    tree = net_tree({"a1.conf": entry("Unsigned", "x", linux="/k/unsigned", sort_key="a1"),
                     "a2.conf": entry("Signed", good, linux="/k/signed", sort_key="a2")},
                    "timeout menu-force\n", {"k/unsigned": unsigned, "k/signed": signed}, loader=loader)
    srv = net.Server(tree)
    res = qemu.run_qemu(None, SHORT, secure_boot=True, net=net.http_args(srv),
                        keys=[(MENU, b"1"), (r"Problems: [\s\S]*/k/unsigned: refused", b"2", 0.5)])
    qemu.expect_eq(res.keys_pending, [], "the menu came back after the refusal", res)
    qemu.expect(res.time_of(r"/k/unsigned: refused.*not signed, and its hash is not in db") is not None,
                "the unsigned kernel is refused with the reason", res)
    init = qemu.expect_linux_saw(res, good)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux sees Secure Boot on", res)
    qemu.expect(net.gets(srv).count("/k/unsigned") == 1 and "/k/signed" in net.gets(srv),
                "both kernels were fetched (the refusal is of the bytes read)", res)


def http_ia32_test(protocol, chunked=False):
    """32-bit firmware: handoffia32.efi by HTTP Boot, the same protocols with
    32-bit UINTN and pointers, boots Debian's kernel by @protocol; @chunked:
    with the kernel and initrd in chunked coding."""
    options = "console=ttyS0 handoff.marker=net-ia32-%s panic=-1" % protocol
    tree = net_tree({"debian.conf": entry("Debian", options, protocol)}, loader=LOADER32, arch="ia32")
    faults = {"/debian/vmlinuz": "chunked", "/debian/initrd.img": "chunked"} if chunked else {}
    srv = net.Server(tree, faults=faults)
    res = qemu.run_qemu(None, TIMEOUT, ia32=True, net=net.http_args(srv, loader="EFI/BOOT/BOOTIA32.EFI"))
    init = qemu.expect_linux_saw(res, options)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % protocol) is not None,
                "handoffia32 says it boots by %s" % protocol, res)
    qemu.expect_eq(init.get("bp_efi_sig"), "EL32", "boot_params.efi_info.efi_loader_signature", res)
    qemu.expect_eq(init.get("fw_platform_size"), "32", "/sys/firmware/efi/fw_platform_size", res)
    check_net_vars(res, init, URL + "/EFI/BOOT/BOOTIA32.EFI")
    check_gets(res, srv, ["/EFI/BOOT/BOOTIA32.EFI", "/loader/entries.list", "/loader/loader.conf",
                          "/loader/entries/debian.conf", "/debian/vmlinuz", "/debian/initrd.img"])
    qemu.expect_eq(sorted(r["path"] for r in srv.requests() if r.get("chunked")), sorted(faults),
                   "the answers sent chunked", res)


case.each(globals(), http_ia32_test, {
    "test_net_http_ia32_stub": ("stub",),
    "test_net_http_ia32": ("handover", True),
    "test_net_http_ia32_legacy": ("legacy",),
}, needs=(LOADER32, KERNEL, INITRD))


@case.needs(LOADER, KERNEL, INITRD)
def test_net_refused_pin_chosen_again():
    """The entry whose pinned kernel was refused, chosen again with Enter: the
    kernel is fetched again (the server sees a second request) and refused
    again, never taken from what the first refusal left in memory; then
    another entry boots."""
    good = "console=ttyS0 handoff.marker=net-pin-again panic=-1"
    kernel, changed = kernel_changed()
    entries = {"a1.conf": entry("Pinned", "x", linux="/k/pinned", sort_key="a1"),
               "a2.conf": entry("Good", good, sort_key="a2")}
    tree = net_tree(entries, "timeout menu-force\n", {"k/pinned": changed},
                    list_extra="sha256 %s k/pinned\n" % sha256(kernel))
    srv = net.Server(tree)
    refused = r"%s/k/pinned: SHA-256 %s is not the one entries.list pins: refused" % (URL, sha256(changed))
    problem = r"Problems: [\s\S]*" + refused
    res = qemu.run_qemu(None, SHORT, net=net.http_args(srv),
                        keys=[(MENU, b"\r"), (problem, b"\r", 0.5), (problem, b"2", 0.5)])
    qemu.expect_eq(res.keys_pending, [], "the menu came back with the refusal after each choice", res)
    qemu.expect_eq(len([l for _, l in res.lines if re.search(r"handoff: error: entry 'Pinned': " + refused, l)]), 2,
                   "two refusals of the pinned kernel", res)
    qemu.expect_eq(net.gets(srv).count("/k/pinned"), 2, "the server's requests for the pinned kernel", res)
    qemu.expect_linux_saw(res, good)


def bad_answer_test(fault, why):
    """An answer the loader cannot take for the kernel: @fault (httpserve.py)
    gives "the answer has @why", naming the URL, at once; the menu is back
    and another entry starts (QEMU is stopped there: what Linux sees after a
    refusal is test_net_errors_name_the_url_and_return_to_the_menu's)."""
    good = "console=ttyS0 handoff.marker=net-bad-answer panic=-1"
    entries = {"a1.conf": entry("Bad answer", "x", linux="/k/bad", sort_key="a1"),
               "a2.conf": entry("Good", good, sort_key="a2")}
    srv = net.Server(net_tree(entries, "timeout menu-force\n", {"k/bad": KERNEL}), faults={"/k/bad": fault})
    error = r"%s/k/bad: the answer has %s" % (URL, why)
    res = qemu.run_qemu(None, SHORT, net=net.http_args(srv), stop_on=STARTS_GOOD,
                        keys=[(MENU, b"1"), (r"Problems: [\s\S]*" + error, b"2", 0.5)])
    qemu.expect(res.time_of(r"handoff: error: entry 'Bad answer': " + error) is not None,
                "the refusal names the URL and the answer's fault", res)
    qemu.expect_eq(res.keys_pending, [], "the menu came back", res)
    qemu.expect_eq(net.gets(srv).count("/k/bad"), 1, "the server was asked for the kernel once", res)
    qemu.expect(res.stopped, "the other entry started", res)


case.each(globals(), bad_answer_test, {
    # RFC 9112 §6.3; OVMF's client frames the body by the first (httpserve.py: the body comes 2 s later)
    "test_net_two_content_lengths": ("two-lengths", "more than one Content-Length"),
    # a status OVMF cannot map reads as HTTP_STATUS_UNSUPPORTED_STATUS: never a 200
    "test_net_unknown_status": ("299", "an unknown HTTP status"),
}, needs=(LOADER, KERNEL, INITRD))

PIN_CONF = "sha256 %s loader/loader.conf\n" % sha256(b"timeout 0\n")
REFUSED = r"SHA-256 [0-9a-f]{64} is not the one entries.list pins: refused"
FAIL_CLOSED = {   # what is wrong: (loader.conf, extra entries, extra listed, entries.list lines, faults, error)
    "conf-differs": ("timeout 0\ndefault b*\n", {}, [], PIN_CONF, {}, "%s/loader/loader.conf: " % URL + REFUSED),
    "conf-missing": ("timeout 0\n", {}, [], PIN_CONF, {"/loader/loader.conf": "404"},
                     "%s/loader/loader.conf: HTTP status 404" % URL),
    "entry-missing": ("timeout 0\n", {}, ["loader/entries/b.conf"], "", {},
                      "%s/loader/entries/b.conf: HTTP status 404" % URL),
    "entry-refused": ("timeout 0\n", {"b.conf": entry("B", "x", sort_key="b")}, ["loader/entries/b.conf"],
                      "sha256 %s loader/entries/b.conf\n" % sha256(b"another entry\n"), {},
                      "%s/loader/entries/b.conf: " % URL + REFUSED),
    "line-refused": ("timeout 0\n", {}, [], "SHA256 %s debian/vmlinuz\n" % ("0" * 64), {},
                     r"loader/entries.list:3: 'SHA256 0+' is not an entry file"),
}


def fail_closed_test(what):
    """A file entries.list vouches for that cannot be had (@what: a pinned
    loader.conf that differs or is missing, a listed entry missing, a pinned
    entry refused) or a line of it refused: loader.conf says "timeout 0", yet
    the menu stays with the error and no countdown, and nothing boots until
    a key is pressed (seconds later); then the key's choice starts (QEMU is
    stopped there)."""
    conf, extra, listed, lines, faults, error = FAIL_CLOSED[what]
    good = "console=ttyS0 handoff.marker=net-fail-closed panic=-1"
    entries = {"a.conf": entry("Good", good, sort_key="a"), **extra}
    srv = net.Server(net_tree(entries, conf, listed=["loader/entries/a.conf"] + listed, list_extra=lines),
                     faults=faults)
    res = qemu.run_qemu(None, SHORT, net=net.http_args(srv), stop_on=STARTS_GOOD,
                        keys=[(r"Problems: [\s\S]*" + error, b"\r", 5)])
    qemu.expect_eq(res.keys_pending, [], "the menu shows the error (no automatic boot)", res)
    booting = res.time_of(STARTS_GOOD)
    qemu.expect(res.stopped and booting > res.keys_sent[0][0], "nothing booted before the key", res)
    qemu.expect("Boot in" not in res.serial_text, "no countdown", res)


case.each(globals(), fail_closed_test, {"test_net_fail_closed_" + k.replace("-", "_"): (k,) for k in FAIL_CLOSED},
          needs=(LOADER, KERNEL, INITRD))


def refusals_then_boot(srv, errors, good):
    """Entries 1, 2, ... chosen in turn from the menu: each fails with the
    error @errors[i] (a regex, after "URL: "), the menu comes back, and the
    entry after the last, a4 with options @good, boots. Returns the run."""
    keys = [(MENU, b"1")] + [(r"Problems: [\s\S]*" + e, str(i + 2).encode(), 0.5) for i, e in enumerate(errors)]
    res = qemu.run_qemu(None, SHORT + 60, keys=keys, net=net.http_args(srv))
    qemu.expect_eq(res.keys_pending, [], "the menu came back after every refusal", res)
    for e in errors:
        qemu.expect(res.time_of(r"handoff: error: entry '[^']+': " + e) is not None, "error %r" % e, res)
    init = qemu.expect_linux_saw(res, good)
    qemu.expect_eq(init.get("loader", {}).get("LoaderEntrySelected"), "a4", "LoaderEntrySelected", res)
    return res


@case.needs(LOADER, KERNEL, INITRD)
def test_net_redirects():
    """HTTP redirects (RFC 9110 §15.4) to the same scheme, host and port are
    followed, each logged (the URL, the status, where to), on one boot: a
    kernel by 301 then 307 (a path, then a relative reference with "..") and
    an initrd by 302 (an absolute URL) boot, and Linux sees the initrd's
    bytes. Refused by name, the menu back each time: a 302 to another host
    (never asked for), a 308 loop (the sixth redirect: the server is asked
    six times) and a 303 to bytes that are not those entries.list pins for
    the path asked for (the pin holds on the final bytes)."""
    good = "console=ttyS0 handoff.marker=net-redirects panic=-1"
    kernel, changed = kernel_changed()
    entries = {
        "a1.conf": entry("Other host", "x", linux="/r/other", sort_key="a1"),
        "a2.conf": entry("Loop", "x", linux="/r/loop", sort_key="a2"),
        "a3.conf": entry("Pinned", "x", linux="/r/pinned", sort_key="a3"),
        "a4.conf": entry("Good", good, linux="/r/k1", initrds=("/r/initrd",), sort_key="a4"),
    }
    faults = {"/r/other": "302 http://10.0.2.2/debian/vmlinuz", "/r/loop": "308 /r/loop",
              "/r/pinned": "303 /k/changed", "/r/k1": "301 /r/k2", "/r/k2": "307 ../debian/./vmlinuz",
              "/r/initrd": "302 %s/debian/initrd.img" % URL}
    tree = net_tree(entries, "timeout menu-force\n", {"k/changed": changed},
                    list_extra="sha256 %s r/pinned\n" % sha256(kernel))
    srv = net.Server(tree, faults=faults)
    errors = [
        r"%s/r/other: HTTP status 302 to http://10\.0\.2\.2/debian/vmlinuz: refused \(another host or port\)" % URL,
        r"%s/r/loop: HTTP status 308 to %s/r/loop: refused \(more than 5 redirects\)" % (URL, URL),
        r"%s/r/pinned: SHA-256 %s is not the one entries.list pins: refused" % (URL, sha256(changed)),
    ]
    res = refusals_then_boot(srv, errors, good)
    redirects = [l for _, l in res.lines if re.search(r"handoff: http://\S+: HTTP status 3\d\d to \S+\s*$", l)]
    want = ["%s/r/pinned: HTTP status 303 to %s/k/changed" % (URL, URL),
            "%s/r/k1: HTTP status 301 to %s/r/k2" % (URL, URL),
            "%s/r/k2: HTTP status 307 to %s/debian/vmlinuz" % (URL, URL),
            "%s/r/initrd: HTTP status 302 to %s/debian/initrd.img" % (URL, URL)]
    qemu.expect_eq([l.split("handoff: ", 1)[1].strip() for l in redirects],
                   ["%s/r/loop: HTTP status 308 to %s/r/loop" % (URL, URL)] * 5 + want,
                   "one line for each redirect followed, in order", res)
    gets = net.gets(srv)
    qemu.expect_eq(gets.count("/r/loop"), 6, "the server's requests for the loop", res)
    qemu.expect_eq(gets.count("/k/changed"), 1, "the pinned path's target was fetched (and refused)", res)
    qemu.expect_eq(gets[-5:], ["/r/k1", "/r/k2", "/debian/vmlinuz", "/r/initrd", "/debian/initrd.img"],
                   "the good entry's requests, following each redirect", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_chunked():
    """Answers in chunked coding (RFC 9112 §7.1, httpserve.py's "chunked":
    odd chunk sizes, extensions, a trailer), which the firmware's client
    hands over undecoded: entries.list, an entry, a pinned kernel and the
    initrd served so boot, and Linux sees the initrd's bytes. Refused by
    name, the menu back each time: an empty size line after the first chunk
    (the firmware's client takes it for the end), a body cut inside a chunk,
    and a chunked kernel whose decoded bytes are not the ones entries.list
    pins (the pin holds on the whole decoded body)."""
    good = "console=ttyS0 handoff.marker=net-chunked panic=-1"
    kernel, changed = kernel_changed()
    entries = {
        "a1.conf": entry("Bad chunk", "x", linux="/c/bad", sort_key="a1"),
        "a2.conf": entry("Cut", "x", linux="/c/cut", sort_key="a2"),
        "a3.conf": entry("Pinned", "x", linux="/c/changed", sort_key="a3"),
        "a4.conf": entry("Good", good, linux="/c/vmlinuz", initrds=("/c/initrd.img",), sort_key="a4"),
    }
    files = {"c/bad": KERNEL, "c/cut": KERNEL, "c/changed": changed, "c/vmlinuz": KERNEL, "c/initrd.img": INITRD}
    pins = "sha256 %s c/changed\nsha256 %s c/vmlinuz\n" % (sha256(kernel), sha256(kernel))
    tree = net_tree(entries, "timeout menu-force\n", files, list_extra=pins)
    faults = {"/loader/entries.list": "chunked", "/loader/entries/a4.conf": "chunked", "/c/bad": "badchunk",
              "/c/cut": "chunked-truncate", "/c/changed": "chunked", "/c/vmlinuz": "chunked",
              "/c/initrd.img": "chunked"}
    srv = net.Server(tree, faults=faults)
    errors = [
        r"%s/c/bad: the answer has a bad chunk size" % URL,
        r"%s/c/cut: the body ended after [0-9]+ bytes" % URL,
        r"%s/c/changed: SHA-256 %s is not the one entries.list pins: refused" % (URL, sha256(changed)),
    ]
    res = refusals_then_boot(srv, errors, good)
    reqs = srv.requests()
    chunked = sorted({r["path"] for r in reqs if r.get("chunked")})
    qemu.expect_eq(chunked, sorted(faults), "the answers sent chunked", res)
    sent = {r["path"]: r["sent"] for r in reqs}
    qemu.expect_eq(sent.get("/c/cut"), len(kernel) // 2, "half the kernel was sent before the cut", res)
    qemu.expect_eq(sent.get("/c/vmlinuz"), len(kernel), "the whole kernel was sent chunked", res)
    qemu.expect_eq(net.gets(srv).count("/c/bad"), 1, "the bad answer was asked for once", res)
