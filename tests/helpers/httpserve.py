#!/usr/bin/python3
"""A one-connection HTTP(S) file server for QEMU's user network (stdlib only).

QEMU's `-netdev user,guestfwd=tcp:IP:PORT-cmd:httpserve.py CONFIG` starts it for
every connection the guest makes to IP:PORT, with that connection on its
standard input and output (a socket; standard error is the same socket, so
nothing is ever written there). CONFIG is a JSON file:

    {"root": DIR, "log": FILE,
     "tls": {"cert": PEM, "key": PEM, "dh": PEM,        (optional: speak HTTPS)
             "trusted_connections": N, "untrusted": {"cert": PEM, "key": PEM}},
     "faults": {"/path": FAULT, ...}}                   (optional)

With "untrusted", the first N connections (counted in LOG.count) present
"cert", the later ones the untrusted certificate: the firmware fetches the
loader, then the loader meets a certificate its CA list does not vouch for.

FAULT: "404" (or any status number: that status, no body), "truncate" (the
full Content-Length, half the body, then close), "close" (close without an
answer), "stall" (read the request, never answer), "two-lengths" (the file
with "Content-Length: 1x" before the right Content-Length, as a broken or
hostile server may: RFC 9112 §6.3 makes that an error; the body follows 2 s
after the headers, since OVMF's client never returns from a first read that
holds more body than the first Content-Length says), "chunked" (the file
in chunked coding, RFC 9112 §7.1, as nginx sends a generated file: odd
chunk sizes in either case of hex with leading zeros, chunk extensions, a
trailer section), "badchunk" (the same, but after the first chunk an empty
size line: a client that takes it for the last chunk sees a complete
message), "chunked-truncate" (half the file chunked, then close inside a
chunk). A list of faults
applies one per request of the path, in turn, and none after the last:
["503", "503"] fails the first two requests, then serves the file (the
requests of each path are counted in LOG.count).

Every request is appended to the log as one JSON line: method, path, status,
the body bytes sent, the fault applied, whether TLS was on. Requests on one
connection are served in turn (HTTP/1.1 keep-alive) until the client closes.
"""
import json
import os
import socket
import ssl
import sys
import time
import fcntl
import urllib.parse

REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect",
           308: "Permanent Redirect", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
           500: "Internal Server Error", 503: "Service Unavailable"}


