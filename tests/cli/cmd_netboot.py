"""install --netboot's server examples (issue 35): TREE.nginx.conf and
TREE.dnsmasq.conf beside the tree, checked by Debian's own programs (`nginx
-t` beside Debian's stock default site, `dnsmasq --test`), nginx actually
serving the tree beside that default site (in a network namespace the test
makes: tests/harness/netns.py), the README's blocks being what install
writes, and when the examples are (re)written. tests/boot/test_fleet.py
boots three machines from them."""
import os
import subprocess

from common import Tmp, fails, h, need, ok, test, LOADER, LOADER32
from harness import netns
from harness.paths import ROOT

SERVER = "10.35.1.1"    # inside the test's own namespace only


def install(srv, *opts):
    return ok(h("install", "--esp", srv, "--netboot", *opts, env={"HANDOFF_CONF_DIR": srv + ".none"}))


def read(path):
    with open(path) as f:
        return f.read()


def lines(path):
    return [l for l in read(path).splitlines() if l and not l.startswith("#")]


def dnsmasq_lines(tree, server, first, last, arches=("64", "32")):
    """What the dnsmasq example must say, written here from the README's table."""
    archs = {"64": (16, 7, "BOOTX64.EFI"), "32": (15, 6, "BOOTIA32.EFI")}
    out = ["dhcp-range=%s,%s,12h" % (first, last)]
    for a in arches:
        out += ["dhcp-match=set:http%s,option:client-arch,%d" % (a, archs[a][0]),
                "dhcp-option-force=tag:http%s,60,HTTPClient" % a,
                "dhcp-boot=tag:http%s,http://%s/EFI/BOOT/%s" % (a, server, archs[a][2])]
    out += ["enable-tftp", "tftp-root=" + tree]
    for a in arches:
        out += ["dhcp-match=set:pxe%s,option:client-arch,%d" % (a, archs[a][1]),
                "dhcp-boot=tag:pxe%s,EFI/BOOT/%s" % (a, archs[a][2])]
    return out


@test
def netboot_examples_checked_by_nginx_and_dnsmasq():
    """The examples beside the tree name its real path and the addresses
    given; Debian's nginx accepts the site beside its stock default site
    (nginx -t) and dnsmasq its file (dnsmasq --test). A site listening on
    every address, the README's old one-liner made default_server, is
    refused there: the check sees the clash."""
    need(LOADER, LOADER32)
    with Tmp() as tmp:
        srv = os.path.join(tmp, "srv")
        os.mkdir(srv)
        r = install(os.path.join(tmp, ".", "srv"), "--server", SERVER, "--dhcp-range", "10.35.1.50,10.35.1.60")
        site, dhcp = srv + ".nginx.conf", srv + ".dnsmasq.conf"
        assert ("created %s\ncreated %s\n" % (site, dhcp)).encode() in r.stdout, r.stdout
        assert lines(site) == ["server {", "\tlisten %s:80;" % SERVER, "\troot %s;" % srv, "}"], read(site)
        assert lines(dhcp) == dnsmasq_lines(srv, SERVER, "10.35.1.50", "10.35.1.60"), read(dhcp)
        assert sorted(os.listdir(tmp)) == ["srv", "srv.dnsmasq.conf", "srv.nginx.conf"], os.listdir(tmp)
        t = subprocess.run(["dnsmasq", "--test", "-C", dhcp], capture_output=True, text=True)
        assert t.returncode == 0 and "syntax check OK" in t.stderr, t.stderr
        conf = netns.nginx_conf(tmp, site)
        t = subprocess.run(["nginx", "-t", "-c", conf, "-p", tmp + "/"], capture_output=True, text=True)
        assert t.returncode == 0 and "test is successful" in t.stderr, t.stderr
        with open(site, "w") as f:
            f.write("server { listen 80 default_server; root %s; }\n" % srv)
        t = subprocess.run(["nginx", "-t", "-c", conf, "-p", tmp + "/"], capture_output=True, text=True)
        assert t.returncode != 0 and "duplicate default server" in t.stderr, t.stderr


