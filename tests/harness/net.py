"""Network boots in QEMU: a server tree served over HTTP(S) by
tests/helpers/httpserve.py (started by QEMU's user network for each guest
connection, logging every request) or over TFTP by QEMU itself, and the QEMU
arguments that give OVMF its own network stack (virtio-net without its iPXE
ROM). `restrict=on` keeps the guest off every network but the test server.

    srv = net.Server(tree)                       # tree: a directory, the server's root
    r = qemu.run_qemu(None, 240, net=net.http_args(srv))
    net.paths(srv)    # ["/EFI/BOOT/BOOTX64.EFI", "/loader/entries.list", ...] (GETs, in order)

HTTPS: net.Tls() makes a CA, a server certificate for SERVER_IP, DH
parameters and the CA as the EFI_SIGNATURE_LIST OVMF takes from fw_cfg;
libslirp offers the boot URL only for http://, so an HTTPS boot starts from
a disk holding tests/helpers/uriboot.c (uriboot_disk()), which asks the
firmware's HTTP Boot for the https:// URL as a configured boot option would.
"""
import json
import os
import struct
import subprocess
import uuid

from . import case, host, paths

SERVER_IP = "10.0.2.100"       # the test server, reachable only through guestfwd
SLIRP_TFTP_IP = "10.0.2.2"     # QEMU's own TFTP server (the user network's host address)
SERVE = paths.root_path("tests", "helpers", "httpserve.py")
URIBOOT = paths.root_path("tests", "helpers", "uriboot.c")
# Saves about a minute per boot: no IPv6 attempts, and for HTTP no PXE attempt first.
FW_NO_IPV6 = ["-fw_cfg", "name=opt/org.tianocore/IPv6Support,string=no"]
FW_NO_PXE = ["-fw_cfg", "name=opt/org.tianocore/IPv4PXESupport,string=no"]
NIC = ["-device", "virtio-net-pci,netdev=n0,romfile="]
EFI_CERT_X509_GUID = "a5c059a1-94e4-4aa7-87b5-ab155c2bf072"


class Server:
    """httpserve.py's configuration for one run: the root, the request log,
    faults ({"/path": "404" | "truncate" | "close" | "stall" | "chunked" | ... | status, or a
    list of those: one per request of the path in turn, then none; see httpserve.py}), TLS."""

    def __init__(self, root, faults=None, tls=None, name="server"):
        d = case.workdir()
        self.root = root
        self.log = os.path.join(d, name + "-requests.log")
        self.config = os.path.join(d, name + ".json")
        for f in (self.log, self.log + ".count"):
            if os.path.exists(f):
                os.unlink(f)
        cfg = {"root": root, "log": self.log, "faults": faults or {}}
        if tls:
            cfg["tls"] = tls
        with open(self.config, "w") as f:
            json.dump(cfg, f)

    def guestfwd(self, port):
        return "guestfwd=tcp:%s:%d-cmd:%s %s" % (SERVER_IP, port, SERVE, self.config)

    def requests(self):
        """Every request the server saw, as logged (dicts), in order."""
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return sorted((json.loads(l) for l in f if l.strip()), key=lambda r: r["time"])


def gets(server):
    """The paths of the server's GET requests, in order."""
    return [r["path"] for r in server.requests() if r["method"] == "GET"]


def http_args(server, loader="EFI/BOOT/BOOTX64.EFI"):
    """UEFI HTTP Boot of http://SERVER_IP/@loader from @server."""
    netdev = "user,id=n0,restrict=on,bootfile=http://%s/%s,%s" % (SERVER_IP, loader, server.guestfwd(80))
    return FW_NO_IPV6 + FW_NO_PXE + ["-netdev", netdev] + NIC


def https_args(server, tls, plain=None):
    """The network for an HTTPS boot started by uriboot_disk(): the server on
    port 443 and the CA list in OVMF's fw_cfg file; with @plain, that server
    on port 80 of the same address (so that a plain-HTTP request, a
    downgrade, is answered and logged at once instead of timing out)."""
    netdev = "user,id=n0,restrict=on,%s" % server.guestfwd(443)
    if plain:
        netdev += "," + plain.guestfwd(80)
    return (FW_NO_IPV6 + FW_NO_PXE + ["-fw_cfg", "name=etc/edk2/https/cacerts,file=" + tls.cacerts,
                                      "-netdev", netdev] + NIC)


def tftp_args(root, loader="EFI/BOOT/BOOTX64.EFI"):
    """PXE boot of @loader from QEMU's TFTP server serving @root."""
    return FW_NO_IPV6 + ["-netdev", "user,id=n0,restrict=on,tftp=%s,bootfile=%s" % (root, loader)] + NIC


