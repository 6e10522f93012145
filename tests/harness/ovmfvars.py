"""OVMF variable stores that have been through one boot manager start, for
the runs that would only repeat it (qemu.run_qemu()).

A fresh copy of Debian's OVMF_VARS*.fd makes the firmware create its boot
options, console, language and iSCSI attempt variables on every boot (flash
writes: 1.2-1.5 s of CPU time of a TCG boot's ~5 s to the boot manager,
x64 and ia32). booted() makes one store per OVMF build by starting that
firmware once on the standard machine (no network, a bare FAT image on
virtio-blk: the same boot options a test's run gets) and stopping it at
the boot manager's first "BdsDxe:" line, which comes before any boot
option is started: nothing of a loader is in it. Only a run with that same
machine (usable()) takes it: any other device would be a new boot option
after the EFI shell in BootOrder, so such runs keep the fresh store.
"""
import os
import shutil
import subprocess
import threading

from . import esp, firmware, host, paths

DIR = os.path.join(paths.TESTS_OUT, "ovmf-vars")
_lock = threading.Lock()
_DEVICE_ARGS = ("-device", "-drive", "-net", "-netdev", "-nic", "-blockdev", "-usb", "-usbdevice")


def bare_fat(img):
    """Whether @img is a bare FAT file system (esp.image()), no partition table."""
    with open(img, "rb") as f:
        head = f.read(1024)
    return head[510:512] == b"\x55\xaa" and head[512:520] != b"EFI PART" and \
        (head[0x52:0x57] == b"FAT32" or head[0x36:0x39] == b"FAT")


def usable(disk_img, kernel, interface, net, vars_file, firmware_, secure_boot, extra_args, memory):
    """Whether a run with these run_qemu() arguments has the machine booted()
    used. Not the Secure Boot build: its template (keys enrolled by a boot)
    has been through the boot manager already and gains nothing."""
    return (firmware_ == "ovmf" and not secure_boot and vars_file is None and net is None and kernel is None
            and memory == 512
            and interface == "virtio" and disk_img is not None and bare_fat(disk_img)
            and not any(a in _DEVICE_ARGS for a in extra_args))


def booted(build, command):
    """The booted store of OVMF build @build (firmware.BUILDS), made once and
    again when the firmware is newer. @command(run_dir, disk) gives the QEMU
    command of the standard machine with a fresh store (run_dir/OVMF_VARS.fd)
    and that disk."""
    code, template = firmware.ovmf(build)
    out = os.path.join(DIR, build + ".fd")
    with _lock:
        if os.path.exists(out) and os.path.getmtime(out) >= max(os.path.getmtime(code), os.path.getmtime(template)):
            return out
        os.makedirs(DIR, exist_ok=True)
        blank_dir = os.path.join(DIR, "blank")
        os.makedirs(blank_dir, exist_ok=True)
        disk = esp.image(blank_dir, os.path.join(DIR, "blank.img"))
        run_dir = os.path.join(DIR, build)
        shutil.rmtree(run_dir, ignore_errors=True)
        os.makedirs(run_dir)
        log = os.path.join(run_dir, "serial.raw")
        with open(log, "wb") as serial:
            seen = _until_boot_manager(command(run_dir, disk), serial)
        if not seen:
            raise host.HarnessError("OVMF (%s) never reached its boot manager; see %s" % (build, log))
        os.replace(os.path.join(run_dir, "OVMF_VARS.fd"), out)
        return out


def _until_boot_manager(cmd, serial, timeout_s=300):
    """Run @cmd until its serial output has a "BdsDxe:" line; kill it then."""
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    timer, seen = threading.Timer(timeout_s, p.kill), False
    timer.start()
    try:
        for line in p.stdout:
            serial.write(line)
            if b"BdsDxe:" in line:
                seen = True
                break
    finally:
        timer.cancel()
        p.kill()
        p.wait()
        p.stdout.close()
    return seen