@test
def netboot_nginx_serves_the_tree_beside_debians_default_site():
    """Debian's nginx, its stock default site (listen 80 default_server)
    and the example, in a network namespace holding the server's address:
    the tree's files come from the example's root, byte for byte; the
    default site still answers other addresses (404 for the same path)."""
    need(LOADER, LOADER32)
    with Tmp() as tmp:
        srv = os.path.join(tmp, "srv")
        os.mkdir(srv)
        install(srv, "--server", SERVER)
        conf = netns.nginx_conf(tmp, srv + ".nginx.conf")
        with netns.Netns("handoff-cli-nginx", SERVER) as ns:
            ns.start_nginx(conf)
            got = {}
            for addr in (SERVER, "127.0.0.1"):
                r = subprocess.run(ns.exec_prefix() + ["python3", "-c", FETCH, "http://%s/loader/loader.conf" % addr],
                                   capture_output=True, timeout=30)
                got[addr] = r.stdout
        assert got[SERVER] == b"200\n" + open(os.path.join(srv, "loader/loader.conf"), "rb").read(), got
        assert got["127.0.0.1"].startswith(b"404\n"), got
        reqs = netns.requests(tmp)
        assert [(r["client"], r["path"], r["status"]) for r in reqs] == [
            (SERVER, "/loader/loader.conf", 200), ("127.0.0.1", "/loader/loader.conf", 404)], reqs


FETCH = """import sys, urllib.request, urllib.error
try:
    r = urllib.request.urlopen(sys.argv[1], timeout=10)
    sys.stdout.buffer.write(b"%d\\n" % r.status + r.read())
except urllib.error.HTTPError as e:
    sys.stdout.buffer.write(b"%d\\n" % e.code)
"""


@test
def netboot_examples_are_the_readme_blocks():
    """The README's nginx and dnsmasq blocks are what install --netboot
    writes for /srv/boot and 192.168.10.1 (the defaults): the documentation
    cannot drift from the tool."""
    need(LOADER, LOADER32)
    readme = read(os.path.join(ROOT, "README.md"))
    section = readme[readme.index("## Network boot"):readme.index("## Installing on Debian")]
    blocks, block = [], None
    for line in section.splitlines(keepends=True):
        if line.startswith("```"):
            blocks, block = (blocks + [block], None) if block is not None else (blocks, "")
        elif block is not None:
            block += line
    with Tmp() as tmp:
        srv = os.path.join(tmp, "srv", "boot")
        os.makedirs(srv)
        install(srv)
        for name in ("nginx", "dnsmasq"):
            text = read("%s.%s.conf" % (srv, name)).replace(tmp, "")
            assert text in blocks, "README's %s block differs from what install writes:\n%s" % (name, text)


@test
def netboot_examples_rewritten_only_when_asked():
    """Written when missing (with a note naming the default address); a
    second install leaves them (no output), also after an edit; --server
    writes them anew ("updated"); an IA-32-less tree gets x64 lines only;
    bad addresses and a server inside the range are usage errors that write
    nothing; --server needs --netboot."""
    need(LOADER, LOADER32)
    with Tmp() as tmp:
        srv = os.path.join(tmp, "srv")
        os.mkdir(srv)
        r = install(srv, "--arch", "x64")
        assert b"the examples name the server 192.168.10.1" in r.stderr, r.stderr
        dhcp = srv + ".dnsmasq.conf"
        assert lines(dhcp) == dnsmasq_lines(srv, "192.168.10.1", "192.168.10.100", "192.168.10.200", ("64",))
        with open(dhcp, "a") as f:
            f.write("# mine\n")
        mine = read(dhcp)
        r = install(srv, "--arch", "x64")
        assert r.stdout == b"" and r.stderr == b"" and read(dhcp) == mine, (r.stdout, r.stderr)
        r = install(srv, "--server", "10.9.8.7")
        assert ("updated %s.nginx.conf\nupdated %s\n" % (srv, dhcp)).encode() in r.stdout, r.stdout
        assert lines(dhcp) == dnsmasq_lines(srv, "10.9.8.7", "10.9.8.100", "10.9.8.200"), read(dhcp)
        before = read(dhcp)
        for opts, needle in ((("--server", "10.9.8"), "--server '10.9.8': expected the server's IPv4 address"),
                             (("--server", "10.9.8.150"), "the server's address 10.9.8.150 is in the range"),
                             (("--dhcp-range", "10.9.8.9"), "--dhcp-range '10.9.8.9': expected FIRST,LAST"),
                             (("--dhcp-range", "10.9.8.9,10.9.8.1"), "FIRST not after LAST")):
            fails(h("install", "--esp", srv, "--netboot", *opts), 2, needle)
        assert read(dhcp) == before
        fails(h("install", "--esp", srv, "--server", "10.9.8.7"), 2, "--server and --dhcp-range are for --netboot")
        # a path nginx or dnsmasq would need quoted: no examples, a note
        odd = os.path.join(tmp, "my tree")
        os.mkdir(odd)
        r = install(odd)
        assert b"no nginx and dnsmasq examples beside it" in r.stderr and not os.path.exists(odd + ".nginx.conf")
