#!/usr/bin/python3
"""make system-test: handoff on a real Debian 12 system (issue 16).

1. A Debian 12 root made by debootstrap (minbase with systemd-sysv, udev,
   initramfs-tools; no systemd-boot: boot counting must work with handoff's
   package alone), cached as a tarball in build/system-test/cache; apt's
   downloads are cached there too, so a second run fetches only the package
   lists. bootctl alone (no systemd-bless-boot, no postinst) is taken out of
   systemd-boot's package into /usr/local/bin, to compare with handoff status.
2. In a chroot (a private mount namespace: nothing stays mounted):
   apt-get install ./handoff_*.deb; handoff install --esp /boot/efi;
   apt-get install linux-image-amd64 and a second kernel package. The kernel
   hooks must write one in-place entry per kernel in /boot/loader/entries.
3. A GPT disk from it (handoff disk: FAT ESP, ext4 root, which it names in
   the image's loader.conf: boot-partition PARTUUID), booted in
   QEMU/OVMF (TCG) five times, one OVMF variable store for the first four:
   first  - the newest kernel from the ext4 /boot, multi-user.target; in the
            guest bootctl status names handoff and handoff status agrees on
            every field both print; with the boot-partition line removed,
            entry list says the loader would not read /boot's entries and
            the kernel hook writes the line back (the PARTUUID found by the
            tool on the running system); the older kernel is purged (its
            entry goes); a counted entry for a kernel that panics (tries 2)
            and the good kernel counted (tries 3) are added;
   panic  - twice: the counted entry boots, panics, is renamed +1-1, +0-2;
   second - the good kernel boots (the bad entry sorts last) and
            handoff-bless-boot.service drops its counter; then, with the
            snakeoil key in handoff.conf, handoff update signs the loader,
            the package upgraded to a next version (built here, its loader
            different) keeps it signed, a downgrade without the keys is
            refused by the postinst without failing, and layout=uki makes
            the kernel a signed UKI counted +3;
   secure - Secure Boot on (OVMF with the snakeoil key in db, fresh
            variables): the signed loader boots the signed UKI, which is
            blessed.
The guest writes what it saw to the ESP (tests/system/guest-check.sh); this
script reads it with mtools once QEMU has exited. Every check prints PASS or
FAIL; the last line is "N passed, N failed".

    tests/system/run.py [--keep]   (as root; --keep keeps the work tree)
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/: the harness package
from harness import case, disk, firmware, gpt, qemu  # noqa: E402
import late  # noqa: E402
from bootctl import compare_status  # noqa: E402
from harness.paths import ROOT  # noqa: E402

WORK = os.path.join(ROOT, "build", "system-test")
CACHE = os.path.join(WORK, "cache")
SUITE, MIRROR = "bookworm", "http://deb.debian.org/debian"
SOURCES = ("deb http://deb.debian.org/debian bookworm main\n"
           "deb http://deb.debian.org/debian bookworm-updates main\n"
           "deb http://deb.debian.org/debian-security bookworm-security main\n")
INCLUDE = ("systemd-sysv", "udev", "initramfs-tools", "zstd", "dosfstools")
SDBOOT = "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"  # the host's: "the old loader" of an upgrade
KEYS = "/etc/handoff-systest/keys"  # in the root: the snakeoil key OVMF's Secure Boot build has in db
CMDLINE = "root=LABEL=root ro console=ttyS0,115200 quiet loglevel=3"
FULL_BOOT_TIMEOUT, PANIC_TIMEOUT = 900, 400

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + name + ("" if ok or not detail else "\n    " + str(detail)[:2000]),
          flush=True)
    passed, failed = passed + bool(ok), failed + (not ok)
    return ok


def step(what):
    print("--- %s (%.0f s)" % (what, time.monotonic() - T0), flush=True)


def run(cmd, log=None, check_rc=True, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if log:
        with open(os.path.join(WORK, log), "a") as f:
            f.write("$ %s\n%s%s\n" % (" ".join(cmd), r.stdout, r.stderr))
    if check_rc and r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd[:3]), r.returncode, (r.stderr or r.stdout)[-2000:]))
    return r


# ---- the Debian root ----------------------------------------------------------

def base_root(root):
    """debootstrap once (cached as a tarball keyed by what it contains), then extract."""
    key = hashlib.sha256(("%s %s %s" % (SUITE, MIRROR, ",".join(INCLUDE))).encode()).hexdigest()[:12]
    tarball = os.path.join(CACHE, "base-%s.tar" % key)
    os.makedirs(os.path.join(CACHE, "debs"), exist_ok=True)
    if not os.path.exists(tarball):
        step("debootstrap %s (once; cached in %s)" % (SUITE, tarball))
        tmp = os.path.join(WORK, "debootstrap")
        shutil.rmtree(tmp, ignore_errors=True)
        run(["debootstrap", "--variant=minbase", "--include=" + ",".join(INCLUDE),
             "--cache-dir=" + os.path.join(CACHE, "debs"), SUITE, tmp, MIRROR], log="debootstrap.log")
        for d in ("var/cache/apt/archives",):
            for f in os.listdir(os.path.join(tmp, d)):
                if f.endswith(".deb"):
                    os.unlink(os.path.join(tmp, d, f))
        run(["tar", "-C", tmp, "--numeric-owner", "--xattrs", "-cf", tarball + ".part", "."])
        os.rename(tarball + ".part", tarball)
        shutil.rmtree(tmp)
    step("extract the base root")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    run(["tar", "-C", root, "--numeric-owner", "--xattrs", "-xf", tarball])


def chroot(root, script, log):
    """Run @script (sh) in @root with /proc and /sys mounted and apt's cache
    and lists bound to the cache, in a private mount namespace."""
    for d in ("archives", "lists"):
        os.makedirs(os.path.join(CACHE, "apt-" + d, "partial"), exist_ok=True)
    with open(os.path.join(root, "tmp", "systest-step.sh"), "w") as f:
        f.write("set -e\nexport DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8\n" + script)
    outer = ("set -e; R=%s; mount -t proc proc $R/proc; mount -t sysfs sysfs $R/sys; "
             "mount --bind %s $R/var/cache/apt/archives; mount --bind %s $R/var/lib/apt/lists; "
             "chroot $R /bin/sh /tmp/systest-step.sh" % (root, os.path.join(CACHE, "apt-archives"),
                                                          os.path.join(CACHE, "apt-lists")))
    return run(["unshare", "--mount", "--propagation", "private", "sh", "-c", outer], log=log, check_rc=False)


def write(root, path, text, mode=0o644):
    p = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)
    os.chmod(p, mode)


def configure(root, deb, deb_next):
    write(root, "/etc/apt/sources.list", SOURCES)
    write(root, "/etc/hostname", "handoff-systest\n")
    write(root, "/etc/fstab", "LABEL=root / ext4 errors=remount-ro 0 1\nLABEL=ESP /boot/efi vfat umask=0077 0 2\n")
    write(root, "/etc/kernel/cmdline", CMDLINE + "\n")
    # initrds with what a QEMU guest needs (virtio disk, ext4) instead of
    # MODULES=most: minutes less of mkinitramfs, and smaller copies on the ESP
    write(root, "/etc/initramfs-tools/conf.d/systest.conf", "MODULES=list\n")
    write(root, "/etc/initramfs-tools/modules", "virtio_pci\nvirtio_blk\next4\n")
    os.makedirs(os.path.join(root, "boot/efi"), exist_ok=True)
    shutil.copy(deb, os.path.join(root, "tmp"))
    os.makedirs(os.path.join(root, "var/tmp/handoff-systest"))  # for the guest: /tmp is emptied at boot
    shutil.copy(deb, os.path.join(root, "var/tmp/handoff-systest/this.deb"))
    shutil.copy(deb_next, os.path.join(root, "var/tmp/handoff-systest/next.deb"))
    keys = os.path.join(root, KEYS.lstrip("/"))
    os.makedirs(keys)
    key, cert = firmware.snakeoil_key(WORK)
    shutil.copy(key, os.path.join(keys, "db.key"))
    shutil.copy(cert, os.path.join(keys, "db.crt"))
    shutil.copy(os.path.join(HERE, "guest-check.sh"), os.path.join(root, "usr/local/sbin/handoff-systest"))
    os.chmod(os.path.join(root, "usr/local/sbin/handoff-systest"), 0o755)
    shutil.copy(os.path.join(HERE, "handoff-systest.service"), os.path.join(root, "etc/systemd/system"))
    wants = os.path.join(root, "etc/systemd/system/multi-user.target.wants")
    os.makedirs(wants, exist_ok=True)
    os.symlink("/etc/systemd/system/handoff-systest.service", os.path.join(wants, "handoff-systest.service"))
    for timer in ("apt-daily.timer", "apt-daily-upgrade.timer"):  # nothing but the test on the guest
        os.symlink("/dev/null", os.path.join(root, "etc/systemd/system", timer))


KERNELS_SCRIPT = r"""
apt-get update -q
newest=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: linux-image-\(.*-amd64\)$/\1/p' | head -n1)
abi() { echo "$1" | sed 's/^\([0-9.]*\)-\([0-9]*\)-amd64$/\2/'; }
older=$(apt-cache search --names-only '^linux-image-[0-9.]+-[0-9]+-amd64$' | cut -d' ' -f1 |
	sed 's/^linux-image-//' | while read -r v; do
		[ "$(abi "$v")" -lt "$(abi "$newest")" ] && echo "$(abi "$v") $v"; done |
	sort -n | tail -n1 | cut -d' ' -f2)
