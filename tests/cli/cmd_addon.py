"""`handoff addon`: a UKI addon (.text returning EFI_UNSUPPORTED, .sbat,
.cmdline, optionally .uname) read back by an independent PE reader and
objdump; signed, sbverify accepts it; bad lines and usage errors give one line
and write nothing."""
import os
import struct
import subprocess

from common import Tmp, fails, h, ok, read_pe, test


def openssl_cert(tmp):
    key, cert = os.path.join(tmp, "db.key"), os.path.join(tmp, "db.crt")
    subprocess.run(["openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=addon-test",
                    "-days", "1", "-keyout", key, "-out", cert], check=True, capture_output=True)
    return key, cert


def section_bytes(data, i, size):
    """@size bytes at section @i's PointerToRawData (PE/COFF spec §4)."""
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    table = pe + 24 + struct.unpack_from("<H", data, pe + 20)[0]
    raw = struct.unpack_from("<I", data, table + 40 * i + 20)[0]
    return data[raw:raw + size]


@test
def addon_sections_and_signature():
    with Tmp() as tmp:
        out = os.path.join(tmp, "debug.addon.efi")
        ok(h("addon", "--cmdline", "console=ttyS1 debug\n", "--uname", "6.1.0-1-amd64", "-o", out))
        data = open(out, "rb").read()
        pe = read_pe(data)
        names = [s["name"] for s in pe["sections"]]
        assert names == [".text", ".sbat", ".cmdline", ".uname"], names
        sec = {s["name"]: s for s in pe["sections"]}
        assert section_bytes(data, 2, sec[".cmdline"]["virtual_size"]) == b"console=ttyS1 debug"
        assert section_bytes(data, 0, 11) == bytes.fromhex("48b80300000000000080c3")  # mov rax, EFI_UNSUPPORTED; ret
        assert pe["machine"] == 0x8664 and pe["subsystem"] == 10, pe
        o = subprocess.run(["objdump", "-h", out], capture_output=True, text=True)
        assert o.returncode == 0 and "pei-x86-64" in o.stdout, o.stdout + o.stderr
        key, cert = openssl_cert(tmp)
        signed = os.path.join(tmp, "signed.addon.efi")
        ok(h("addon", "--cmdline", "quiet", "--sign-key", key, "--sign-cert", cert, "-o", signed))
        v = subprocess.run(["sbverify", "--cert", cert, signed], capture_output=True, text=True)
        assert v.returncode == 0, v.stderr or v.stdout


@test
def addon_errors_write_nothing():
    with Tmp() as tmp:
        out = os.path.join(tmp, "x.addon.efi")
        fails(h("addon", "--cmdline", "a\nb", "-o", out), 1, "--cmdline: line feed at byte offset 1")
        fails(h("addon", "--cmdline", "q\xc0\x80".encode("latin-1"), "-o", out), 1, "--cmdline")
        fails(h("addon", "--cmdline", " ", "-o", out), 1, "the command line is empty")
        fails(h("addon", "-o", out), 2, "--cmdline is required")
        fails(h("addon", "--cmdline", "quiet", "--sign-key", "k", "-o", out), 2, "go together")
        assert not os.path.exists(out)
