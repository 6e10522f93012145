"""A network of the test's own: a network namespace with a bridge holding the
server's address, one tap per QEMU machine and no route out (a network test
never leaves the machine), and Debian's own nginx and dnsmasq running in it
with the configurations `handoff install --netboot` wrote (so the examples
are what is tested). Needs root (the tests run as root in CI).

    with netns.Netns("fleet", taps=3) as ns:
        nginx = ns.start_nginx(netns.nginx_conf(wd, site))     # site: TREE.nginx.conf
        dnsmasq = ns.start_dnsmasq(conf, wd)                   # conf: TREE.dnsmasq.conf
        run_qemu(..., prefix=ns.exec_prefix(), net=ns.tap_args(0, mac))

nginx_conf() is the main configuration Debian's nginx.conf would be for the
test: Debian's mime types and its stock default site (listen 80
default_server) beside the example site, and an access log giving each
request's client, path, status and bytes.
"""
import os
import subprocess
import time

from . import host

BRIDGE = "br0"
PREFIX = 24
PREFIX6 = 64
DEBIAN_DEFAULT_SITE = "/etc/nginx/sites-available/default"
NGINX_LOG_FORMAT = "$remote_addr $request_method $uri $status $bytes_sent"


class Netns:
    """`ip netns add NAME-PID`, the bridge with @server/24 (an IPv6 @server:
    /64, usable at once: no duplicate address detection), @taps taps on it;
    removed (with whatever runs in it) on exit."""

    def __init__(self, name, server, taps=0):
        self.name = "%s-%d" % (name, os.getpid())
        self.server = server
        self.taps = ["tap%d" % i for i in range(taps)]
        self.procs = []

    def ip(self, *args):
        host.run(["ip", "-n", self.name, *args])

    def __enter__(self):
        host.need_tool("ip", "iproute2")
        host.run(["ip", "netns", "add", self.name])
        try:
            self.ip("link", "set", "lo", "up")
            self.ip("link", "add", BRIDGE, "type", "bridge")
            if ":" in self.server:
                self.ip("addr", "add", "%s/%d" % (self.server, PREFIX6), "dev", BRIDGE, "nodad")
            else:
                self.ip("addr", "add", "%s/%d" % (self.server, PREFIX), "dev", BRIDGE)
            self.ip("link", "set", BRIDGE, "up")
            for tap in self.taps:
                self.ip("tuntap", "add", "dev", tap, "mode", "tap")
                self.ip("link", "set", tap, "master", BRIDGE)
                self.ip("link", "set", tap, "up")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            host.stop(p, 10)
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True)

    def exec_prefix(self):
        """The command line prefix that runs a program in the namespace."""
        return ["ip", "netns", "exec", self.name]

    def start(self, cmd, log, ready):
        """@cmd in the namespace (stdout and stderr to @log), running until the
        namespace goes; waits (10 s at most) for @ready() to say it serves."""
        with open(log, "wb") as out:
            p = subprocess.Popen(self.exec_prefix() + cmd, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        self.procs.append(p)
        for _ in range(100):
            if p.poll() is not None:
                raise host.HarnessError("%s exited (%d): %s" % (cmd[0], p.returncode, open(log).read()[-2000:]))
            if ready():
                return p
            time.sleep(0.1)
        raise host.HarnessError("%s did not start in 10 s: %s" % (cmd[0], open(log).read()[-2000:]))

    def listening(self, proto, port):
        """Something in the namespace listens on @proto ("tcp", "udp") @port."""
        r = subprocess.run(self.exec_prefix() + ["ss", "-Hln", "--" + proto, "sport = :%d" % port],
                           capture_output=True, text=True)
        return r.returncode == 0 and r.stdout.strip() != ""

    def start_nginx(self, conf):
        """Debian's nginx in the foreground with @conf (nginx_conf())."""
        host.need_tool("nginx", "nginx")
        d = os.path.dirname(conf)
        return self.start(["nginx", "-c", conf, "-p", d + "/", "-g", "daemon off;"],
                          os.path.join(d, "nginx.out"), lambda: self.listening("tcp", 80))

    def start_dnsmasq(self, conf, d, ports=(67, 69)):
        """dnsmasq with @conf only, DHCP and TFTP (no DNS: port 0), its
        leases, and its log (every DHCP answer, every TFTP transfer) in @d;
        started once it listens on the UDP @ports (DHCPv6 only: (547,))."""
        host.need_tool("dnsmasq", "dnsmasq-base")
        cmd = ["dnsmasq", "--keep-in-foreground", "--conf-file=" + conf, "--port=0", "--user=root",
               "--interface=" + BRIDGE, "--pid-file=" + os.path.join(d, "dnsmasq.pid"),
               "--dhcp-leasefile=" + os.path.join(d, "dnsmasq.leases"), "--log-dhcp",
               "--log-facility=" + os.path.join(d, "dnsmasq.log")]
        return self.start(cmd, os.path.join(d, "dnsmasq.out"),
                          lambda: all(self.listening("udp", p) for p in ports))

    def tap_args(self, i, mac):
        """QEMU's arguments for a virtio-net NIC on tap @i (its MAC @mac), without
        its iPXE ROM, so that the firmware's own network stack runs."""
        return ["-netdev", "tap,id=n0,ifname=%s,script=no,downscript=no" % self.taps[i],
                "-device", "virtio-net-pci,netdev=n0,romfile=,mac=" + mac]


def nginx_conf(d, site):
    """@d/nginx.conf: a main configuration as Debian's, for a test: its
    mime types, its stock default site and @site; the access log in @d
    (access_log()); workers as root (the tree is the test's)."""
    host.need_file(DEBIAN_DEFAULT_SITE, "nginx")
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write("user root;\nworker_processes 1;\npid %s/nginx.pid;\nerror_log %s/nginx-error.log;\n"
                "events { worker_connections 64; }\n"
                "http {\n\tinclude /etc/nginx/mime.types;\n\tdefault_type application/octet-stream;\n"
                "\tsendfile on;\n\tlog_format handoff_test '%s';\n\taccess_log %s handoff_test;\n"
                "\tinclude %s;\n\tinclude %s;\n}\n"
                % (d, d, NGINX_LOG_FORMAT, access_log(d), DEBIAN_DEFAULT_SITE, site))
    return conf


def access_log(d):
    return os.path.join(d, "nginx-access.log")


def requests(d):
    """nginx's access log: [{"client", "method", "path", "status", "bytes"}], in order."""
    if not os.path.exists(access_log(d)):
        return []
    out = []
    with open(access_log(d)) as f:
        for line in f:
            client, method, path, status, sent = line.split()
            out.append({"client": client, "method": method, "path": path, "status": int(status),
                        "bytes": int(sent)})
    return out


def leases(d):
    """dnsmasq's leases: {MAC: IPv4 address}."""
    path = os.path.join(d, "dnsmasq.leases")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {w[1]: w[2] for w in (l.split() for l in f) if len(w) >= 3}
