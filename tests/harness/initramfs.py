#!/usr/bin/python3
"""Build the busybox initramfs used by the boot tests (stdlib only).

Used by tests/boot/mkinitramfs.sh; importable so tests can build variants:

    from harness import initramfs
    sha = initramfs.build("out.cpio.gz", pad_mib=0, extra_files={"/etc/x": b"..."})

The archive is written in the kernel's "newc" cpio format by Python itself, so
device nodes (/dev/console, /dev/ttyS0, /dev/null) can be included without root
and the output is byte-for-byte reproducible (fixed mtimes/uids, sorted order).

Layout:
  /bin/busybox            from busybox-static (/bin/busybox or /usr/bin/busybox), or
                          another architecture's (--busybox FILE: busybox-static:arm64's,
                          tests/boot/fetch-arm64.sh), its applets named by the host's
                          busybox of the same package, which is the same configuration
  /bin/<applet>           symlinks to busybox for every applet it has
  /init                   the report script (INIT_SCRIPT below)
  /lib/modules/*.ko       efivarfs.ko from the fetched Debian kernel (it is =m there),
                          or from another kernel's module directory (--modules DIR)
  /payload.bin            4 MiB deterministic pseudo-random data; its SHA-256 is
                          returned and written to OUT.sha256 by the CLI
  /pad.bin                (--pad-mib N only) N MiB of incompressible data

Compression: the standard archive is gzip -9 (the kernel checks the magic).
With --pad-mib N the archive is written UNCOMPRESSED whatever the name says:
pad data is random, so gzip would only add CPU time (and on TCG, a lot of it)
to every boot of a benchmark whose point is the loader's file I/O.
"""
import gzip
import hashlib
import os
import shutil
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.join(ROOT, "build", "boot-cache")

PAYLOAD_SEED = b"handoff boot-test payload v1"
PAYLOAD_SIZE = 4 << 20
PAD_SEED = b"handoff boot-test pad v1"