class Tls:
    """A CA and a certificate for SERVER_IP it signed, DH parameters (the
    firmware offers DHE suites only), the CA as an EFI_SIGNATURE_LIST for
    etc/edk2/https/cacerts, and a second, untrusted, CA's certificate."""

    def __init__(self):
        host.need_tool("openssl", "openssl")
        self.dir = os.path.join(case.workdir(), "tls")
        os.makedirs(self.dir, exist_ok=True)
        self.dh = self._path("dh.pem")
        host.run(["openssl", "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048",
                  "-out", self.dh])
        ca, ca_key = self._ca("ca")
        self.cert, self.key = self._server("server", ca, ca_key)
        self.cacerts = self._signature_list(ca)
        other, other_key = self._ca("other-ca")
        self.untrusted_cert, self.untrusted_key = self._server("untrusted", other, other_key)

    def _path(self, name):
        return os.path.join(self.dir, name)

    def _ca(self, name):
        cert, key = self._path(name + ".pem"), self._path(name + ".key")
        host.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                  "-days", "30", "-subj", "/CN=handoff test %s" % name])
        return cert, key

    def _server(self, name, ca, ca_key):
        cert, key, csr, ext = (self._path(name + x) for x in (".pem", ".key", ".csr", ".ext"))
        with open(ext, "w") as f:
            f.write("subjectAltName=IP:%s\nbasicConstraints=CA:FALSE\n" % SERVER_IP)
        host.run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
                  "-subj", "/CN=%s" % SERVER_IP])
        host.run(["openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
                  "-out", cert, "-days", "30", "-extfile", ext])
        return cert, key

    def _signature_list(self, ca):
        """UEFI 2.10 §32.4.1: EFI_SIGNATURE_LIST {type, list size, header size 0,
        signature size} and one EFI_SIGNATURE_DATA {owner, the DER certificate}."""
        der = subprocess.run(["openssl", "x509", "-in", ca, "-outform", "DER"], capture_output=True,
                             check=True).stdout
        owner = uuid.UUID("77fa9abd-0359-4d32-bd60-28f4e78f784b").bytes_le
        data = uuid.UUID(EFI_CERT_X509_GUID).bytes_le + struct.pack("<III", 28 + 16 + len(der), 0, 16 + len(der))
        out = self._path("cacerts.esl")
        with open(out, "wb") as f:
            f.write(data + owner + der)
        return out

    def server_config(self, trusted_connections=None):
        """httpserve.py's "tls" object; with @trusted_connections the later
        connections get the untrusted certificate."""
        t = {"cert": self.cert, "key": self.key, "dh": self.dh}
        if trusted_connections is not None:
            t.update(trusted_connections=trusted_connections,
                     untrusted={"cert": self.untrusted_cert, "key": self.untrusted_key})
        return t


def uriboot_disk(url):
    """A FAT image whose \\EFI\\BOOT\\BOOTX64.EFI boots @url through the
    firmware's HTTP Boot (tests/helpers/uriboot.c, built here)."""
    from . import esp
    d = case.workdir()
    obj, efi = os.path.join(d, "uriboot.o"), os.path.join(d, "uriboot.efi")
    host.run(["clang", "-target", "x86_64-unknown-windows", "-std=gnu11", "-ffreestanding", "-fshort-wchar",
              "-mno-red-zone", "-mgeneral-regs-only", "-fno-stack-protector", "-mno-stack-arg-probe", "-Os",
              "-Wall", "-Werror", "-I" + paths.root_path("include"), "-DURIBOOT_URL=\"%s\"" % url,
              "-c", URIBOOT, "-o", obj])
    host.run(["lld-link", "/nologo", "/machine:x64", "/subsystem:efi_application", "/entry:efi_main",
              "/nodefaultlib", "/debug:none", "/out:" + efi, obj])
    tree = esp.tree({"EFI/BOOT/BOOTX64.EFI": efi}, os.path.join(d, "uriboot"))
    return esp.image(tree, os.path.join(d, "uriboot.img"), size_mib=16)


def first_boot_disk_args():
    """With run_qemu(interface="none"): the disk on virtio-blk, first in the boot order."""
    return ["-device", "virtio-blk-pci,drive=disk0,bootindex=0"]


def bli_var(init, name):
    """A Boot Loader Interface string variable from the HANDOFF-INIT report's bli_hex (UTF-16LE with its NUL)."""
    h = (init or {}).get("bli_hex", {}).get(name)
    if h is None:
        return None
    return bytes.fromhex(h).decode("utf-16-le").rstrip("\0")