def log(cfg, record):
    line = (json.dumps(record, sort_keys=True) + "\n").encode()
    fd = os.open(cfg["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)   # one write with O_APPEND: lines of parallel connections do not mix
    finally:
        os.close(fd)


def read_request(f):
    """(method, target, headers) of the next request, or None at the end."""
    line = f.readline(65536)
    if not line:
        return None
    parts = line.decode("latin-1").split()
    headers = {}
    while True:
        h = f.readline(65536)
        if not h or h in (b"\r\n", b"\n"):
            break
        k, _, v = h.decode("latin-1").partition(":")
        headers[k.strip().lower()] = v.strip()
    if len(parts) != 3:
        return ("?", "?", headers)
    return parts[0], parts[1], headers


CHUNK = 1 << 20


def respond(sock, status, body=b"", length=None, path=None, send=None, lengths=(), location=None, pause=0):
    """The status line and headers at once, then the body: @body, or @send
    bytes of the file @path read and sent a chunk at a time (as a real server
    streams a large file: a client waits for the headers, not for the file)
    after @pause seconds. @lengths: Content-Length values sent before the
    right one; @location: a Location header."""
    length = len(body) if length is None else length
    extra = "".join("Content-Length: %s\r\n" % v for v in lengths)
    if location is not None:
        extra += "Location: %s\r\n" % location
    head = "HTTP/1.1 %d %s\r\n%sContent-Length: %d\r\nContent-Type: application/octet-stream\r\n\r\n" % (
        status, REASONS.get(status, "Status"), extra, length)
    sock.sendall(head.encode() + body)
    time.sleep(pause)
    if path:
        with open(path, "rb") as f:
            while send > 0:
                b = f.read(min(CHUNK, send))
                if not b:
                    break
                sock.sendall(b)
                send -= len(b)


# Chunk sizes in turn: odd, one byte, larger than a TCP segment and than QEMU's window.
CHUNK_SIZES = (4093, 1, 65537, 7, 300001, 2)


def chunk_head(i, n):
    """The size line of chunk @i of @n bytes: hex in either case, leading zeros, extensions."""
    size = ("%x" % n) if i % 2 else ("%08X" % n)
    ext = ';i=%d;name="v;x"' % i if i % 3 == 0 else (";x" if i % 3 == 1 else "")
    return ("%s%s\r\n" % (size, ext)).encode()


def respond_chunked(sock, path, fault):
    """200 with the file at @path in chunked coding (@fault: "chunked",
    "badchunk", "chunked-truncate"); the bytes of chunk data sent."""
    size = os.path.getsize(path)
    stop = size // 2 if fault == "chunked-truncate" else size
    sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n")
    sent = 0
    with open(path, "rb") as f:
        for i in range(1 << 30):
            n = min(CHUNK_SIZES[i % len(CHUNK_SIZES)], size - sent)
            if n == 0:
                break
            data = f.read(n)
            if sent + n > stop:      # cut inside this chunk
                sock.sendall(chunk_head(i, n) + data[:stop - sent])
                return stop
            sock.sendall(chunk_head(i, n) + data + b"\r\n")
            sent += n
            if fault == "badchunk":
                sock.sendall(b"\r\n\r\n")   # an empty size line, then what ends a message
                return sent
    sock.sendall(b"0;end=1\r\nX-Checksum: none\r\nExpires: 0\r\n\r\n")
    return sent


def serve_one(cfg, sock, method, target, tls):
    path = urllib.parse.unquote(urllib.parse.urlsplit(target).path)
    fault = cfg.get("faults", {}).get(path)
    if isinstance(fault, list):
        n = counted(cfg, path)
        fault = fault[n] if n < len(fault) else None
    record = {"method": method, "path": path, "fault": fault, "tls": tls, "time": round(time.time(), 3)}
    if fault == "close":
        log(cfg, dict(record, status=None, sent=0))
        return False
    if fault == "stall":
        log(cfg, dict(record, status=None, sent=0))
        time.sleep(3600)
        return False
    if fault and fault.isdigit():
        log(cfg, dict(record, status=int(fault), sent=0))
        respond(sock, int(fault))
        return True
    if fault and fault[:1] == "3" and " " in fault:
        status, location = fault.split(" ", 1)
        log(cfg, dict(record, status=int(status), sent=0, location=location))
        respond(sock, int(status), location=location)
        return True
    full = os.path.realpath(os.path.join(cfg["root"], path.lstrip("/")))
    inside = full.startswith(os.path.realpath(cfg["root"]) + os.sep)
    if method not in ("GET", "HEAD") or not inside or not os.path.isfile(full):
        status = 404 if method in ("GET", "HEAD") else 400
        log(cfg, dict(record, status=status, sent=0))
        respond(sock, status)
        return True
    size = os.path.getsize(full)
    if fault in ("chunked", "badchunk", "chunked-truncate"):
        sent = respond_chunked(sock, full, fault)
        log(cfg, dict(record, status=200, sent=sent, size=size, chunked=True))
        return fault == "chunked"
    if fault == "truncate":
        log(cfg, dict(record, status=200, sent=size // 2, size=size))
        respond(sock, 200, length=size, path=full, send=size // 2)
        return False
    sent = size if method == "GET" else 0
    log(cfg, dict(record, status=200, sent=sent, size=size))
    two = fault == "two-lengths"
    respond(sock, 200, length=size, path=full, send=sent, lengths=("1x",) if two else (), pause=2 if two else 0)
    return True


def counted(cfg, key):
    """How many times @key (a path, or "connections") was counted before: a
    JSON file beside the log, LOG.count, locked (connections run at once)."""
    with open(cfg["log"] + ".count", "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        counts = json.loads(f.read() or "{}")
        f.seek(0)
        f.truncate()
        f.write(json.dumps(dict(counts, **{key: counts.get(key, 0) + 1})))
    return counts.get(key, 0)


def connection_number(cfg):
    """How many connections came before this one (counted in LOG.count)."""
    return counted(cfg, "connections")


def certificate(cfg):
    t = cfg["tls"]
    if "untrusted" in t and connection_number(cfg) >= t.get("trusted_connections", 0):
        return t["untrusted"]["cert"], t["untrusted"]["key"]
    return t["cert"], t["key"]


def main():
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    sock = socket.socket(fileno=0)
    tls = "tls" in cfg
    if tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*certificate(cfg))
        ctx.load_dh_params(cfg["tls"]["dh"])
        ctx.set_ciphers("DHE:ECDHE:@SECLEVEL=1")
        try:
            sock = ctx.wrap_socket(sock, server_side=True)
        except (ssl.SSLError, OSError) as e:
            log(cfg, {"method": None, "path": None, "status": None, "sent": 0, "fault": None, "tls": True,
                      "tls_error": str(e), "time": round(time.time(), 3)})
            return
    f = sock.makefile("rb")
    while True:
        req = read_request(f)
        if req is None:
            break
        method, target, headers = req
        if not serve_one(cfg, sock, method, target, tls) or headers.get("connection", "").lower() == "close":
            break
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


if __name__ == "__main__":
    main()
