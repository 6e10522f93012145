"""A fleet (issue 35): three QEMU machines boot at once from one server, as a
user sets it up from the README: the tree by `handoff install --netboot`
and `handoff entry add --pin`, served by Debian's own nginx and dnsmasq with
the examples install wrote beside the tree (nginx beside Debian's stock
default site, which also listens on port 80). All of it runs in a network
namespace the test makes (tests/harness/netns.py): a bridge, a tap per
machine, no route out.

The machines: x64 firmware by UEFI HTTP Boot (PXE off: dnsmasq answers its
client architecture 16 with the vendor class HTTPClient and the URL), x64
firmware by PXE (architecture 7: the boot file by dnsmasq's TFTP) and 32-bit
firmware by HTTP Boot (architecture 15). Each gets its own word through
SMBIOS (io.systemd.boot.kernel-cmdline-extra), so its Linux shows that it
booted the pinned entry, itself. nginx's log shows each HTTP machine's
requests (from the address dnsmasq gave it: each file once, all 200) and
none from the PXE machine; dnsmasq's log shows the PXE machine's files sent
by TFTP. The bytes and requests per boot go to the test's note.

Roles: entries.list gets two "host" lines naming loader/hosts/db.list, a
list of another entry (options with handoff.role=db, the same pinned kernel
and initrd), for the PXE machine and the IA-32 machine by their MAC
addresses (one written with ':', one with '-'); pinned from entries.list. Those
two boot the db entry, the HTTP x64 machine the one entry add wrote.
"""
import concurrent.futures
import hashlib
import os
import re

from harness import case, net, netns, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, LOADER32, TOOL, root_path

TIMEOUT = 420           # three TCG guests on two cores
NO_BOOT = r'BdsDxe: loading Boot[0-9A-F]{4} "EFI Internal Shell"'  # every network boot option failed
SERVER = "10.35.0.1"    # inside the test's own namespace only
RANGE = "10.35.0.100,10.35.0.200"
OPTIONS = "console=ttyS0 handoff.marker=fleet panic=-1"
ENTRY_FILES = ["/loader/entries/fleet-1.0.conf", "/fleet/1.0/linux", "/fleet/1.0/" + os.path.basename(INITRD)]
# name, MAC, 32-bit firmware, how it boots (the firmware's settings decide: net.py)
MACHINES = [
    ("http-x64", "52:54:00:35:00:01", False, "http"),
    ("pxe-x64", "52:54:00:35:00:02", False, "tftp"),
    ("http-ia32", "52:54:00:35:00:03", True, "http"),
]
DB_LIST = "/loader/hosts/db.list"
DB_ENTRY = "/loader/entries/db.conf"
DB_OPTIONS = OPTIONS + " handoff.role=db"
ROLES = {"pxe-x64": "52:54:00:35:00:02", "http-ia32": "52-54-00-35-00-03"}  # who gets DB_LIST, by MAC


def loader_path(ia32):
    return "/EFI/BOOT/BOOT%s.EFI" % ("IA32" if ia32 else "X64")


def server_tree(wd):
    """The tree as the README makes it; returns its path."""
    tree = os.path.join(wd, "srv")
    os.makedirs(tree)
    env = {"HANDOFF_CONF_DIR": os.path.join(wd, "etc-handoff")}
    tool.handoff("install", "--esp", tree, "--netboot", "--server", SERVER, "--dhcp-range", RANGE, env=env)
    tool.handoff("entry", "add", "--esp", tree, "--linux", root_path(KERNEL), "--initrd", root_path(INITRD),
                 "--entry-token", "fleet", "--version", "1.0", "--options", OPTIONS, "--pin", env=env)
    pins = [l.split()[2] for l in open(os.path.join(tree, "loader/entries.list")) if l.startswith("sha256 ")]
    qemu.expect_eq(pins, [p.lstrip("/") for p in ENTRY_FILES], "the pins entry add --pin wrote")
    add_db_role(tree)
    return tree


def add_db_role(tree):
    """The db role: its entry (not in entries.list's entry lines), its list, and host lines naming it."""
    fleet = open(tree + ENTRY_FILES[0]).read()
    with open(tree + DB_ENTRY, "w") as f:
        f.write(re.sub(r"(?m)^options\s.*$", "options " + DB_OPTIONS, fleet))
    qemu.expect_in("handoff.role=db", open(tree + DB_ENTRY).read(), "the db entry's options")
    os.makedirs(os.path.dirname(tree + DB_LIST))
    with open(tree + DB_LIST, "w") as f:
        f.write("# the db role\n%s\n" % DB_ENTRY.lstrip("/"))
    with open(tree + "/loader/entries.list", "a") as f:
        f.write("sha256 %s %s\n" % (hashlib.sha256(open(tree + DB_LIST, "rb").read()).hexdigest(),
                                    DB_LIST.lstrip("/")))
        for name, mac in ROLES.items():
            f.write("host %s %s\n" % (mac, DB_LIST.lstrip("/")))