INIT_SCRIPT = r'''#!/bin/sh
# handoff boot-test init (tests/harness/initramfs.py). Prints one report line and
# powers off. Cmdline knobs: handoff.debug_exit=N -> write N to QEMU's
# isa-debug-exit port 0xf4 (QEMU exits with status 2N+1) instead of poweroff;
# handoff.shell=1 -> drop to a shell on the console after the report;
# handoff.setvar=NAME=VALUE (repeatable) -> after the report, write the
# non-volatile Boot Loader Interface variable NAME (UCS-2 VALUE, as bootctl
# does) and reboot instead of powering off.
# Every process costs milliseconds under TCG, on every boot of every test:
# files are read with the shell's `read`, and raw bytes go to the host in hex
# (decode_report() below turns them into the report's fields).
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# Keep kernel messages from interleaving with the report line.
echo 1 > /proc/sys/kernel/printk 2>/dev/null
read -r t0 _ < /proc/uptime

jesc() {  # JSON-escape stdin (\ " tab; other control characters dropped)
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/	/\\t/g' | tr -d '\000-\010\012-\037'
}
# readj VAR FILE: the first line of FILE into VAR, JSON-escaped ("" if absent);
# a process only when there is something to escape.
readj() {
    eval "$1="
    [ -r "$2" ] || return 0
    IFS= read -r _v < "$2"
    case "$_v" in *[\\\"]*|*[[:cntrl:]]*) _v=$(printf '%s\n' "$_v" | jesc) ;; esac
    eval "$1=\$_v"
}
# hex FILE [od options]: FILE's bytes as one hex string.
hex() {
    set -- $(od -An -v -tx1 "$@" 2>/dev/null)
    IFS=
    echo "$*"
    unset IFS
}

efi=false
nvars=0
gv=/sys/firmware/efi/efivars
if [ -d /sys/firmware/efi ]; then
    efi=true
    for m in /lib/modules/*.ko; do [ -f "$m" ] && insmod "$m" 2>/dev/null; done
    if mount -t efivarfs efivarfs $gv 2>/dev/null; then
        set -- $gv/*
        [ -e "$1" ] && nvars=$#
    fi
fi
# The Boot Loader Interface variables (every one the loader set) and
# SecureBoot and SetupMode, raw: their sizes (efivarfs: 4 bytes of attributes,
# then the value) and all their bytes in one hex string, in that order.
vsizes=
vhex=
vfiles=
for f in $gv/*-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f $gv/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c \
         $gv/SetupMode-8be4df61-93ca-11d2-aa0d-00e098032b8c; do
    [ -f "$f" ] && vfiles="$vfiles $f"
done
if [ -n "$vfiles" ]; then
    set -- $(stat -c '%n %s' $vfiles)
    vsizes="$*"
    vhex=$(hex $vfiles)
fi
# The Secure Boot databases as stored: the SHA-256 of PK, KEK and db after
# efivarfs's 4 attribute bytes ("" when absent).
sbdb=
for v in PK-8be4df61-93ca-11d2-aa0d-00e098032b8c KEK-8be4df61-93ca-11d2-aa0d-00e098032b8c \
         db-d719b2cb-3d3a-4596-a3bc-dad00e67656f; do
    h=
    [ -f $gv/$v ] && set -- $(tail -c +5 $gv/$v | sha256sum) && h=$1
    sbdb="$sbdb${sbdb:+,}\"${v%%-*}\":\"$h\""
done
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
# What the kernel made of it: its lockdown level (the bracketed word; a signed
# Debian kernel locks itself down to "integrity" under Secure Boot).
readj lockdown /sys/kernel/security/lockdown
case "$lockdown" in *"["*"]"*) lockdown=${lockdown#*[}; lockdown=${lockdown%%]*} ;; *) lockdown= ;; esac
# With a TPM: the sha256 PCRs a boot loader and a stub measure into, and the
# firmware's event log (on a line of its own, base64) so the host can replay it.
tpm=
if [ -d /sys/class/tpm/tpm0/pcr-sha256 ]; then
    for i in 4 9 11 12 13; do read -r p < /sys/class/tpm/tpm0/pcr-sha256/$i; tpm="$tpm\"$i\":\"$p\","; done
    tpm=",\"pcr_sha256\":{${tpm%,}}"
fi
# The kernel's own copy of the zero page (boot.rst) from efi_info's loader
# signature (0x1c0) to type_of_loader (0x210), as the kernel keeps it (x86).
bphex=
[ -r /sys/kernel/boot_params/data ] && bphex=$(hex -j448 -N81 /sys/kernel/boot_params/data)
# The payload's and the extra file's SHA-256, in one process.
sha=
extra_sha=
[ -f /extra.bin ] && extra=/extra.bin || extra=
set -- $(sha256sum /payload.bin $extra 2>/dev/null)
[ "$2" = /payload.bin ] && sha=$1
[ "$4" = /extra.bin ] && extra_sha=$3
# Files a stub appended to the initrd in /.extra (systemd-stub: the UKI's
# .pcrsig and .pcrpkey; credentials and extensions in its subdirectories), by
# path under /.extra: SHA-256 and octal mode; each subdirectory ("name/") by mode.
dotextra=
for d in /.extra/*/; do
    [ -d "$d" ] || continue
    d=${d%/}
    dotextra="$dotextra${dotextra:+,}\"${d#/.extra/}/\":{\"mode\":\"$(stat -c %a "$d")\"}"
done
for f in /.extra/* /.extra/*/*; do
    [ -f "$f" ] || continue
    set -- $(sha256sum "$f")
    dotextra="$dotextra${dotextra:+,}\"${f#/.extra/}\":{\"sha256\":\"$1\",\"mode\":\"$(stat -c %a "$f")\"}"
done
IFS= read -r rawcmdline < /proc/cmdline
readj cmdline /proc/cmdline
readj fb /proc/fb
# 32 or 64: the firmware's word size as the kernel found it (32: mixed mode)
fwsize=
[ -r /sys/firmware/efi/fw_platform_size ] && read -r fwsize < /sys/firmware/efi/fw_platform_size
read -r release < /proc/sys/kernel/osrelease
read -r t1 _ < /proc/uptime
# the root node's model in the device tree Linux took (AArch64 with one: it
# ignores ACPI then), NULs dropped; null without one (no process: '[' is built in)
dtmodel=null
[ -f /proc/device-tree/model ] && dtmodel="\"$(tr -d '\000' < /proc/device-tree/model | jesc)\""

report="{\"cmdline\":\"$cmdline\"$tpm,\"efi\":$efi,\"efivars\":$nvars,\"fb\":\"$fb\""
report="$report,\"payload_sha256\":\"$sha\",\"extra_sha256\":\"$extra_sha\""
report="$report,\"dot_extra\":{$dotextra},\"bp_hex\":\"$bphex\""
report="$report,\"lockdown\":\"$lockdown\",\"sb_db\":{$sbdb}"
report="$report,\"fw_platform_size\":\"$fwsize\",\"efivar_sizes\":\"$vsizes\",\"efivar_hex\":\"$vhex\""
report="$report,\"dt_model\":$dtmodel"
report="HANDOFF-INIT $report,\"init_uptime\":\"$t0 $t1\"}"
banner="handoff demo: Linux $release booted, initramfs running"

# /dev/console is the last console in /sys/class/tty/console/active. If that
# is not ttyS0, write to /dev/ttyS0 as well so the serial log gets the line once.
extra=
active=
[ -r /sys/class/tty/console/active ] && read -r active < /sys/class/tty/console/active
last=${active##* }
if [ "$last" != ttyS0 ] && [ -c /dev/ttyS0 ]; then extra=/dev/ttyS0; fi
say() {
    echo "$1" > /dev/console
    [ -n "$extra" ] && echo "$1" > "$extra" 2>/dev/null
}
say "$banner"
say "$report"
if [ -n "$tpm" ] && [ -f /sys/kernel/security/tpm0/binary_bios_measurements ]; then
    say "HANDOFF-EVENTLOG $(base64 /sys/kernel/security/tpm0/binary_bios_measurements | tr -d '\n')"
fi

case " $rawcmdline " in
    *" handoff.shell=1 "*) setsid cttyhack sh ;;
esac
setvars=0
code=
for w in $rawcmdline; do
    case "$w" in
    handoff.debug_exit=*) code=${w#handoff.debug_exit=} ;;
    handoff.setvar=*=*)
        kv=${w#handoff.setvar=}
        # attributes NV|BS|RT, then the value in UCS-2 with its NUL; efivarfs
        # wants it in one write(), hence dd with one block.
        v=${kv#*=}
        { printf '\007\000\000\000'; i=0; while [ $i -lt ${#v} ]; do printf '%s\000' "${v:$i:1}"; i=$((i + 1)); done
          printf '\000\000'; } > /tmp/var
        efivar=/sys/firmware/efi/efivars/${kv%%=*}-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f
        dd if=/tmp/var of=$efivar bs=4096 2>/dev/null &&
            setvars=$((setvars + 1)) && say "HANDOFF-INIT set ${kv%%=*}" ;;
    esac
done
if [ "$setvars" -gt 0 ]; then
    sync
    reboot -f
    sleep 5
fi
if [ -n "$code" ]; then
    printf "\\$(printf '%03o' "$code")" | dd of=/dev/port bs=1 seek=244 2>/dev/null
fi
sync
poweroff -f
sleep 5
echo "HANDOFF-INIT-ERROR poweroff failed" > /dev/console
'''


