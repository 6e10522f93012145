"""handoff run: disk images and kernel files booted in QEMU/OVMF, timeouts and
errors, and no QEMU left behind (stand-in QEMU scripts)."""
import os
import subprocess
import time

from harness import initramfs, qemu
from harness.esp import write as write_files
from common import (ARM64_KERNEL, BOOT_TIMEOUT, CACHE, INITRD, KERNEL, LOADERAA64, SDBOOT, TOOL, Tmp, fails, h,
                    need, ok, sha256, test)


def init_report(out):
    """The test initramfs's HANDOFF-INIT report in `handoff run`'s output, or None."""
    for line in out.decode(errors="replace").splitlines():
        report, _ = qemu.parse_tagged(line, "HANDOFF-INIT")
        if report is not None:
            return report
    return None


def payload_sha():
    return initramfs.expected_payload_sha256(INITRD)


def sdboot_esp(tmp, options):
    esp = os.path.join(tmp, "esp")
    write_files(esp, {"EFI/BOOT/BOOTX64.EFI": open(SDBOOT, "rb").read(), "loader/loader.conf": b"timeout 0\n"})
    ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD, "--options", options,
         "--entry-token", "t", "--version", "1"))
    return esp


@test
def run_disk_image_with_systemd_boot():
    """disk + run plumbing, with systemd-boot reading the same BLS entries."""
    with Tmp() as tmp:
        esp = sdboot_esp(tmp, "console=ttyS0 handoff.debug_exit=5")
        img = os.path.join(tmp, "d.img")
        ok(h("disk", "-o", img, "--esp", esp))
        digest = sha256(img)
        r = h("run", img, "--timeout", str(BOOT_TIMEOUT), timeout=BOOT_TIMEOUT + 30)
        rep = init_report(r.stdout)
        assert rep, r.stdout[-2000:]
        assert r.returncode == 5, f"exit {r.returncode}: {r.stderr!r}"
        assert "handoff.debug_exit=5" in rep["cmdline"] and rep["efi"] is True
        assert rep["payload_sha256"] == payload_sha()
        assert sha256(img) == digest, "run modified the image"


@test
def run_kernel_file_with_loader_option():
    """A kernel TARGET is staged with --loader and an entry from --initrd/--options."""
    r = h("run", KERNEL, "--loader", SDBOOT, "--initrd", INITRD, "--options", "console=ttyS0 handoff.debug_exit=7",
          "--timeout", str(BOOT_TIMEOUT), timeout=BOOT_TIMEOUT + 30)
    rep = init_report(r.stdout)
    assert rep and r.returncode == 7, f"exit {r.returncode}: {r.stderr!r} {r.stdout[-1500:]!r}"
    assert rep["payload_sha256"] == payload_sha()


@test
def run_aa64_disk_image():
    """`handoff disk --arch aa64` (handoffaa64.efi added as BOOTAA64.EFI) and
    `handoff run --arch aa64`: QEMU's virt machine with AAVMF boots Debian's
    arm64 kernel from a Type #1 entry; no isa-debug-exit on virt, so the
    guest's reboot after panic=-1 (QEMU's -no-reboot) is exit 0."""
    arm64_initrd = os.path.join(CACHE, "arm64", "initramfs.cpio.gz")
    need(LOADERAA64, ARM64_KERNEL, arm64_initrd)
    options = "console=ttyAMA0 handoff.marker=run-aa64 panic=-1"
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        write_files(esp, {"loader/loader.conf": b"timeout 0\n", "debian/vmlinuz": open(ARM64_KERNEL, "rb").read(),
                          "debian/initrd.img": open(arm64_initrd, "rb").read(),
                          "loader/entries/d.conf": ("title Debian\nlinux /debian/vmlinuz\n"
                                                    "initrd /debian/initrd.img\noptions %s\n" % options).encode()})
        img = os.path.join(tmp, "d.img")
        ok(h("disk", "-o", img, "--esp", esp, "--arch", "aa64"))
        r = h("run", img, "--arch", "aa64", "--timeout", str(BOOT_TIMEOUT), timeout=BOOT_TIMEOUT + 30)
        rep = init_report(r.stdout)
        assert rep and r.returncode == 0, f"exit {r.returncode}: {r.stderr!r} {r.stdout[-1500:]!r}"
        assert rep["cmdline"] == options and rep["efi"] is True, rep
        assert rep["payload_sha256"] == initramfs.expected_payload_sha256(arm64_initrd)
        assert b"handoff: booting 'Debian' by stub" in r.stdout, r.stdout[-1500:]


