"""UEFI HTTP Boot over IPv6 (issue 35) on an IPv6-only network: a network
namespace of the test's own (tests/harness/netns.py: a bridge holding
fd35::1/64, a tap, no route out, no IPv4 address anywhere), Debian's dnsmasq
sending router advertisements and answering DHCPv6 (RFC 8415) with an
address and, to a client of vendor class HTTPClient (enterprise 343, as
EDK II sends it), the boot file URL (RFC 5970 option 59) with a bracketed
IPv6 host, and Debian's nginx listening on [fd35::1]:80. The firmware has
PXE and IPv4 off, so its one network boot option is HTTP over IPv6; it waits
3 s before booting (QEMU's boot menu time): started at once, OVMF's HTTP
Boot over IPv6 fails within 10 ms with "Unexpected network error" before
sending anything, as its network stack has only just started (its
link-local address is not yet usable, RFC 4862 §5.4).

Checked: what Linux saw (the entry's options, the initrd's payload), that
handoff says it boots from the http://[fd35::1]/ URL and sets it as
LoaderDeviceURL, and that nginx served the firmware and then handoff every
file, once, to an address dnsmasq gave by DHCPv6.
"""
import os
import re

from harness import case, net, netns, qemu
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER
from test_netboot import net_tree

TIMEOUT = 300
# every network boot option failed, or handoff's menu is back (a failed boot; timeout 0 shows none)
STOP = r'BdsDxe: loading Boot[0-9A-F]{4} "EFI Internal Shell"|handoff [0-9.]+ boot menu'
SERVER = "fd35::1"      # inside the test's own namespace only
FIRMWARE_GET = "/EFI/BOOT/BOOTX64.EFI"
URL = "http://[%s]%s" % (SERVER, FIRMWARE_GET)
MAC = "52:54:00:35:06:01"
OPTIONS = "console=ttyS0 handoff.marker=ipv6 panic=-1"
# HTTP Boot over IPv6 only: no PXE, no IPv4 (its DHCPv4 would wait a minute for no answer)
FW_IPV6_HTTP = ["-fw_cfg", "name=opt/org.tianocore/IPv4PXESupport,string=no",
                "-fw_cfg", "name=opt/org.tianocore/IPv6PXESupport,string=no",
                "-fw_cfg", "name=opt/org.tianocore/IPv4Support,string=no"]
BOOT_WAIT = ["-boot", "menu=on,splash-time=3000"]  # ms: the network stack's start (above)


def dnsmasq_conf(wd):
    """Router advertisements and stateful DHCPv6 on the bridge; the boot URL
    and the vendor class only for HTTP Boot clients. RFC 8415 §21.16's vendor
    class is an enterprise number (4 bytes), then each class's length (2
    bytes) and bytes; dnsmasq writes each value of it as length and bytes,
    with no number before them, so the first value ("00": 00 02 30 30) takes
    the number's place; EDK II takes an answer whose class at byte 6 is
    HTTPClient, whatever the number."""
    conf = os.path.join(wd, "dnsmasq.conf")
    with open(conf, "w") as f:
        f.write("enable-ra\n"
                "dhcp-range=fd35::100,fd35::1ff,64,1h\n"
                "dhcp-vendorclass=set:http6,enterprise:343,HTTPClient\n"
                "dhcp-option=tag:http6,option6:bootfile-url,%s\n"
                "dhcp-option=tag:http6,option6:16,00,HTTPClient\n" % URL)
    return conf


def nginx_site(wd, tree):
    site = os.path.join(wd, "site.conf")
    with open(site, "w") as f:
        f.write("server {\n\tlisten [%s]:80;\n\troot %s;\n}\n" % (SERVER, tree))
    return site


def leased(wd):
    """The addresses dnsmasq's log says it gave (DHCPREPLY), in order. Not
    its lease file: the firmware releases its leases when Linux starts."""
    with open(os.path.join(wd, "dnsmasq.log")) as f:
        return [m.group(1) for m in re.finditer(r"DHCPREPLY\(%s\) (\S+) " % netns.BRIDGE, f.read())]


@case.needs(LOADER, KERNEL, INITRD)
def test_http_boot_ipv6_only_network():
    """HTTP Boot over IPv6 from dnsmasq (RA, DHCPv6) and nginx: handoff
    fetches its files from http://[fd35::1]/ through the firmware's HTTP
    client configured for IPv6, and Linux boots the entry."""
    wd = case.workdir()
    tree = net_tree({"debian.conf": entry("Debian", OPTIONS)})
    with netns.Netns("handoff-ipv6", SERVER, taps=1) as ns:
        ns.start_nginx(netns.nginx_conf(wd, nginx_site(wd, tree)))
        ns.start_dnsmasq(dnsmasq_conf(wd), wd, ports=(547,))
        res = qemu.run_qemu(None, TIMEOUT, prefix=ns.exec_prefix(), stop_on=STOP,
                            net=FW_IPV6_HTTP + ns.tap_args(0, MAC), extra_args=BOOT_WAIT)
    init = qemu.expect_linux_saw(res, OPTIONS)
    qemu.expect(res.time_of(r"handoff: network boot from %s$" % re.escape(URL)) is not None,
                "handoff says it boots from %s" % URL, res)
    qemu.expect_eq(net.bli_var(init, "LoaderDeviceURL"), URL, "LoaderDeviceURL", res)
    reqs = netns.requests(wd)
    client = reqs[0]["client"] if reqs else None
    qemu.expect(client in leased(wd), "nginx's client %s is an address dnsmasq leased: %r" % (client, leased(wd)),
                res)
    qemu.expect_eq([(r["client"], r["method"], r["path"], r["status"]) for r in reqs],
                   [(client, "HEAD", FIRMWARE_GET, 200)] +
                   [(client, "GET", p, 200) for p in
                    [FIRMWARE_GET, "/loader/entries.list", "/loader/loader.conf", "/loader/entries/debian.conf",
                     "/debian/vmlinuz", "/debian/initrd.img"]],
                   "nginx's log: the firmware's HEAD and GET of the loader, each of handoff's files once, "
                   "all to that address", res)