BLI_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
# The variables the report names in "loader" ("" when the loader did not set one).
LOADER_VARS = ("LoaderEntryOneShot", "LoaderConfigTimeoutOneShot", "LoaderInfo", "LoaderEntrySelected",
               "LoaderDevicePartUUID", "LoaderImageIdentifier", "HandoffBootScheme")


def _efivars(sizes, hexdata):
    """{NAME-GUID: value bytes} from the report's efivar_sizes ("PATH SIZE ...",
    each efivarfs file's size: 4 attribute bytes and the value) and
    efivar_hex (the files' bytes, in that order)."""
    words = sizes.split()
    data = bytes.fromhex(hexdata)
    if len(words) % 2 or sum(int(n) for n in words[1::2]) != len(data):
        raise ValueError("efivar_sizes %r do not add up to the %d bytes of efivar_hex" % (sizes, len(data)))
    out, at = {}, 0
    for path, n in zip(words[::2], words[1::2]):
        out[path.rsplit("/", 1)[-1]] = data[at + 4:at + int(n)]
        at += int(n)
    return out


def _ucs2(value):
    return value.decode("utf-16-le", errors="replace").split("\0", 1)[0]


def decode_report(obj):
    """The HANDOFF-INIT report's fields that INIT_SCRIPT leaves to the host
    (it sends raw bytes in hex, as each process it would start to decode them
    costs milliseconds under TCG): "bli_hex" (every Boot Loader Interface
    variable, hex of its value), "loader" (LOADER_VARS as strings),
    "secureboot" and "setupmode" (the variable's byte, decimal; "" when
    absent), and from the kernel's zero page "bp_efi_sig" (efi_info's loader
    signature, 0x1c0), "bp_secure_boot" (0x1ec) and "bp_type_of_loader"
    (0x210), None without one. Raises ValueError on a report that does not
    add up."""
    if "efivar_hex" not in obj:
        return obj
    vars_ = _efivars(obj.pop("efivar_sizes"), obj.pop("efivar_hex"))
    bli = {k[:-len(BLI_GUID) - 1]: v for k, v in vars_.items() if k.endswith("-" + BLI_GUID)}
    obj["bli_hex"] = {k: v.hex() for k, v in bli.items()}
    obj["loader"] = {k: _ucs2(bli[k]) if k in bli else "" for k in LOADER_VARS}
    for key, name in (("secureboot", "SecureBoot"), ("setupmode", "SetupMode")):
        v = vars_.get(name + "-8be4df61-93ca-11d2-aa0d-00e098032b8c", b"")
        obj[key] = str(v[-1]) if v else ""
    bp = bytes.fromhex(obj.pop("bp_hex", ""))
    if bp and len(bp) != 81:
        raise ValueError("bp_hex: %d bytes, not 81 (0x1c0..0x210)" % len(bp))
    obj["bp_efi_sig"] = "".join(c for c in bp[0:4].decode("latin-1") if c.isascii() and c.isalnum()
                                and not c.islower())
    obj["bp_secure_boot"] = bp[0x1ec - 0x1c0] if bp else None
    obj["bp_type_of_loader"] = bp[0x210 - 0x1c0] if bp else None
    return obj