@test
def run_timeout_and_errors():
    """Errors are said plainly, and no path leaves a work directory behind
    (each call gets its own TMPDIR: /tmp is shared with whatever else runs)."""
    with Tmp() as tmp:
        work = os.path.join(tmp, "work")
        os.mkdir(work)

        def run(*args, env=None, **kw):
            return h("run", *args, env=dict(env or {}, TMPDIR=work), **kw)
        fails(run(SDBOOT, "--timeout", "3", timeout=60), 124, "timed out after 3 s")
        assert os.listdir(work) == [], "run left its work directory"
        fails(run(SDBOOT, env={"HANDOFF_OVMF_DIR": tmp}), 1, "install the Debian package ovmf")
        fails(run(SDBOOT, env={"HANDOFF_QEMU": os.path.join(tmp, "qemu")}), 1, "qemu-system-x86")
        fails(run(SDBOOT, "--timeout", "30", "--", "-bogus-option"), 1, "QEMU failed")
        fails(run("/etc/hostname"), 1, "not a disk image")
        fails(run(LOADERAA64, env={"HANDOFF_AAVMF_DIR": tmp}), 1, "install the Debian package qemu-efi-aarch64")
        fails(run(LOADERAA64, "--arch", "x64"), 2, "an EFI application for aa64: --arch x64 cannot run it")
        fails(run(KERNEL, "--arch", "aa64"), 2, "an x86 kernel for x64: --arch aa64 cannot run it")
        fails(run(SDBOOT, "--arch", "arm"), 2, "expected x64 or aa64")
        fails(run(os.path.join(tmp, "missing")), 1, "No such file")
        r = run(SDBOOT, "--protocol", "handover")
        assert r.returncode == 2, r.stderr
        assert os.listdir(work) == [], "a failed run left its work directory: %s" % os.listdir(work)


def fake_qemu(tmp, script):
    """An executable standing in for QEMU (HANDOFF_QEMU), running @script."""
    path = os.path.join(tmp, "fake-qemu")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + script + "\n")
    os.chmod(path, 0o755)
    return path


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def gone(pid, within):
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split(") ", 1)[1].startswith("Z"):
                    return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


@test
def run_kills_a_qemu_that_ignores_sigterm():
    """--timeout sends SIGTERM, then SIGKILL after a grace period: QEMU can hang
    on a SIGTERM that arrives while OVMF starts (seen in make check)."""
    with Tmp() as tmp:
        q = fake_qemu(tmp, "trap '' TERM\nexec sleep 60")
        t0 = time.monotonic()
        r = h("run", SDBOOT, "--timeout", "1", env={"HANDOFF_QEMU": q, "TMPDIR": tmp}, timeout=30)
        took = time.monotonic() - t0
        fails(r, 124, "timed out after 1 s")
        assert took < 20, f"took {took:.1f} s"


@test
def run_killed_leaves_no_qemu():
    """A `handoff run` killed with SIGKILL (a test harness's timeout) takes QEMU with it."""
    with Tmp() as tmp:
        q = fake_qemu(tmp, "exec sleep 60")
        e = dict(os.environ, HANDOFF_QEMU=q, TMPDIR=tmp)
        p = subprocess.Popen([TOOL, "run", SDBOOT], env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 20
        while not children(p.pid) and time.monotonic() < end:
            time.sleep(0.1)
        kids = children(p.pid)
        p.kill()
        p.wait()
        assert kids, "handoff run started no QEMU"
        assert all(gone(k, 5) for k in kids), f"QEMU {kids} outlived handoff run"
