"""The machine's firmware side: Debian's OVMF builds (ovmf, ovmf-ia32), AAVMF
for AArch64 (qemu-efi-aarch64) and U-Boot's (u-boot-qemu), the snakeoil key OVMF's and AAVMF's Secure Boot
variable stores trust and signing with it (sbsigntool), and a software TPM 2.0 (swtpm) for measured boot,
whose PCRs the harness can read itself after the run (read_pcrs())."""
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time

from . import host

OVMF_DIRS = ("/usr/share/OVMF", "/usr/share/ovmf")
# build -> (code, vars, Debian package). "sb": Secure Boot with the snakeoil
# key enrolled as PK, KEK and db (pass phrase "snakeoil"). "ia32": the only
# 32-bit build Debian ships is the Secure Boot one; it needs SMM and a secure
# pflash (qemu.run_qemu adds both) and has no keys enrolled, so Secure Boot is off.
BUILDS = {
    "x64": ("OVMF_CODE_4M.fd", "OVMF_VARS_4M.fd", "ovmf"),
    "sb": ("OVMF_CODE_4M.snakeoil.fd", "OVMF_VARS_4M.snakeoil.fd", "ovmf"),
    "ia32": ("OVMF32_CODE_4M.secboot.fd", "OVMF32_VARS_4M.fd", "ovmf-ia32"),
}
# U-Boot's UEFI (Debian's u-boot-qemu, 2023.01): SPL and 64-bit U-Boot in one
# ROM for -bios on QEMU's i440fx machine ("pc"), with no variable store. It
# starts \EFI\BOOT\BOOTX64.EFI from a partition of the disk (a GPT disk);
# what Linux needs there: docs/compatibility.md "U-Boot".
UBOOT_ROM = "/usr/lib/u-boot/qemu-x86_64/u-boot.rom"
# The same package's AArch64 build for QEMU's virt machine, as -bios: it too
# starts \EFI\BOOT\BOOTAA64.EFI from the ESP of a GPT disk on virtio.
UBOOT_AA64 = "/usr/lib/u-boot/qemu_arm64/u-boot.bin"
# EDK II for QEMU's AArch64 "virt" machine (Debian's qemu-efi-aarch64): code
# and a variable store template, both 64 MiB pflash images. One code image
# for all (AAVMF_CODE.snakeoil.fd is a link to it: authenticated variables need
# no SMM there); the snakeoil store has the snakeoil key as PK, KEK and db, so
# Secure Boot is on, as with OVMF's "sb" build.
AAVMF_CODE = "/usr/share/AAVMF/AAVMF_CODE.fd"
AAVMF_VARS = "/usr/share/AAVMF/AAVMF_VARS.fd"
AAVMF_VARS_SB = "/usr/share/AAVMF/AAVMF_VARS.snakeoil.fd"
SNAKEOIL_KEY = "/usr/share/ovmf/PkKek-1-snakeoil.key"
SNAKEOIL_CERT = "/usr/share/ovmf/PkKek-1-snakeoil.pem"


def ovmf(build="x64"):
    """(code, vars template) of one of BUILDS."""
    code_name, vars_name, package = BUILDS[build]
    for d in OVMF_DIRS:
        code, vars_ = os.path.join(d, code_name), os.path.join(d, vars_name)
        if os.path.isfile(code) and os.path.isfile(vars_):
            return code, vars_
    raise host.HarnessError("OVMF firmware (%s, %s) not found in %s: install the Debian package '%s' "
                            "(scripts/deps.sh)" % (code_name, vars_name, " or ".join(OVMF_DIRS), package))


def aavmf(secure_boot=False):
    """(code, vars template) of AAVMF, the snakeoil store with @secure_boot;
    HarnessError naming its package when missing."""
    return (host.need_file(AAVMF_CODE, "qemu-efi-aarch64"),
            host.need_file(AAVMF_VARS_SB if secure_boot else AAVMF_VARS, "qemu-efi-aarch64"))


def uboot(aa64=False):
    """The U-Boot ROM (UBOOT_ROM, or UBOOT_AA64 with @aa64); HarnessError
    naming its package when missing."""
    return host.need_file(UBOOT_AA64 if aa64 else UBOOT_ROM, "u-boot-qemu")


def snakeoil_key(out_dir):
    """The snakeoil private key without its pass phrase (sbsign cannot take one), and its certificate."""
    key = os.path.join(out_dir, "snakeoil.key")
    if not os.path.exists(key):
        host.run(["openssl", "pkey", "-in", SNAKEOIL_KEY, "-passin", "pass:snakeoil", "-out", key])
    return key, SNAKEOIL_CERT


def sbsign(src, dst, key, cert):
    """Sign src into dst (sbsigntool), replacing any signature src has."""
    host.need_tool("sbsign", "sbsigntool")
    tmp = dst + ".unsigned"
    shutil.copyfile(src, tmp)
    subprocess.run(["sbattach", "--remove", tmp], capture_output=True)  # fails harmlessly when unsigned
    host.run(["sbsign", "--key", key, "--cert", cert, "--output", dst, tmp])
    os.unlink(tmp)
    return dst