def payload_bytes():
    return hashlib.shake_256(PAYLOAD_SEED).digest(PAYLOAD_SIZE)


def payload_sha256():
    return hashlib.sha256(payload_bytes()).hexdigest()


def expected_payload_sha256(archive):
    """The payload_sha256 the guest must report for @archive (a path relative
    to the repository root, or absolute): from ARCHIVE.sha256, written beside
    it when it was built (main())."""
    with open(os.path.join(ROOT, archive + ".sha256")) as f:
        return f.read().split()[0]


def _pad_chunks(mib):
    for i in range(mib):
        yield hashlib.shake_256(PAD_SEED + i.to_bytes(8, "little")).digest(1 << 20)


def find_busybox():
    for p in ("/bin/busybox", "/usr/bin/busybox"):
        if os.path.isfile(p):
            out = subprocess.run(["file", "-b", p], capture_output=True, text=True).stdout \
                if shutil.which("file") else ""
            if "dynamically" in out:
                continue
            return p
    raise SystemExit("initramfs: busybox not found: install the Debian package 'busybox-static'")


def find_module_dir(moddir=None):
    """Directory of the fetched kernel's modules (build/boot-cache/modules)."""
    d = moddir or os.path.join(CACHE, "modules")
    return d if os.path.isdir(d) else None