def boot_all(ns, test, wd):
    """Starts the machines at once; their results, in MACHINES' order."""
    def boot(i):
        name, mac, ia32, how = MACHINES[i]
        case.set_test(test, wd)  # this thread's runs go to the test's directory
        fw = net.FW_NO_IPV6 + (net.FW_NO_PXE if how == "http" else [])
        smbios = ["-smbios", "type=11,value=io.systemd.boot.kernel-cmdline-extra=handoff.machine=" + name]
        return qemu.run_qemu(None, TIMEOUT, ia32=ia32, name=name, prefix=ns.exec_prefix(), stop_on=NO_BOOT,
                             net=fw + ns.tap_args(i, mac), extra_args=smbios)
    with concurrent.futures.ThreadPoolExecutor(len(MACHINES)) as pool:
        return list(pool.map(boot, range(len(MACHINES))))


def tftp_sent(wd, tree, client):
    """The files dnsmasq's log says it sent @client by TFTP, in order, each
    with whether the client stopped it (an error packet from the client
    logged just before: the size query the PXE base code ends after the
    server's tsize, RFC 2349)."""
    sent = re.compile(r"dnsmasq-tftp\[\d+\]: sent %s(/\S+) to %s$" % (re.escape(tree), re.escape(client)))
    stopped = re.compile(r"dnsmasq-tftp\[\d+\]: error \d+ .* received from %s$" % re.escape(client))
    out, stop = [], False
    with open(os.path.join(wd, "dnsmasq.log")) as f:
        for line in f:
            m = sent.search(line.rstrip("\n"))
            if m:
                out.append((m.group(1), stop))
            stop = bool(stopped.search(line.rstrip("\n"))) if not m else False
    return out


@case.needs(LOADER, LOADER32, KERNEL, INITRD, TOOL)
def test_fleet_three_machines_from_nginx_and_dnsmasq():
    """Three machines (HTTP Boot x64, PXE x64, HTTP Boot IA-32) at once from
    one nginx and dnsmasq configured by handoff install's examples: each
    reaches Linux with its role's entry's options (two of them the db role's,
    by their MAC addresses) and its own SMBIOS word, from the URL its
    firmware used; nginx served each HTTP machine each file once, TFTP the
    PXE machine."""
    wd = case.workdir()
    tree = server_tree(wd)
    with netns.Netns("handoff-fleet", SERVER, taps=len(MACHINES)) as ns:
        ns.start_nginx(netns.nginx_conf(wd, tree + ".nginx.conf"))
        ns.start_dnsmasq(tree + ".dnsmasq.conf", wd)
        results = boot_all(ns, case.current_test(), wd)
    leases, reqs = netns.leases(wd), netns.requests(wd)
    notes = []
    for (name, mac, ia32, how), res in zip(MACHINES, results):
        db = name in ROLES
        init = qemu.expect_linux_saw(res, (DB_OPTIONS if db else OPTIONS) + " handoff.machine=" + name)
        qemu.expect_eq("this machine's entries: loader/hosts/db.list" in res.serial_text, db,
                       "%s: the loader says it reads the db role's list" % name, res)
        qemu.expect_eq(init.get("fw_platform_size"), "32" if ia32 else "64", "%s: firmware word size" % name, res)
        client = leases.get(mac)
        qemu.expect(client is not None, "%s: dnsmasq leased %s an address: %r" % (name, mac, leases), res)
        qemu.expect_eq(net.bli_var(init, "LoaderDeviceURL"), "%s://%s%s" % (how, SERVER, loader_path(ia32)),
                       "%s: LoaderDeviceURL" % name, res)
        mine = [r for r in reqs if r["client"] == client]
        files = [loader_path(ia32), "/loader/entries.list"] + ([DB_LIST] if db else []) + \
            ["/loader/loader.conf", DB_ENTRY if db else ENTRY_FILES[0]] + ENTRY_FILES[1:]
        if how == "http":
            qemu.expect_eq([r["path"] for r in mine if r["method"] == "GET"], files,
                           "%s: the files nginx sent it, in order" % name, res)
            qemu.expect_eq([r["status"] for r in mine], [200] * len(mine), "%s: nginx's answers" % name, res)
            notes.append("%s %d requests %d bytes" % (name, len(mine), sum(r["bytes"] for r in mine)))
        else:
            qemu.expect_eq(mine, [], "%s: requests to nginx (it boots by TFTP)" % name, res)
            qemu.expect_eq(tftp_sent(wd, tree, client), [(f, q) for f in files for q in (True, False)],
                           "%s: the files dnsmasq sent it by TFTP (each: the size, then the file)" % name, res)
    case.note("; ".join(notes))
