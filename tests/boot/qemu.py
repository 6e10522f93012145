#!/usr/bin/python3
"""QEMU + OVMF harness for handoff's boot tests (stdlib only).

    import qemu
    code, vars_ = qemu.ovmf_paths()
    qemu.make_esp(tree_dir, img)                      # FAT image, no root needed
    qemu.wrap_gpt(img, disk)                          # optional: GPT disk holding it
    r = qemu.run_qemu(disk, 120, keys=[(r"Boot in", b"\\x1b[B"), (r"...", b"\\r")])
    init = qemu.expect_init(r)                        # parsed HANDOFF-INIT JSON
    qemu.expect_eq(init["efi"], True, "efi", r)

Machine: q35, -cpu max, 512 MiB, TCG, no display/network, serial on QEMU's
stdio, OVMF_CODE_4M read-only pflash + a per-run copy of OVMF_VARS_4M,
isa-debug-exit at 0xf4 (guest writes N -> QEMU exits 2N+1), -no-reboot (a
guest reset or poweroff ends QEMU).

Disk: a bare FAT image (no partition table) boots: OVMF finds
\\EFI\\BOOT\\BOOTX64.EFI on it through its removable-media fallback. virtio-blk
is the default interface (see INTERFACES). wrap_gpt() makes a GPT disk when a
test needs a real partition (e.g. a loader looking for its ESP by partition).

Keys: OVMF's serial terminal (TerminalDxe) accepts ANSI/VT100 input: send
arrows as b"\\x1b[A"/b"\\x1b[B" (ESC and the rest in ONE write, or the
terminal may take a lone ESC), Enter as b"\\r". `keys` is an ordered
expect-script: entry i is armed after entry i-1 fired, and fires when its
regex matches the (ANSI-stripped) serial output received since the previous
key was sent, partial lines included.

Each run gets a directory under build/boot-tests/<test>/run-N/ with
serial.log (timestamped, ANSI-stripped), serial.raw, qemu.stderr, cmd.txt and
the VARS copy. The runner (run.py) sets the current test so run_qemu() knows
where to put things; outside it, build/boot-tests/adhoc-<pid>/ is used.
"""
import atexit
import dataclasses
import hashlib
import json
import os
import re
import select
import shutil
import signal
import subprocess
import threading
import time
import uuid
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.join(ROOT, "build", "boot-cache")
TESTS_OUT = os.path.join(ROOT, "build", "boot-tests")

QEMU = "qemu-system-x86_64"
OVMF_DIRS = ("/usr/share/OVMF", "/usr/share/ovmf")
INTERFACES = ("virtio", "ide", "none")


class HarnessError(Exception):
    """Environment problem (missing package, bad image...)."""


# --------------------------------------------------------------------------
# per-test context (set by run.py)

_ctx = threading.local()


def set_test(name, workdir):
    _ctx.name = name
    _ctx.workdir = workdir
    _ctx.runs = 0
    _ctx.results = []
    _ctx.notes = []


def current_test():
    return getattr(_ctx, "name", None)


def workdir():
    """This test's output directory (build/boot-tests/<test>/), created."""
    d = getattr(_ctx, "workdir", None)
    if d is None:
        set_test("adhoc-%d" % os.getpid(), os.path.join(TESTS_OUT, "adhoc-%d" % os.getpid()))
        d = _ctx.workdir
    os.makedirs(d, exist_ok=True)
    return d


def results():
    return list(getattr(_ctx, "results", []))


def note(text):
    """Attach a short note (e.g. a timing) to the current test's PASS line (run.py -v)."""
    if not hasattr(_ctx, "notes"):
        _ctx.notes = []
    _ctx.notes.append(text)


def notes():
    return list(getattr(_ctx, "notes", []))


def cache_path(*parts):
    return os.path.join(CACHE, *parts)


def root_path(*parts):
    return os.path.join(ROOT, *parts)


# --------------------------------------------------------------------------
# firmware, images