class Cpio:
    """Minimal newc writer. Entries are added in order given."""

    def __init__(self, f):
        self.f = f
        self.ino = 1000

    def _hdr(self, name, mode, size, nlink=1, rdev=(0, 0)):
        name_b = name.encode() + b"\0"
        self.ino += 1
        fields = [self.ino, mode, 0, 0, nlink, 0, size, 0, 0, rdev[0], rdev[1], len(name_b), 0]
        h = b"070701" + b"".join(b"%08X" % v for v in fields)
        self.f.write(h + name_b)
        self._align(len(h) + len(name_b))

    def _align(self, n):
        if n % 4:
            self.f.write(b"\0" * (4 - n % 4))

    def dir(self, name, perm=0o755):
        self._hdr(name, stat.S_IFDIR | perm, 0, nlink=2)

    def file(self, name, data, perm=0o644):
        self._hdr(name, stat.S_IFREG | perm, len(data))
        self.f.write(data)
        self._align(len(data))

    def file_chunks(self, name, size, chunks, perm=0o644):
        self._hdr(name, stat.S_IFREG | perm, size)
        n = 0
        for c in chunks:
            self.f.write(c)
            n += len(c)
        assert n == size
        self._align(size)

    def symlink(self, name, target):
        t = target.encode()
        self._hdr(name, stat.S_IFLNK | 0o777, len(t))
        self.f.write(t)
        self._align(len(t))

    def chardev(self, name, major, minor, perm=0o600):
        self._hdr(name, stat.S_IFCHR | perm, 0, rdev=(major, minor))

    def trailer(self):
        self._hdr("TRAILER!!!", 0, 0)


def build(out, pad_mib=0, extra_files=None, init_script=None, compress=None, moddir=None, busybox=None):
    """Write the initramfs to `out`; return the payload's SHA-256 (hex).

    extra_files: {"/path/in/initramfs": bytes} added after the standard files.
    compress: None = gzip unless pad_mib > 0; True/False to force.
    moddir: the kernel modules to include (default build/boot-cache/modules).
    busybox: the busybox binary to include (default: the host's, find_busybox()).
    """
    if compress is None:
        compress = pad_mib == 0
    host_busybox = find_busybox()
    busybox = busybox or host_busybox
    applets = subprocess.run([host_busybox, "--list"], capture_output=True, text=True,
                             check=True).stdout.split()
    moddir = find_module_dir(moddir)
    modules = sorted(m for m in os.listdir(moddir) if m.endswith(".ko")) if moddir else []
    if not modules:
        print("initramfs: warning: no kernel modules in build/boot-cache/modules "
              "(run tests/boot/fetch-kernel.sh first); efivarfs will be missing",
              file=sys.stderr)

    tmp = out + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(tmp, "wb") as raw:
        f = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) if compress else raw
        c = Cpio(f)
        for d in ("bin", "dev", "etc", "lib", "lib/modules", "proc", "sys", "tmp", "run", "mnt"):
            c.dir(d)
        c.chardev("dev/console", 5, 1)
        c.chardev("dev/null", 1, 3, 0o666)
        c.chardev("dev/ttyS0", 4, 64)
        with open(busybox, "rb") as bf:
            c.file("bin/busybox", bf.read(), 0o755)
        for a in sorted(set(applets)):
            if a != "busybox" and "/" not in a:
                c.symlink("bin/" + a, "busybox")
        c.symlink("sbin", "bin")
        for m in modules:
            with open(os.path.join(moddir, m), "rb") as mf:
                c.file("lib/modules/" + m, mf.read())
        c.file("init", (init_script or INIT_SCRIPT).encode(), 0o755)
        payload = payload_bytes()
        c.file("payload.bin", payload)
        if pad_mib:
            c.file_chunks("pad.bin", pad_mib << 20, _pad_chunks(pad_mib))
        for name, data in sorted((extra_files or {}).items()):
            name = name.lstrip("/")
            parts = name.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                c.dir("/".join(parts[:i]))  # duplicates are harmless for the kernel
            c.file(name, data, 0o755 if data.startswith(b"#!") else 0o644)
        c.trailer()
        if compress:
            f.close()
    os.replace(tmp, out)
    return hashlib.sha256(payload).hexdigest()


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--pad-mib", type=int, default=0)
    ap.add_argument("--modules", metavar="DIR", help="kernel modules to include (default: build/boot-cache/modules)")
    ap.add_argument("--busybox", metavar="FILE", help="the busybox to include (default: the host's)")
    a = ap.parse_args(argv)
    sha = build(a.out, pad_mib=a.pad_mib, moddir=a.modules, busybox=a.busybox)
    with open(a.out + ".sha256.tmp", "w") as f:
        f.write(sha + "\n")
    os.replace(a.out + ".sha256.tmp", a.out + ".sha256")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
