"""The machine's firmware side: Debian's OVMF builds (ovmf, ovmf-ia32), AAVMF
for AArch64 (qemu-efi-aarch64) and U-Boot's (u-boot-qemu), the snakeoil key OVMF's Secure Boot build trusts and
signing with it (sbsigntool), and a software TPM 2.0 (swtpm) for measured boot."""
import os
import shutil
import socket
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
# EDK II for QEMU's AArch64 "virt" machine (Debian's qemu-efi-aarch64): code
# and a variable store template, both 64 MiB pflash images.
AAVMF_CODE = "/usr/share/AAVMF/AAVMF_CODE.fd"
AAVMF_VARS = "/usr/share/AAVMF/AAVMF_VARS.fd"
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


def aavmf():
    """(code, vars template) of AAVMF; HarnessError naming its package when missing."""
    return host.need_file(AAVMF_CODE, "qemu-efi-aarch64"), host.need_file(AAVMF_VARS, "qemu-efi-aarch64")


def uboot():
    """The U-Boot ROM (UBOOT_ROM); HarnessError naming its package when missing."""
    return host.need_file(UBOOT_ROM, "u-boot-qemu")


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


def start_swtpm(run_dir):
    """swtpm (TPM 2.0, fresh state) on a Unix socket. Returns the process
    and the QEMU arguments that attach it (tpm-crb)."""
    host.need_tool("swtpm", "swtpm")
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
        stop_swtpm(p)
        raise host.HarnessError("swtpm did not start (see %s)" % os.path.join(run_dir, "swtpm.log"))
    return p, ["-chardev", "socket,id=chrtpm,path=" + sock, "-tpmdev", "emulator,id=tpm0,chardev=chrtpm",
               "-device", "tpm-crb,tpmdev=tpm0"]


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
