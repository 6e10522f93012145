"""QEMU + OVMF runs for the tests and the benchmark (stdlib only).

    from harness import esp, qemu
    tree = esp.loader_tree({"debian.conf": esp.entry("Debian", options)})
    r = qemu.run_qemu(esp.image(tree), 120, keys=[(r"Boot in", b"\\x1b[B"), (r"...", b"\\r")])
    init = qemu.expect_linux_saw(r, options)          # the HANDOFF-INIT report, checked
    qemu.expect_eq(init["efi"], True, "efi", r)

Machine: q35, -cpu max, 512 MiB, TCG, no display, no network (net=: net.py), serial on QEMU's
stdio, OVMF_CODE_4M read-only pflash + a per-run copy of OVMF_VARS_4M
(ia32=True: Debian's 32-bit OVMF, ovmf-ia32, on the same 64-bit CPU: mixed mode),
isa-debug-exit at 0xf4 (guest writes N -> QEMU exits 2N+1), -no-reboot (a
guest reset or poweroff ends QEMU). firmware="uboot": U-Boot's ROM as -bios
on the i440fx machine ("pc") it is built for, nothing in pflash; it boots
from a partition, so give it a GPT disk (disk.gpt_disk()). Firmware files:
firmware.py.

Disk: a bare FAT image (esp.image) boots: OVMF finds \\EFI\\BOOT\\BOOTX64.EFI
on it through its removable-media fallback. virtio-blk is the default
interface (see INTERFACES). disk.gpt_disk() makes a GPT disk (by `handoff
disk`) when a test needs a real partition.

Keys: OVMF's serial terminal (TerminalDxe) accepts ANSI/VT100 input: send
arrows as b"\\x1b[A"/b"\\x1b[B" (ESC and the rest in ONE write, or the
terminal may take a lone ESC), Enter as b"\\r". `keys` is an ordered
expect-script: entry i is armed after entry i-1 fired, and fires when its
regex matches the (ANSI-stripped) serial output received since the previous
key was sent, partial lines included.

Each run gets a directory under build/boot-tests/<test>/run-N/ with
serial.log (timestamped, ANSI-stripped), serial.raw, qemu.stderr, cmd.txt and
the VARS copy. The runner (tests/boot/run.py) sets the current test (case.py) so
run_qemu() knows where to put things; outside it, build/boot-tests/adhoc-<pid>/
is used.

AArch64 (firmware="aavmf"): qemu-system-aarch64, machine virt, -cpu
cortex-a57, TCG, AAVMF_CODE read-only pflash + a per-run copy of AAVMF_VARS;
serial on the PL011 (Linux: console=ttyAMA0); no isa-debug-exit. A bare FAT
image boots \\EFI\\BOOT\\BOOTAA64.EFI the same way. secure_boot: the
snakeoil store AAVMF_VARS.snakeoil.fd (no SMM there); tpm: tpm-tis-device.
firmware="uboot-aa64": the same machine with U-Boot's qemu_arm64 build as
-bios (no variable store); like U-Boot on x86 it wants a GPT disk.

TPM: with tpm=True the harness reads swtpm's SHA-256 PCRs itself once QEMU
has gone (Result.tpm_pcrs, firmware.read_pcrs()), for guests whose kernel
has no driver for the TPM (Debian's arm64 kernel and tpm-tis-device). Only
after a run that ends by stop_on (QEMU killed): at a clean exit QEMU shuts
swtpm down (CMD_SHUTDOWN) and the PCRs are gone (Result.tpm_error).
"""
import atexit
import dataclasses
import json
import os
import re
import select
import shutil
import signal
import subprocess
import threading
import time

from . import case, initramfs, ovmfvars, paths
from .firmware import aavmf, ovmf, read_pcrs, start_swtpm, stop_swtpm, uboot
from .host import HarnessError

QEMU = "qemu-system-x86_64"
QEMU_AA64 = "qemu-system-aarch64"
INTERFACES = ("virtio", "ide", "none")
FIRMWARE = ("ovmf", "uboot", "aavmf", "uboot-aa64", None)
AA64_FIRMWARE = ("aavmf", "uboot-aa64")


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
    tpm_pcrs: dict = None       # tpm=True: {pcr: SHA-256 value hex} swtpm holds after the run
    tpm_error: str = None       # why tpm_pcrs is None
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


def parse_tagged(line, tag):
    """The JSON object after @tag ("HANDOFF-INIT", "HANDOFF-PROBE") in @line,
    and None; or None and why there is none."""
    i = line.find(tag + " ")
    if i < 0:
        return None, None
    j = line.find("{", i)
    if j < 0:
        return None, "no JSON after %s" % tag
    try:
        obj, _ = json.JSONDecoder().raw_decode(line[j:])
        if tag == "HANDOFF-INIT":
            obj = initramfs.decode_report(obj)
        return obj, None
    except ValueError as e:
        return None, "%s JSON: %s: %r" % (tag, e, line[j:j + 200])