def ovmf_paths():
    """(OVMF_CODE_4M.fd, OVMF_VARS_4M.fd) from Debian's ovmf package."""
    for d in OVMF_DIRS:
        code = os.path.join(d, "OVMF_CODE_4M.fd")
        vars_ = os.path.join(d, "OVMF_VARS_4M.fd")
        if os.path.isfile(code) and os.path.isfile(vars_):
            return code, vars_
    raise HarnessError("OVMF firmware (OVMF_CODE_4M.fd, OVMF_VARS_4M.fd) not found in %s: "
                       "install the Debian package 'ovmf' (scripts/deps.sh)" % " or ".join(OVMF_DIRS))


# Debian's ovmf: Secure Boot firmware with the snakeoil key enrolled as PK, KEK
# and db (the key signs what should boot; pass phrase "snakeoil").
SB_CODE = "OVMF_CODE_4M.snakeoil.fd"
SB_VARS = "OVMF_VARS_4M.snakeoil.fd"
SNAKEOIL_KEY = "/usr/share/ovmf/PkKek-1-snakeoil.key"
SNAKEOIL_CERT = "/usr/share/ovmf/PkKek-1-snakeoil.pem"


def ovmf_sb_paths():
    """(code, vars) of the Secure Boot firmware with the snakeoil keys."""
    for d in OVMF_DIRS:
        code, vars_ = os.path.join(d, SB_CODE), os.path.join(d, SB_VARS)
        if os.path.isfile(code) and os.path.isfile(vars_):
            return code, vars_
    raise HarnessError("%s/%s not found: install the Debian package 'ovmf'" % (SB_CODE, SB_VARS))


def snakeoil_key(out_dir):
    """The snakeoil private key without its pass phrase (sbsign cannot take one), and its certificate."""
    key = os.path.join(out_dir, "snakeoil.key")
    if not os.path.exists(key):
        _run(["openssl", "pkey", "-in", SNAKEOIL_KEY, "-passin", "pass:snakeoil", "-out", key])
    return key, SNAKEOIL_CERT


def sbsign(src, dst, key, cert):
    """Sign src into dst (sbsigntool), replacing any signature src has."""
    _need_tool("sbsign", "sbsigntool")
    tmp = dst + ".unsigned"
    shutil.copyfile(src, tmp)
    subprocess.run(["sbattach", "--remove", tmp], capture_output=True)  # fails harmlessly when unsigned
    _run(["sbsign", "--key", key, "--cert", cert, "--output", dst, tmp])
    os.unlink(tmp)
    return dst


def _need_tool(tool, package):
    if shutil.which(tool) is None:
        raise HarnessError("'%s' not found: install the Debian package '%s' (scripts/deps.sh)"
                           % (tool, package))


def _tree_size(d):
    total = 0
    for dp, dns, fns in os.walk(d):
        total += 4096 * (len(dns) + 1)
        for f in fns:
            total += os.path.getsize(os.path.join(dp, f)) + 4096
    return total