mkdir -p /etc/handoff-systest
echo "$newest" > /etc/handoff-systest/newest
echo "$older" > /etc/handoff-systest/older
"""


# sbsigntool, as an administrator signing with their own keys installs it (the
# package Suggests it); bootctl alone, for the comparison with handoff status:
# no systemd-bless-boot and no systemd-boot postinst in the root
TOOLS_SCRIPT = r"""
apt-get install -y -q --no-install-recommends sbsigntool
rm -rf /tmp/sdboot && mkdir /tmp/sdboot && cd /tmp/sdboot
apt-get download -q systemd-boot
dpkg-deb -x systemd-boot_*.deb x
install -m 0755 "$(find x -type f -path '*/bin/bootctl' | head -n1)" /usr/local/bin/bootctl
cd / && rm -rf /tmp/sdboot
"""
BLESS_BINARIES = ("usr/lib/systemd/systemd-bless-boot", "lib/systemd/systemd-bless-boot")


def prepare(root, deb, token):
    """The chroot part. Return (newest, older) kernel versions."""
    step("chroot: apt-get install ./%s" % os.path.basename(deb))
    r = chroot(root, "apt-get install -y -q /tmp/%s\n" % os.path.basename(deb), "chroot.log")
    check("apt-get install ./handoff_*.deb in the chroot", r.returncode == 0, r.stdout[-1500:] + r.stderr[-1500:])
    check("the package installed /usr/bin/handoff, the loader and the hooks",
          all(os.path.exists(os.path.join(root, p)) for p in
              ("usr/bin/handoff", "usr/lib/handoff/handoffx64.efi", "etc/kernel/postinst.d/zz-handoff",
               "etc/kernel/postrm.d/zz-handoff", "etc/initramfs/post-update.d/zz-handoff",
               "usr/lib/kernel/install.d/90-handoff.install", "etc/handoff")))
    check("installing the package installs no loader", os.listdir(os.path.join(root, "boot/efi")) == [])
    r = chroot(root, "handoff install --esp /boot/efi\n", "chroot.log")
    check("handoff install --esp /boot/efi", r.returncode == 0 and
          os.path.isfile(os.path.join(root, "boot/efi/EFI/BOOT/BOOTX64.EFI")), r.stderr)
    check("/etc/handoff/esp records /boot/efi",
          open(os.path.join(root, "etc/handoff/esp")).read() == "/boot/efi\n")
    # an upgrade: the postinst runs "handoff update", which replaces the loader
    # installed before (here an "old version": systemd-boot's binary, the host's)
    esp = os.path.join(root, "boot/efi/EFI")
    old = open(SDBOOT, "rb").read()
    for p in ("handoff/handoffx64.efi", "BOOT/BOOTX64.EFI"):
        open(os.path.join(esp, p), "wb").write(old)
    r = chroot(root, "apt-get install -y -q --reinstall /tmp/%s\n" % os.path.basename(deb), "chroot.log")
    new = open(os.path.join(root, "usr/lib/handoff/handoffx64.efi"), "rb").read()
    check("upgrading the package updates the installed loader (postinst: handoff update)", r.returncode == 0 and
          all(open(os.path.join(esp, p), "rb").read() == new for p in ("handoff/handoffx64.efi", "BOOT/BOOTX64.EFI")),
          r.stdout[-1500:] + r.stderr[-500:])
    step("chroot: apt-get install linux-image-amd64 and an older kernel")
    r = chroot(root, KERNELS_SCRIPT, "chroot.log")
    newest = open(os.path.join(root, "etc/handoff-systest/newest")).read().strip()
    older = open(os.path.join(root, "etc/handoff-systest/older")).read().strip()
    if not check("two kernel versions offered by apt (%s, %s)" % (newest, older),
                 r.returncode == 0 and newest and older, r.stderr[-1500:]):
        raise RuntimeError("no kernels to test with")
    r = chroot(root, "apt-get install -y -q --no-install-recommends linux-image-amd64 linux-image-%s\n" % older,
               "kernels.log")
    check("apt-get install linux-image-amd64 linux-image-%s" % older, r.returncode == 0,
          r.stdout[-3000:] + r.stderr[-2000:])
    r = chroot(root, TOOLS_SCRIPT, "chroot.log")
    check("sbsigntool installed; bootctl taken alone; no systemd-boot, no systemd-bless-boot in the root",
          r.returncode == 0 and os.path.exists(os.path.join(root, "usr/bin/sbsign")) and
          elf(os.path.join(root, "usr/local/bin/bootctl")) and
          not os.path.exists(os.path.join(root, "var/lib/dpkg/info/systemd-boot.list")) and
          not any(os.path.exists(os.path.join(root, p)) for p in BLESS_BINARIES), r.stdout[-1500:] + r.stderr[-1500:])
    entries = os.path.join(root, "boot/loader/entries")
    want = sorted("%s-%s.conf" % (token, v) for v in (newest, older))
    got = sorted(os.listdir(entries)) if os.path.isdir(entries) else []
    check("the kernel hooks wrote one entry per kernel in /boot/loader/entries", got == want, "%s != %s" % (got, want))
    for v in (newest, older):
        p = os.path.join(entries, "%s-%s.conf" % (token, v))
        e = dict(l.split(None, 1) for l in open(p).read().splitlines() if l and not l.startswith("#")) \
            if os.path.exists(p) else {}
        check("entry for %s: in place (linux /vmlinuz-%s, initrd /initrd.img-%s, /etc/kernel/cmdline)" % (v, v, v),
              e.get("linux") == "/vmlinuz-" + v and e.get("initrd") == "/initrd.img-" + v
              and e.get("options") == CMDLINE, e)
    check("nothing copied to the ESP", sorted(os.listdir(os.path.join(root, "boot/efi"))) == ["EFI", "loader"] and
          os.listdir(os.path.join(root, "boot/efi/loader/entries")) == [])
    before = tree(os.path.join(root, "boot"))
    r = chroot(root, "/etc/kernel/postinst.d/zz-handoff %s /boot/vmlinuz-%s\n"
                     "/etc/initramfs/post-update.d/zz-handoff %s /boot/initrd.img-%s\n" % ((newest,) * 4),
               "chroot.log")
    check("running the hooks again changes nothing", r.returncode == 0 and tree(os.path.join(root, "boot")) == before,
          r.stderr)
    older_conf = os.path.join(entries, "%s-%s.conf" % (token, older))
    text = open(older_conf).read() if os.path.exists(older_conf) else None
    r = chroot(root, "kernel-install remove %s\n" % older, "chroot.log")
    check("kernel-install remove: the 90-handoff.install plugin removed the entry",
          r.returncode == 0 and not os.path.exists(older_conf), r.stdout + r.stderr)
    r = chroot(root, "kernel-install add %s /boot/vmlinuz-%s /boot/initrd.img-%s\n" % ((older,) * 3), "chroot.log")
    check("kernel-install add: the plugin wrote the same entry again", r.returncode == 0 and
          os.path.exists(older_conf) and open(older_conf).read() == text, r.stdout + r.stderr)
    return newest, older


def elf(path):
    return os.path.exists(path) and open(path, "rb").read(4) == b"\x7fELF"


def tree(d):
    out = {}
    for base, _, files in os.walk(d):
        for n in files:
            p = os.path.join(base, n)
            out[p] = (os.path.getsize(p), os.stat(p).st_mtime_ns)
    return out


# ---- the disk and the boots ---------------------------------------------------

def make_disk(root):
    step("disk image (handoff disk: ESP + ext4 root)")
    esp = os.path.join(WORK, "esp")
    shutil.rmtree(esp, ignore_errors=True)
    shutil.move(os.path.join(root, "boot/efi"), esp)
    os.makedirs(os.path.join(root, "boot/efi"))
    img = os.path.join(WORK, "disk.img")
    try:
        disk.gpt_disk(img, esp, root=root, esp_size_mib=256)
        check("handoff disk -o disk.img --esp ESP --root ROOT", True)
    except AssertionError as e:
        check("handoff disk -o disk.img --esp ESP --root ROOT", False, e)
        return img
    conf = disk.mtools("mtype", img, "::/loader/loader.conf", partition=1, check=False).stdout.decode()
    check("the image's loader.conf names the root partition (its entries in place)",
          named_partitions(conf) == [root_partuuid(img)], conf)
    return img


def named_partitions(conf):
    """The boot-partition values of loader.conf text, lower case."""
    return [l.split()[1].lower() for l in conf.splitlines() if l.split()[:1] == ["boot-partition"]]


def root_partuuid(img):
    return gpt.partition(img, 2)["guid"].lower()


def esp_entries(img):
    return disk.fat_names(img, "/loader/entries", partition=1, check=False)


def guest_facts(img, phase):
    """/systest/PHASE/ from the ESP: file name -> text."""
    dest = os.path.join(WORK, "facts-" + phase)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    disk.mtools("mcopy", img, "-s", "-n", "::/systest/" + phase, dest, partition=1, check=False)
    src = os.path.join(dest, phase)
    facts = {}
    for n in os.listdir(src) if os.path.isdir(src) else []:
        with open(os.path.join(src, n), errors="replace") as f:
            facts[n] = f.read().strip()
    return facts


def boot(img, name, timeout, vars_file, secure_boot=False):
    step("boot: " + name)
    r = qemu.run_qemu(img, timeout, name=name, memory=1536, extra_args=["-smp", "2"], vars_file=vars_file,
                      secure_boot=secure_boot)
    print("    %s: %.0f s, exit %s%s, log %s" % (name, r.duration, r.exit_code, " (timed out)" if r.timed_out else "",
                                               r.log_path), flush=True)
    return r, os.path.join(r.run_dir, "OVMF_VARS.fd")


def loads(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def check_first(img, res, facts, token, newest, older):
    check("first boot ended by itself (the guest powered off)", not res.timed_out, res.tail())
    check("first boot: handoff booted the newest kernel by default",
          res.time_of(r"booting '.*\(%s\)'" % re.escape(newest)) is not None, res.tail(40))
    check("first boot: the guest wrote its facts", facts.get("done") == "yes", sorted(facts))
    check("first boot: multi-user.target reached", facts.get("multi_user") == "active" and
          facts.get("system_state") in ("running", "degraded"), (facts.get("system_state"), facts.get("failed")))
    check("first boot: root on ext4, the ESP on vfat",
          (facts.get("root_fstype"), facts.get("esp_fstype")) == ("ext4", "vfat"), facts.get("root_source"))
    check("first boot: the kernel running is %s" % newest, facts.get("uname") == newest, facts.get("uname"))
    check("first boot: LoaderEntrySelected is the newest kernel's entry",
          facts.get("LoaderEntrySelected") == "%s-%s" % (token, newest), facts.get("LoaderEntrySelected"))
    bc = facts.get("bootctl.txt", "")
    check("bootctl status names handoff as the current boot loader",
          re.search(r"Current Boot Loader:\s*\n\s*Product: handoff \d", bc) is not None, bc[:1500])
    st = loads(facts.get("status.json", ""))
    lo = st.get("loader", {})
    compared, differ = compare_status(bc, st)
    check("bootctl status and handoff status agree on every field both print (%s)" % ", ".join(compared),
          not differ and len(compared) == 7, (differ, bc[:1500]))
    check("handoff status: booted by handoff, the entry, the scheme, the ESP",
          st.get("booted_by_handoff") is True and lo.get("entry") == "%s-%s" % (token, newest) and
          lo.get("scheme") in ("stub", "handover", "legacy") and lo.get("scheme") == facts.get("HandoffBootScheme") and
          st.get("esp", {}).get("path") == "/boot/efi" and st.get("esp", {}).get("mounted") is True and
          st.get("esp", {}).get("current") is True, json.dumps(st)[:1500])
    ids = [e.get("id") for e in st.get("entries", {}).get("entries", [])]
    check("handoff status lists both kernels' entries, newest first, no problems",
          ids == ["%s-%s" % (token, v) for v in (newest, older)] and
          all(not e.get("problems") for e in st.get("entries", {}).get("entries", [])),
          json.dumps(st.get("entries"))[:1500])
    check_naming(img, facts)
    found = loads(facts.get("status-found.json", ""))
    check("without the record, handoff finds the ESP as bootctl does (mounted FAT, GPT type ESP)",
          found.get("esp", {}).get("path") == "/boot/efi" and found.get("esp", {}).get("mounted") is True,
          facts.get("status-found.json", "")[:800])
    check("purging linux-image-%s succeeded" % older, facts.get("purge_rc") == "0", facts.get("purge.log", "")[-1500:])
    check("its entry is gone, the other stays",
          facts.get("boot-entries-after-purge", "").split() == ["%s-%s.conf" % (token, newest)],
          facts.get("boot-entries-after-purge"))
    check("its kernel is gone from /boot", "vmlinuz-" + older not in facts.get("boot-after-purge", ""),
          facts.get("boot-after-purge"))
    check("a counted entry for a panicking kernel was added", facts.get("panic_add_rc") == "0",
          facts.get("panic-add.log"))
    check("with /etc/kernel/tries the hook moved the good kernel's entry to the ESP, counted",
          facts.get("rehook_rc") == "0" and facts.get("boot-entries-counted", "") == "" and
          sorted(facts.get("esp-entries-counted", "").split()) ==
          sorted(["%s-99-panic+2.conf" % token, "%s-%s+3.conf" % (token, newest)]),
          (facts.get("rehook.log"), facts.get("boot-entries-counted"), facts.get("esp-entries-counted")))


def check_naming(img, facts):
    """The root partition named in loader.conf; the line lost, entry list says so, the hook writes it back."""
    uuid = root_partuuid(img)
    check("first boot: / is the GPT root partition (PARTUUID %s)" % uuid, facts.get("root_partuuid") == uuid,
          facts.get("root_partuuid"))
    check("first boot: loader.conf names it", named_partitions(facts.get("loader.conf", "")) == [uuid],
          facts.get("loader.conf"))
    listed = loads(facts.get("list-unnamed.json", "")).get("entries", [])
    check("without the line, entry list says the loader would not read /boot's entries",
          listed and all(any(p.startswith("not read by the loader") for p in e.get("problems", [])) for e in listed),
          facts.get("list-unnamed.json", "")[:1500])
    kept = [l for l in facts.get("loader.conf", "").splitlines() if not l.startswith("boot-partition ")]
    want = "\n".join(kept + ["# /boot/loader/entries is on this partition (named by handoff entry add)",
                             "boot-partition " + uuid])
    check("the kernel hook wrote the line back, found on the running system (sysfs, the GPT), the rest kept",
          facts.get("name_hook_rc") == "0" and facts.get("loader.conf-after-hook") == want,
          (facts.get("name-hook.log"), facts.get("loader.conf-after-hook"), want))


def boots(img, token, newest, older, version_next):
    res, vars_file = boot(img, "1-first", FULL_BOOT_TIMEOUT, None)
    facts = guest_facts(img, "first")
    check_first(img, res, facts, token, newest, older)
    for i, left in enumerate(("1-1", "0-2"), 2):
        res, vars_file = boot(img, "%d-panic" % i, PANIC_TIMEOUT, vars_file)
        check("boot %d: the counted entry booted and the kernel panicked" % i,
              res.time_of(r"booting 'Panics \(99-panic\)'") is not None and res.time_of(r"Kernel panic") is not None
              and not res.timed_out, res.tail(30))
        check("boot %d: the entry was renamed to +%s first" % (i, left),
              "%s-99-panic+%s.conf" % (token, left) in esp_entries(img), esp_entries(img))
    res, vars_file = boot(img, "4-second", FULL_BOOT_TIMEOUT, vars_file)
    facts = guest_facts(img, "second")
    late.check_second(check, res, facts, token, newest)
    late.check_signing(check, facts)
    late.check_uki(check, facts, token, newest)
    # Secure Boot: fresh variables of the snakeoil build, so the firmware starts EFI/BOOT/BOOTX64.EFI
    res, _ = boot(img, "5-secure", FULL_BOOT_TIMEOUT, None, secure_boot=True)
    late.check_secure(check, res, guest_facts(img, "third"), img, token, newest)
    late.check_loader_on_esp(check, img, WORK, version_next, firmware.SNAKEOIL_CERT)


def main():
    global T0
    T0 = time.monotonic()
    keep = "--keep" in sys.argv
    deb = os.path.join(ROOT, "build", "handoff_%s_amd64.deb" % open(os.path.join(ROOT, "VERSION")).read().strip())
    if os.geteuid() != 0:
        print("system test: needs root (debootstrap, chroot, mount namespaces)\n0 passed, 1 failed")
        return 1
    if not check("make deb built %s" % os.path.relpath(deb, ROOT), os.path.exists(deb)):
        print("%d passed, %d failed" % (passed, failed))
        return 1
    os.makedirs(WORK, exist_ok=True)
    case.set_test("system-test", os.path.join(WORK, "boots"))
    shutil.rmtree(os.path.join(WORK, "boots"), ignore_errors=True)
    for log in ("chroot.log", "kernels.log", "debootstrap.log"):
        if os.path.exists(os.path.join(WORK, log)):
            os.unlink(os.path.join(WORK, log))
    root = os.path.join(WORK, "root")
    try:
        deb_next, version_next = late.next_deb(deb, WORK)
        base_root(root)
        configure(root, deb, deb_next)
        token = open(os.path.join(root, "etc/machine-id")).read().strip()
        newest, older = prepare(root, deb, token)
        img = make_disk(root)
        if not keep:
            shutil.rmtree(root)
        boots(img, token, newest, older, version_next)
    except Exception as e:  # an environment failure (network, debootstrap): one failed check, with why
        check("system test ran to the end", False, "%s: %s" % (type(e).__name__, e))
    finally:
        qemu.kill_all()
    step("done")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