def run_qemu(disk_img, timeout_s, kernel=None, initrd=None, append=None, extra_args=(),
             keys=(), stop_on=None, interface="virtio", memory=512, vars_file=None,
             name=None, firmware="ovmf", secure_boot=False, tpm=False, ia32=False, net=None, prefix=()):
    """Boot QEMU/OVMF and collect the serial output. Never raises on guest failure.

    disk_img: raw image (FAT or GPT) or None. kernel/initrd/append: QEMU direct
    boot (OVMF still runs and starts the kernel via its EFI stub).
    keys: [(regex, bytes[, delay_s])] expect-script written to serial input;
    instead of bytes, a function is called (a QMP screendump: qmp.py).
    stop_on: regex; kill QEMU as soon as a line matches (Result.stopped).
    interface: "virtio" (virtio-blk, default), "ide" (AHCI on q35) or "none"
    (-drive if=none + your own -device in extra_args).
    vars_file: VARS template to copy (default: the build's OVMF_VARS after
    one boot manager start where ovmfvars.usable(), else the fresh one).
    firmware: "ovmf" (pflash; the build by secure_boot and ia32), "uboot"
    (U-Boot's ROM as -bios, machine pc; not with secure_boot, ia32, vars_file),
    "aavmf" (AArch64: qemu-system-aarch64, machine virt, cortex-a57, AAVMF in
    pflash; not with ia32, vars_file, interface "ide"), "uboot-aa64" (the
    same machine with U-Boot's AArch64 build as -bios; not with secure_boot) or None
    (QEMU's own BIOS, SeaBIOS: no UEFI), for experiments only.
    secure_boot: Debian's Secure Boot OVMF with the snakeoil keys enrolled
    (SMM, secure pflash), or AAVMF's snakeoil variable store; Secure Boot is on.
    tpm: a TPM 2.0 (swtpm, fresh state per run) on tpm-crb (AArch64:
    tpm-tis-device); its SHA-256 PCRs after the run in Result.tpm_pcrs.
    ia32: 32-bit UEFI firmware (firmware.BUILDS, SMM, secure pflash; no keys
    enrolled, so not with secure_boot) on the same 64-bit CPU.
    net: the network's QEMU arguments (net.http_args(), net.tftp_args(), ...)
    instead of no network at all.
    prefix: the command QEMU runs under (netns.Netns.exec_prefix(): in a
    network namespace).
    """
    aa64 = firmware in AA64_FIRMWARE
    qemu, package = (QEMU_AA64, "qemu-system-arm") if aa64 else (QEMU, "qemu-system-x86")
    if shutil.which(qemu) is None:
        raise HarnessError("%s not found: install the Debian package '%s' (scripts/deps.sh)" % (qemu, package))
    if interface not in INTERFACES:
        raise ValueError("interface must be one of %s" % (INTERFACES,))
    if ia32 and secure_boot:
        raise ValueError("no 32-bit OVMF with Secure Boot keys enrolled: ia32 and secure_boot exclude each other")
    if firmware not in FIRMWARE or (firmware != "ovmf" and (ia32 or vars_file)) or \
            (firmware not in ("ovmf", "aavmf") and secure_boot):
        raise ValueError("firmware must be one of %s; ia32 and vars_file are OVMF's, secure_boot OVMF's or AAVMF's"
                         % (FIRMWARE,))
    if aa64 and interface == "ide":
        raise ValueError("the AArch64 virt machine has no IDE")
    run_dir = os.path.join(case.workdir(), name or "run-%d" % (len(case.results()) + 1))
    if os.path.exists(run_dir):
        shutil.rmtree(run_dir)
    os.makedirs(run_dir)

    if ovmfvars.usable(disk_img, kernel, interface, net, vars_file, firmware, secure_boot, extra_args, memory):
        vars_file = ovmfvars.booted("ia32" if ia32 else "x64", lambda d, disk: _machine(
            firmware, secure_boot, ia32, None, d, memory) + ["-net", "none", "-drive", "file=%s,format=raw,if=virtio"
                                                             % disk])
    cmd = _machine(firmware, secure_boot, ia32, vars_file, run_dir, memory)
    cmd += list(net) if net is not None else ["-net", "none"]
    tpm_proc = None
    if tpm:
        tpm_proc, tpm_args = start_swtpm(run_dir, "tpm-tis-device" if aa64 else "tpm-crb")
        cmd += tpm_args
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
        f.write(" ".join(_shquote(c) for c in list(prefix) + cmd) + "\n")

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
    proc = subprocess.Popen(list(prefix) + cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_f,
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
            obj, err = parse_tagged(line, "HANDOFF-INIT")
            if obj is not None:
                res.init, res.init_time = obj, t
            elif err:
                res.json_errors.append(err)
        if "HANDOFF-PROBE" in line:
            obj, err = parse_tagged(line, "HANDOFF-PROBE")
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
                    if callable(keydata):
                        keydata()
                    else:
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
            try:
                res.tpm_pcrs = read_pcrs(tpm_proc)
            except (OSError, HarnessError) as e:
                res.tpm_error = "swtpm's PCRs after the run: %s" % e
            finally:
                stop_swtpm(tpm_proc)
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
    case.record(res)
    return res


def _machine(firmware, secure_boot, ia32, vars_file, run_dir, memory):
    """QEMU's command for the machine, its firmware and nothing else."""
    aa64 = firmware in AA64_FIRMWARE
    machine, fw_args = _firmware_args(firmware, secure_boot, ia32, vars_file, run_dir)
    cmd = [QEMU_AA64 if aa64 else QEMU, "-machine", machine, "-cpu", "cortex-a57" if aa64 else "max",
           "-m", str(memory), "-accel", "tcg", "-display", "none", "-no-reboot", "-serial", "stdio",
           "-monitor", "none"]
    if not aa64:
        cmd += ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    return cmd + fw_args


def _firmware_args(firmware, secure_boot, ia32, vars_file, run_dir):
    """The machine type and the arguments that give it @firmware (run_qemu())."""
    if firmware == "uboot":
        return "pc", ["-bios", uboot()]
    if firmware == "uboot-aa64":
        return "virt", ["-bios", uboot(aa64=True)]
    if firmware is None:
        return "q35", []
    code, vars_tmpl = aavmf(secure_boot) if firmware == "aavmf" else \
        ovmf("sb" if secure_boot else "ia32" if ia32 else "x64")
    vars_copy = os.path.join(run_dir, "OVMF_VARS.fd")
    shutil.copyfile(vars_file or vars_tmpl, vars_copy)
    args = ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + code,
            "-drive", "if=pflash,format=raw,unit=1,file=" + vars_copy]
    if firmware == "aavmf":
        return "virt", args
    if not (secure_boot or ia32):
        return "q35", args
    # both of these builds keep their variables in SMM, behind a secure pflash
    return "q35,smm=on", ["-global", "driver=cfi.pflash01,property=secure,value=on"] + args