def make_esp(src_dir, out_img, size_mib=64, label="HANDOFF"):
    """Build a FAT image from the tree src_dir with mtools (no root, no loop).

    FAT32 (mformat -F) for images >= 64 MiB, else mformat's own choice (FAT16
    or FAT12). The size grows past size_mib if the tree does not fit.
    Returns out_img.
    """
    _need_tool("mformat", "mtools")
    need = (_tree_size(src_dir) * 11 // 10 >> 20) + 8
    size_mib = max(size_mib, need)
    tmp = out_img + ".tmp"
    if os.path.exists(tmp):
        os.unlink(tmp)
    with open(tmp, "wb") as f:
        f.truncate(size_mib << 20)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    cmd = ["mformat", "-i", tmp, "-v", label[:11]]
    if size_mib >= 64:
        cmd.append("-F")
    cmd.append("::")
    _run(cmd, env)
    for entry in sorted(os.listdir(src_dir)):
        _run(["mcopy", "-i", tmp, "-s", "-p", "-Q", "-D", "o",
              os.path.join(src_dir, entry), "::/"], env)
    os.replace(tmp, out_img)
    return out_img


def _run(cmd, env=None):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise HarnessError("%s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                    (p.stderr or p.stdout).strip()))
    return p


ESP_TYPE = uuid.UUID("C12A7328-F81F-11D2-BA4B-00A0C93EC93B")


def wrap_gpt(esp_img, out_img, name="EFI System"):
    """Write a GPT disk image with one ESP partition holding esp_img.

    Partition starts at 1 MiB; GUIDs are derived from the image name so the
    output is reproducible. Returns out_img.
    """
    sector = 512
    esp_size = os.path.getsize(esp_img)
    esp_sectors = (esp_size + sector - 1) // sector
    first = 2048
    last = first + esp_sectors - 1
    total = first + esp_sectors + 2048  # room for the backup GPT, 1 MiB aligned
    seed = hashlib.sha256(os.path.basename(out_img).encode()).digest()
    disk_guid = uuid.UUID(bytes=seed[:16])
    part_guid = uuid.UUID(bytes=seed[16:])

    entry = (ESP_TYPE.bytes_le + part_guid.bytes_le + first.to_bytes(8, "little")
             + last.to_bytes(8, "little") + (0).to_bytes(8, "little")
             + name.encode("utf-16-le").ljust(72, b"\0"))
    entries = entry.ljust(128 * 128, b"\0")
    entries_crc = zlib.crc32(entries)

    def header(my_lba, alt_lba, entries_lba):
        h = bytearray(b"EFI PART" + (0x10000).to_bytes(4, "little") + (92).to_bytes(4, "little")
                      + b"\0" * 4 + b"\0" * 4
                      + my_lba.to_bytes(8, "little") + alt_lba.to_bytes(8, "little")
                      + (34).to_bytes(8, "little") + (total - 34).to_bytes(8, "little")
                      + disk_guid.bytes_le + entries_lba.to_bytes(8, "little")
                      + (128).to_bytes(4, "little") + (128).to_bytes(4, "little")
                      + entries_crc.to_bytes(4, "little"))
        h[16:20] = zlib.crc32(bytes(h)).to_bytes(4, "little")
        return bytes(h).ljust(sector, b"\0")

    mbr = bytearray(sector)
    mbr[446:462] = (b"\x00\x00\x02\x00\xee\xff\xff\xff" + (1).to_bytes(4, "little")
                    + min(total - 1, 0xFFFFFFFF).to_bytes(4, "little"))
    mbr[510:512] = b"\x55\xaa"

    tmp = out_img + ".tmp"
    with open(tmp, "wb") as f:
        f.truncate(total * sector)
        f.write(mbr)
        f.write(header(1, total - 1, 2))
        f.write(entries)
        f.seek(first * sector)
        with open(esp_img, "rb") as src:
            shutil.copyfileobj(src, f, 1 << 20)
        f.seek((total - 33) * sector)
        f.write(entries)
        f.write(header(total - 1, 1, total - 33))
    os.replace(tmp, out_img)
    return out_img


# --------------------------------------------------------------------------
# running QEMU

@dataclasses.dataclass
class Result:
    serial_text: str            # ANSI-stripped serial output
    exit_code: int              # QEMU's exit status (negative: killed by signal)
    timed_out: bool
    duration: float             # seconds, QEMU start to exit
    lines: list = dataclasses.field(default_factory=list)   # [(t, line)], t from start
    init: dict = None           # parsed HANDOFF-INIT JSON (first one), or None
    init_time: float = None     # when the HANDOFF-INIT line arrived
    probes: list = dataclasses.field(default_factory=list)  # all HANDOFF-PROBE JSON
    json_errors: list = dataclasses.field(default_factory=list)
    keys_sent: list = dataclasses.field(default_factory=list)  # [(t, regex, bytes)]
    keys_pending: list = dataclasses.field(default_factory=list)
    stopped: bool = False       # killed because stop_on matched
    run_dir: str = ""
    log_path: str = ""
    stderr: str = ""
    cmd: list = dataclasses.field(default_factory=list)

    @property
    def probe(self):
        """The last HANDOFF-PROBE JSON, or None."""
        return self.probes[-1] if self.probes else None

    @property
    def debug_exit(self):
        """Value the guest wrote to isa-debug-exit, or None."""
        if self.exit_code is not None and self.exit_code > 0 and self.exit_code & 1:
            return self.exit_code >> 1
        return None

    def time_of(self, regex):
        """Time (s from start) of the first line matching regex, or None."""
        r = re.compile(regex)
        for t, line in self.lines:
            if r.search(line):
                return t
        return None

    def tail(self, n=25):
        return "\n".join(line for _, line in self.lines[-n:])


_live = set()
_live_lock = threading.Lock()


def kill_all():
    """Kill every QEMU started by this process (run.py calls it on exit/^C)."""
    with _live_lock:
        procs = list(_live)
    for p in procs:
        try:
            p.kill()
        except OSError:
            pass


atexit.register(kill_all)

# CSI sequences, charset selection, other 2-byte escapes
_ANSI = re.compile(r"\x1b\[[0-9;?=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78cDEHMNOZ]")
_CURSOR_POS = re.compile(r"\x1b\[[0-9;]*[Hf]")
_INCOMPLETE_ESC = re.compile(r"\x1b(\[[0-9;?=]*[ -/]*)?$|\x1b[()]$")


def strip_ansi(s):
    s = _CURSOR_POS.sub("\n", s)       # a cursor jump starts a new screen row
    s = _ANSI.sub("", s)
    s = s.replace("\r\n", "\n").replace("\r", "")
    return s.replace("\x00", "")


def _parse_tagged(line, tag):
    i = line.find(tag + " ")
    if i < 0:
        return None, None
    j = line.find("{", i)
    if j < 0:
        return None, "no JSON after %s" % tag
    try:
        obj, _ = json.JSONDecoder().raw_decode(line[j:])
        return obj, None
    except ValueError as e:
        return None, "%s JSON: %s: %r" % (tag, e, line[j:j + 200])


def run_qemu(disk_img, timeout_s, kernel=None, initrd=None, append=None, extra_args=(),
             keys=(), stop_on=None, interface="virtio", memory=512, vars_file=None,
             name=None, firmware=True, secure_boot=False, tpm=False):
    """Boot QEMU/OVMF and collect the serial output. Never raises on guest failure.

    disk_img: raw image (FAT or GPT) or None. kernel/initrd/append: QEMU direct
    boot (OVMF still runs and starts the kernel via its EFI stub).
    keys: [(regex, bytes[, delay_s])] expect-script written to serial input.
    stop_on: regex; kill QEMU as soon as a line matches (Result.stopped).
    interface: "virtio" (virtio-blk, default), "ide" (AHCI on q35) or "none"
    (-drive if=none + your own -device in extra_args).
    vars_file: VARS template to copy (default OVMF_VARS_4M.fd).
    firmware: False to run without pflash (SeaBIOS), for experiments only.
    secure_boot: Debian's Secure Boot OVMF with the snakeoil keys enrolled
    (SMM, secure pflash); Secure Boot is on.
    tpm: a TPM 2.0 (swtpm, fresh state per run) on tpm-crb.
    """
    if shutil.which(QEMU) is None:
        raise HarnessError("%s not found: install the Debian package 'qemu-system-x86' "
                           "(scripts/deps.sh)" % QEMU)
    if interface not in INTERFACES:
        raise ValueError("interface must be one of %s" % (INTERFACES,))
    wd = workdir()
    _ctx.runs += 1
    run_dir = os.path.join(wd, name or "run-%d" % _ctx.runs)
    if os.path.exists(run_dir):
        shutil.rmtree(run_dir)
    os.makedirs(run_dir)

    cmd = [QEMU, "-machine", "q35,smm=on" if secure_boot else "q35", "-cpu", "max", "-m", str(memory), "-accel", "tcg",
           "-display", "none", "-no-reboot", "-net", "none", "-serial", "stdio",
           "-monitor", "none", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if secure_boot:
        cmd += ["-global", "driver=cfi.pflash01,property=secure,value=on"]
    tpm_proc = _start_swtpm(run_dir, cmd) if tpm else None
    if firmware:
        code, vars_tmpl = ovmf_sb_paths() if secure_boot else ovmf_paths()
        vars_copy = os.path.join(run_dir, "OVMF_VARS.fd")
        shutil.copyfile(vars_file or vars_tmpl, vars_copy)
        cmd += ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + code,
                "-drive", "if=pflash,format=raw,unit=1,file=" + vars_copy]
    if disk_img is not None:
        if not os.path.isfile(disk_img):
            raise HarnessError("disk image %s does not exist" % disk_img)
        drive = "file=%s,format=raw,if=%s" % (disk_img, interface)
        if interface == "none":
            drive += ",id=disk0"
        cmd += ["-drive", drive]
    if kernel:
        cmd += ["-kernel", kernel]
    if initrd:
        cmd += ["-initrd", initrd]
    if append is not None:
        cmd += ["-append", append]
    cmd += list(extra_args)

    log_path = os.path.join(run_dir, "serial.log")
    with open(os.path.join(run_dir, "cmd.txt"), "w") as f:
        f.write(" ".join(_shquote(c) for c in cmd) + "\n")

    script = []
    for k in keys:
        rx, data = k[0], k[1]
        delay = k[2] if len(k) > 2 else 0.0
        if isinstance(data, str):
            data = data.encode()
        script.append((rx, re.compile(rx), data, delay))
    stop_rx = re.compile(stop_on) if stop_on else None

    res = Result(serial_text="", exit_code=None, timed_out=False, duration=0.0,
                 run_dir=run_dir, log_path=log_path, cmd=cmd)
    raw_f = open(os.path.join(run_dir, "serial.raw"), "wb")
    log_f = open(log_path, "w", encoding="utf-8", errors="replace")
    err_f = open(os.path.join(run_dir, "qemu.stderr"), "wb")
    text_parts = []
    window = ""          # cleaned text since the last key was sent
    partial = ""         # cleaned text of the current unterminated line
    hold = ""            # undecoded tail (incomplete escape sequence)

    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_f,
                            cwd=run_dir, start_new_session=True)
    with _live_lock:
        _live.add(proc)
    deadline = t0 + timeout_s
    fd = proc.stdout.fileno()

    def add_line(t, line):
        res.lines.append((t, line))
        log_f.write("[%8.3f] %s\n" % (t, line))
        log_f.flush()
        if res.init is None and "HANDOFF-INIT" in line:
            obj, err = _parse_tagged(line, "HANDOFF-INIT")
            if obj is not None:
                res.init, res.init_time = obj, t
            elif err:
                res.json_errors.append(err)
        if "HANDOFF-PROBE" in line:
            obj, err = _parse_tagged(line, "HANDOFF-PROBE")
            if obj is not None:
                res.probes.append(obj)
            elif err:
                res.json_errors.append(err)

    try:
        while True:
            now = time.monotonic()
            if now >= deadline:
                res.timed_out = True
                break
            r, _, _ = select.select([fd], [], [], min(0.5, deadline - now))
            if not r:
                if proc.poll() is not None:
                    break
                continue
            data = os.read(fd, 65536)
            t = time.monotonic() - t0
            if not data:
                break
            raw_f.write(data)
            s = hold + data.decode("latin-1")
            m = _INCOMPLETE_ESC.search(s[-24:])
            if m:
                cut = len(s) - (len(s[-24:]) - m.start())
                s, hold = s[:cut], s[cut:]
            else:
                hold = ""
            clean = strip_ansi(s)
            text_parts.append(clean)
            window += clean
            pieces = (partial + clean).split("\n")
            partial = pieces.pop()
            stop = False
            for line in pieces:
                add_line(t, line)
                if stop_rx and stop_rx.search(line):
                    stop = True
            # expect-script: one entry at a time, in order
            while script:
                rx_s, rx, keydata, delay = script[0]
                m = rx.search(window)
                if not m:
                    break
                if delay:
                    time.sleep(delay)
                try:
                    proc.stdin.write(keydata)
                    proc.stdin.flush()
                except OSError:
                    pass
                res.keys_sent.append((round(time.monotonic() - t0, 3), rx_s, keydata))
                log_f.write("[%8.3f] >>> sent %r (matched %r)\n"
                            % (time.monotonic() - t0, keydata, rx_s))
                window = window[m.end():]
                script.pop(0)
            if len(window) > 1 << 20:
                window = window[-(1 << 19):]
            if stop:
                res.stopped = True
                break
    finally:
        if not (res.timed_out or res.stopped):
            try:  # EOF on stdout: QEMU is exiting; give it time to finish
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        with _live_lock:
            _live.discard(proc)
        if tpm_proc is not None:
            _stop_swtpm(tpm_proc)
        res.duration = time.monotonic() - t0
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if partial:
            add_line(res.duration, partial)
        res.exit_code = proc.returncode
        res.keys_pending = [s[0] for s in script]
        end = "timeout after %.1fs" % timeout_s if res.timed_out else \
            ("stopped on %r" % stop_on if res.stopped else "exit %s" % res.exit_code)
        log_f.write("[%8.3f] === qemu %s\n" % (res.duration, end))
        raw_f.close()
        log_f.close()
        err_f.close()
    res.serial_text = "".join(text_parts)
    with open(os.path.join(run_dir, "qemu.stderr"), "rb") as f:
        res.stderr = f.read().decode("utf-8", "replace")
    _ctx.results.append(res)
    return res


def _start_swtpm(run_dir, cmd):
    """swtpm (TPM 2.0) on a Unix socket; QEMU's -tpmdev emulator talks to it."""
    _need_tool("swtpm", "swtpm")
    import tempfile
    d = tempfile.mkdtemp(prefix="handoff-tpm-")  # short path: Unix sockets take ~100 bytes
    sock = os.path.join(d, "swtpm.sock")
    log = open(os.path.join(run_dir, "swtpm.log"), "wb")
    p = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + d,
                          "--ctrl", "type=unixio,path=" + sock, "--terminate"],
                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    p.tpm_dir, p.log = d, log
    for _ in range(100):
        if os.path.exists(sock) or p.poll() is not None:
            break
        time.sleep(0.05)
    if not os.path.exists(sock):
        _stop_swtpm(p)
        raise HarnessError("swtpm did not start (see %s)" % os.path.join(run_dir, "swtpm.log"))
    cmd += ["-chardev", "socket,id=chrtpm,path=" + sock, "-tpmdev", "emulator,id=tpm0,chardev=chrtpm",
            "-device", "tpm-crb,tpmdev=tpm0"]
    return p


