"""QEMU's machine protocol (QMP) on a Unix socket, for what the serial port
cannot show: the screen. `args(path)` are QEMU's arguments; `screendump(path,
out)` writes the display as a PPM file (QEMU's `screendump` command) and
`read_ppm(out)` reads it back as (width, height, rows of (r, g, b) bytes)."""
import json
import socket

from .host import HarnessError


def args(sock_path):
    return ["-qmp", "unix:%s,server=on,wait=off" % sock_path]


def command(sock_path, name, arguments=None):
    """Run one QMP command; its "return" value, or HarnessError with QEMU's error."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(60)
        s.connect(sock_path)
        f = s.makefile("rwb")
        f.readline()  # the greeting
        for cmd in ({"execute": "qmp_capabilities"}, {"execute": name, "arguments": arguments or {}}):
            f.write(json.dumps(cmd).encode() + b"\n")
            f.flush()
            while True:
                reply = json.loads(f.readline())
                if "error" in reply:
                    raise HarnessError("QMP %s: %s" % (cmd["execute"], reply["error"]))
                if "return" in reply:
                    break
    return reply["return"]


def screendump(sock_path, out):
    command(sock_path, "screendump", {"filename": out})


def read_ppm(path):
    """(width, height, pixels) of a binary PPM (P6, maxval 255); pixels is bytes, 3 a pixel."""
    data = open(path, "rb").read()
    fields, off = [], 0
    while len(fields) < 4:
        while data[off:off + 1].isspace():
            off += 1
        end = off
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[off:end])
        off = end
    off += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        raise HarnessError("%s: not a P6 PPM of maxval 255" % path)
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[off:off + w * h * 3]