# QEMU's own log of the guest's CPU exceptions and resets (TCG), for a run
# that is expected to crash: run_qemu(..., extra_args=CPU_LOG_ARGS), then
# first_exception(). QEMU writes it into the run's directory (its cwd).
CPU_LOG = "qemu-cpu.log"
CPU_LOG_ARGS = ("-d", "int,cpu_reset", "-D", CPU_LOG)
_EXCEPTION = re.compile(r"^\s*\d+: v=([0-9a-f]{2}) .* pc=([0-9a-f]+)")


def first_exception(res):
    """The first CPU exception (vector < 0x20; interrupts are not) in the run's
    CPU_LOG: (vector, rip, cr4), or None; and whether the log ends in a triple
    fault."""
    with open(os.path.join(res.run_dir, CPU_LOG), errors="replace") as f:
        found, triple = None, False
        for line in f:
            m = _EXCEPTION.match(line)
            if found is None and m and int(m.group(1), 16) < 0x20:
                found = [int(m.group(1), 16), int(m.group(2), 16), None]
            elif found is not None and found[2] is None and "CR4=" in line:
                found[2] = int(line.split("CR4=")[1].split()[0], 16)
            triple = triple or line.startswith("Triple fault")
    return (tuple(found) if found else None), triple


def _shquote(s):
    return s if re.fullmatch(r"[\w@%+=:,./-]+", s) else "'" + s.replace("'", "'\\''") + "'"


# --------------------------------------------------------------------------
# assertions: raise AssertionError with the serial log tail attached

def _last_result():
    rs = case.results()
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


def expect_linux_saw(res, cmdline, initrd=paths.INITRD, exact=True, fb="EFI", runtime=True):
    """What the kernel and the test initramfs report (HANDOFF-INIT), against
    what was configured: the command line (@exact: exactly @cmdline, else it
    contains it), /sys/firmware/efi, efivarfs entries (@runtime False: none,
    the line turned EFI runtime services off), the framebuffer named by
    /proc/fb (containing @fb; None: not checked) and the SHA-256 of
    /payload.bin from @initrd. Returns the report."""
    init = expect_init(res)
    if exact:
        expect_eq(init.get("cmdline"), cmdline, "kernel command line (exactly the configured options)", res)
    else:
        expect_in(cmdline, init.get("cmdline"), "the configured options in the kernel command line", res)
    expect_eq(init.get("efi"), True, "/sys/firmware/efi exists", res)
    if runtime:
        expect(isinstance(init.get("efivars"), int) and init["efivars"] > 0,
               "efivarfs lists variables (runtime services work), got %r" % init.get("efivars"), res)
    else:
        expect_eq(init.get("efivars"), 0, "efivarfs entries (EFI runtime services off)", res)
    if fb is not None:
        expect_in(fb, init.get("fb", ""), "/proc/fb names the EFI framebuffer", res)
    expect_eq(init.get("payload_sha256"), initramfs.expected_payload_sha256(initrd),
              "SHA-256 of /payload.bin from the initrd", res)
    return init