def _stop_swtpm(p):
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    p.log.close()
    shutil.rmtree(p.tpm_dir, ignore_errors=True)


def _shquote(s):
    return s if re.fullmatch(r"[\w@%+=:,./-]+", s) else "'" + s.replace("'", "'\\''") + "'"


# --------------------------------------------------------------------------
# assertions: raise AssertionError with the serial log tail attached

def _last_result():
    rs = getattr(_ctx, "results", None)
    return rs[-1] if rs else None


def describe(res, n=25):
    if res is None:
        return ""
    state = ("TIMED OUT after %.1fs" % res.duration if res.timed_out
             else "qemu exit %s after %.1fs" % (res.exit_code, res.duration))
    out = ["  %s; serial log: %s" % (state, res.log_path)]
    if res.keys_pending:
        out.append("  keys never sent (regex not seen): %r" % res.keys_pending)
    if res.json_errors:
        out.append("  bad JSON: %s" % "; ".join(res.json_errors[:3]))
    err = res.stderr.strip()
    if err:
        out.append("  qemu stderr: " + err.splitlines()[-1][:300])
    out.append("  --- last %d serial lines ---" % n)
    out += ["  | " + line[:300] for _, line in res.lines[-n:]]
    return "\n".join(out)


def fail(msg, res=None):
    res = res if res is not None else _last_result()
    raise AssertionError(msg + ("\n" + describe(res) if res is not None else ""))


def expect(cond, msg, res=None):
    if not cond:
        fail(msg, res)


def expect_eq(actual, expected, what, res=None):
    if actual != expected:
        fail("%s: expected %r, got %r" % (what, expected, actual), res)


def expect_in(needle, haystack, what, res=None):
    if haystack is None or needle not in haystack:
        fail("%s: %r not found in %r" % (what, needle, haystack), res)


def expect_init(res):
    """Return the HANDOFF-INIT report of res or fail with the log tail."""
    if res.init is None:
        fail("no HANDOFF-INIT report on serial (guest never reached the test initramfs)", res)
    return res.init


def needs(*paths):
    """Decorator: the test requires these files (relative to the repo root).

    run.py reports the test as FAILED (never skipped) when one is missing.
    """
    def deco(fn):
        fn.needs = list(getattr(fn, "needs", [])) + list(paths)
        return fn
    return deco