def start_swtpm(run_dir, device="tpm-crb"):
    """swtpm (TPM 2.0, fresh state) on a Unix socket. Returns the process
    and the QEMU arguments that attach it as @device (tpm-crb on q35,
    tpm-tis-device on AArch64's virt). It outlives QEMU's connection (no
    --terminate), so that read_pcrs() can ask it after the run; stop it with
    stop_swtpm()."""
    host.need_tool("swtpm", "swtpm")
    d = tempfile.mkdtemp(prefix="handoff-tpm-")  # short path: Unix sockets take ~100 bytes
    sock = os.path.join(d, "swtpm.sock")
    log = open(os.path.join(run_dir, "swtpm.log"), "wb")
    p = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + d,
                          "--ctrl", "type=unixio,path=" + sock],
                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    p.tpm_dir, p.log, p.ctrl = d, log, sock
    for _ in range(100):
        if os.path.exists(sock) or p.poll() is not None:
            break
        time.sleep(0.05)
    if not os.path.exists(sock):
        stop_swtpm(p)
        raise host.HarnessError("swtpm did not start (see %s)" % os.path.join(run_dir, "swtpm.log"))
    return p, ["-chardev", "socket,id=chrtpm,path=" + sock, "-tpmdev", "emulator,id=tpm0,chardev=chrtpm",
               "-device", device + ",tpmdev=tpm0"]


# swtpm's control channel (swtpm's tpm_ioctl.h, the protocol QEMU speaks):
# big-endian 32-bit command codes; CMD_SET_DATAFD passes the socket TPM
# commands then go over (SCM_RIGHTS), the reply is a 32-bit result.
CMD_SET_DATAFD = 16
TPM_ST_NO_SESSIONS = 0x8001
TPM_CC_PCR_READ = 0x0000017E


def read_pcrs(p, bank="sha256", pcrs=range(24)):
    """{pcr: value} of @bank in swtpm @p (start_swtpm()) as the TPM holds
    them now, by TPM2_PCR_Read (TPM 2.0 Part 3 §22.4) sent as QEMU sends
    commands; for a guest whose kernel has no driver for its TPM. A PCR the
    TPM does not report is absent."""
    alg = {"sha1": 0x0004, "sha256": 0x000B, "sha384": 0x000C, "sha512": 0x000D}[bank]
    ctrl, (mine, theirs) = socket.socket(socket.AF_UNIX), socket.socketpair()
    with ctrl, mine, theirs:
        ctrl.settimeout(5)
        mine.settimeout(5)
        ctrl.connect(p.ctrl)
        socket.send_fds(ctrl, [struct.pack(">I", CMD_SET_DATAFD)], [theirs.fileno()])
        if ctrl.recv(4) != bytes(4):
            raise host.HarnessError("swtpm refused CMD_SET_DATAFD (see %s)" % p.log.name)
        out, todo = {}, sorted(pcrs)
        while todo:  # the TPM returns at most 8 digests per call: ask again for the rest
            sel = bytearray(3)
            for i in todo:
                sel[i // 8] |= 1 << (i % 8)
            body = struct.pack(">IHB", 1, alg, 3) + bytes(sel)
            mine.sendall(struct.pack(">HII", TPM_ST_NO_SESSIONS, 10 + len(body), TPM_CC_PCR_READ) + body)
            got = _pcr_read_response(_recv_response(mine))
            if not got:
                break
            out.update(got)
            todo = [i for i in todo if i not in got]
        return out


def _recv_response(s):
    head = b""
    while len(head) < 10:
        chunk = s.recv(10 - len(head))
        if not chunk:
            raise host.HarnessError("swtpm closed the data channel")
        head += chunk
    size = struct.unpack_from(">I", head, 2)[0]
    body = head
    while len(body) < size:
        chunk = s.recv(size - len(body))
        if not chunk:
            raise host.HarnessError("swtpm closed the data channel")
        body += chunk
    return body


def _pcr_read_response(r):
    """TPM2_PCR_Read's response: {pcr: digest hex, upper case} of the PCRs it
    selected (pcrSelectionOut, then the digests in the same order)."""
    rc = struct.unpack_from(">I", r, 6)[0]
    if rc != 0:
        raise host.HarnessError("TPM2_PCR_Read: response code %#x" % rc)
    off = 14  # header, pcrUpdateCounter
    n_sel = struct.unpack_from(">I", r, off)[0]
    off += 4
    selected = []
    for _ in range(n_sel):
        size = r[off + 2]
        bits = r[off + 3:off + 3 + size]
        selected += [8 * j + b for j in range(size) for b in range(8) if bits[j] >> b & 1]
        off += 3 + size
    n_dig = struct.unpack_from(">I", r, off)[0]
    off += 4
    out = {}
    for i in selected[:n_dig]:
        size = struct.unpack_from(">H", r, off)[0]
        out[i] = r[off + 2:off + 2 + size].hex().upper()
        off += 2 + size
    return out


def _free_port_pair():
    """A TCP port N on 127.0.0.1 with N + 1 free too (swtpm's TCTI takes the control port as N + 1)."""
    for _ in range(50):
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", 0))
            port = a.getsockname()[1]
            try:
                b.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return port
    raise host.HarnessError("no two adjacent free TCP ports")


def start_swtpm_tcp(run_dir):
    """swtpm (TPM 2.0, fresh state, started up) on TCP for host programs:
    --tpm2-device=swtpm:host=127.0.0.1,port=N (libtss2-tcti-swtpm0). Returns
    the process and N; stop it with stop_swtpm()."""
    host.need_tool("swtpm", "swtpm")
    d = tempfile.mkdtemp(prefix="handoff-tpm-")
    port = _free_port_pair()
    log = open(os.path.join(run_dir, "swtpm-tcp.log"), "wb")
    p = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + d,
                          "--server", "type=tcp,port=%d" % port, "--ctrl", "type=tcp,port=%d" % (port + 1),
                          "--flags", "not-need-init,startup-clear"],
                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    p.tpm_dir, p.log = d, log
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p, port
        except OSError:
            if p.poll() is not None:
                break
            time.sleep(0.05)
    stop_swtpm(p)
    raise host.HarnessError("swtpm did not start (see %s)" % os.path.join(run_dir, "swtpm-tcp.log"))


def stop_swtpm(p):
    host.stop(p)
    p.log.close()
    shutil.rmtree(p.tpm_dir, ignore_errors=True)
