"""CLI tests of the Debian system side of build/handoff: install recording the
ESP, update, entry add/remove for an installed kernel (--kernel-version:
command line, tries, in place or copied), status, set-default/set-oneshot/
set-timeout through a stand-in efivarfs.

The system is simulated with the tool's test hooks: HANDOFF_CONF_DIR
(/etc/handoff), KERNEL_INSTALL_CONF_ROOT (/etc/kernel), HANDOFF_PROC_CMDLINE
(/proc/cmdline), HANDOFF_FS_ROOT (the root of the file system holding /boot,
as a chroot's / for an image build), HANDOFF_EFIVARS_DIR (efivarfs). Values
are checked against what this script writes and reads itself.
"""
import json
import os
import shutil
import struct
import tempfile

import common as t
from harness import gpt
from harness.esp import write as write_files

LOADER_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
GLOBAL_GUID = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
KV = "6.1.0-99-test"
EXT4_MAGIC, FAT_MAGIC = 0xEF53, 0x4D44


def fs_type(path):
    """statfs f_type through the stat(1) tool (not the tool under test)."""
    import subprocess
    return int(subprocess.run(["stat", "-f", "-c", "%t", path], capture_output=True, text=True, check=True).stdout, 16)


class System:
    """A fake root: ROOT/boot with a Debian-named kernel and initrd, ROOT/esp
    with the loader installed, ROOT/etc/handoff and ROOT/etc/kernel."""

    def __init__(self, tmp, cmdline="root=UUID=1234 ro quiet", tries=None):
        self.root = tmp
        self.boot, self.esp = os.path.join(tmp, "boot"), os.path.join(tmp, "esp")
        self.conf, self.kconf = os.path.join(tmp, "etc/handoff"), os.path.join(tmp, "etc/kernel")
        for d in (self.boot, self.esp, self.conf, self.kconf):
            os.makedirs(d)
        shutil.copyfile(t.KERNEL, os.path.join(self.boot, "vmlinuz-" + KV))
        shutil.copyfile(t.INITRD, os.path.join(self.boot, "initrd.img-" + KV))
        if cmdline is not None:
            self.write(self.kconf, "cmdline", cmdline + "\n")
        if tries is not None:
            self.write(self.kconf, "tries", "%d\n" % tries)
        self.env = {"HANDOFF_CONF_DIR": self.conf, "KERNEL_INSTALL_CONF_ROOT": self.kconf,
                    "HANDOFF_PROC_CMDLINE": os.path.join(tmp, "proc-cmdline"), "HANDOFF_FS_ROOT": tmp,
                    "HANDOFF_EFIVARS_DIR": os.path.join(tmp, "no-efivars")}
        t.ok(t.h("install", "--esp", self.esp, "--loader", t.SDBOOT, env=self.env))
        self.in_place_ok = fs_type(self.boot) in (EXT4_MAGIC, FAT_MAGIC)

    @staticmethod
    def write(d, name, text):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)

    def h(self, *args):
        return t.h(*args, env=self.env)

    def add(self, *extra):
        return self.h("entry", "add", "--kernel-version", KV, "--boot", self.boot, "--entry-token", "tok", *extra)

    def entries(self, where):
        d = os.path.join(self.boot if where == "boot" else self.esp, "loader/entries")
        return sorted(os.listdir(d)) if os.path.isdir(d) else []

    def entry(self, where, name):
        text = open(os.path.join(self.boot if where == "boot" else self.esp, "loader/entries", name)).read()
        return dict(l.split(None, 1) for l in text.splitlines() if l and not l.startswith("#"))


@t.test
def install_records_the_esp():
    with t.Tmp() as tmp:
        esp, conf = os.path.join(tmp, "esp"), os.path.join(tmp, "etc-handoff")
        os.makedirs(esp)
        r = t.ok(t.h("install", "--esp", esp, "--loader", t.SDBOOT, env={"HANDOFF_CONF_DIR": conf}))
        assert not os.path.exists(conf), "recorded without /etc/handoff"
        assert b"recorded" not in r.stdout
        os.makedirs(conf)
        r = t.ok(t.h("install", "--esp", esp + "/", "--loader", t.SDBOOT, env={"HANDOFF_CONF_DIR": conf}))
        assert open(os.path.join(conf, "esp")).read() == os.path.realpath(esp) + "\n"
        assert b"recorded" in r.stdout
        # the record is what later commands use without --esp
        r = t.ok(t.h("entry", "list", "--json", env={"HANDOFF_CONF_DIR": conf}))
        assert json.loads(r.stdout)["entries"] == []
        shutil.rmtree(esp)
        r = t.h("entry", "list", env={"HANDOFF_CONF_DIR": conf})
        err = r.stderr.decode()
        assert r.returncode == 1 and "(recorded in %s/esp) is gone" % conf in err, err
        assert "no EFI system partition found (/efi: " in err, err


def scratch_on(fits, what):
    """A scratch directory on a file system whose statfs magic @fits: under
    TMPDIR, else build/, /var/tmp, /dev/shm or /run (TMPDIR may be a tmpfs or
    an overlay, and build/ is where the tree is). None of them is a failure
    naming @what, never a silent pass."""
    bases = [tempfile.gettempdir(), os.path.join(t.ROOT, "build"), "/var/tmp", "/dev/shm", "/run"]
    for base in bases:
        if os.path.isdir(base) and os.access(base, os.W_OK) and fits(fs_type(base)):
            return t.Tmp(base)
    raise AssertionError("needs a directory on %s, and none of %s is" % (what, ", ".join(bases)))


def boot_tmp():
    """A scratch directory on ext4 or FAT, where entry add keeps /boot's kernel in place."""
    return scratch_on(lambda m: m in (EXT4_MAGIC, FAT_MAGIC), "ext4 or FAT")


@t.test
def entry_kernel_version_copied_where_not_ext4_or_fat():
    """/boot on neither ext4 nor FAT (tmpfs, overlayfs): the loader could not
    read it, so auto copies and says why, and --in-place yes refuses."""
    with scratch_on(lambda m: m not in (EXT4_MAGIC, FAT_MAGIC), "neither ext4 nor FAT") as tmp:
        s = System(tmp)
        r = t.ok(s.add())
        assert b"neither ext4 nor FAT" in r.stderr, r.stderr
        assert s.entries("esp") == ["tok-%s.conf" % KV] and s.entries("boot") == []
        t.fails(s.add("--in-place", "yes"), 1, "neither ext4 nor FAT")


@t.test
def entry_kernel_version_in_place():
    """The hook's command: Debian's file names, /etc/kernel/cmdline, in place
    when the file system allows it (ext4/FAT), running twice changes nothing."""
    with boot_tmp() as tmp:
        s = System(tmp)
        r = s.add()
        t.ok(r)
        conf = os.path.join(s.boot, "loader/entries", "tok-%s.conf" % KV)
        assert r.stdout.decode().strip() == conf
        e = s.entry("boot", "tok-%s.conf" % KV)
        assert e["linux"] == "/vmlinuz-" + KV and e["initrd"] == "/initrd.img-" + KV, e
        assert e["options"] == "root=UUID=1234 ro quiet" and e["version"] == KV
        assert s.entries("esp") == [], "in place: nothing on the ESP"
        assert not os.path.exists(os.path.join(s.esp, "tok"))
        before = t.tree_state(tmp)
        t.ok(s.add())
        assert t.tree_state(tmp) == before, "running the hook twice changed something"
        listed = json.loads(t.ok(s.h("entry", "list", "--boot", s.boot, "--json")).stdout)
        assert [(x["id"], x["path"], x["problems"]) for x in listed["entries"]] == \
            [("tok-" + KV, s.boot + "/loader/entries/tok-%s.conf" % KV, [])], listed
        t.ok(s.add("--in-place", "no"))  # copied: the in-place entry goes
        assert s.entries("boot") == [] and s.entries("esp") == ["tok-%s.conf" % KV]
        assert t.sha256(os.path.join(s.esp, "tok", KV, "linux")) == t.sha256(t.KERNEL)
        t.ok(s.add())  # and back: the copies go with their entry
        assert s.entries("esp") == [] and not os.path.exists(os.path.join(s.esp, "tok"))
        assert s.entries("boot") == ["tok-%s.conf" % KV]
        t.fails(s.h("entry", "add", "--esp", s.esp, "--linux", t.KERNEL, "--in-place", "yes", "--boot", s.boot,
                    "--entry-token", "x", "--version", "1"), 1, "is not a file under")
        r = t.ok(s.h("entry", "add", "--esp", s.esp, "--linux", t.KERNEL, "--in-place", "auto", "--boot", s.boot,
                     "--entry-token", "x", "--version", "1"))  # auto: copied, saying why
        assert b"is not a file under" in r.stderr and s.entries("esp") == ["x-1.conf"], r.stderr


@t.test
def entry_kernel_version_tries_and_bless():
    """/etc/kernel/tries: a counted entry, on the ESP since the loader cannot
    rename on ext4; the same entry again keeps its counter; a blessed entry
    (counter dropped by systemd-bless-boot) stays blessed."""
    with scratch_on(lambda m: m == EXT4_MAGIC, "ext4") as tmp:
        s = System(tmp, tries=3)
        r = t.ok(s.add())
        name = "tok-%s+3.conf" % KV
        assert s.entries("esp") == [name], s.entries("esp")
        assert b"boot counting needs the entry where the loader can rename it" in r.stderr, r.stderr
        assert s.entry("esp", name)["linux"] == "/tok/%s/linux" % KV
        entries = os.path.join(s.esp, "loader/entries")
        os.rename(os.path.join(entries, name), os.path.join(entries, "tok-%s+2-1.conf" % KV))  # one boot
        t.ok(s.add())
        assert s.entries("esp") == ["tok-%s+2-1.conf" % KV], "the same entry again reset its counter"
        listed = json.loads(t.ok(s.h("entry", "list", "--json")).stdout)["entries"]
        assert [(x["id"], x["tries_left"], x["tries_done"]) for x in listed] == [("tok-" + KV, 2, 1)], listed
        os.rename(os.path.join(entries, "tok-%s+2-1.conf" % KV), os.path.join(entries, "tok-%s.conf" % KV))  # blessed
        t.ok(s.add())
        assert s.entries("esp") == ["tok-%s.conf" % KV]
        with open(os.path.join(s.boot, "initrd.img-" + KV), "ab") as f:  # update-initramfs: a new initrd
            f.write(b"\0" * 4)
        t.ok(s.add())
        assert s.entries("esp") == [name], "a changed entry is counted again"
        s.write(s.kconf, "tries", "many\n")
        t.fails(s.add(), 1, "is not a number of tries")
        t.ok(s.add("--tries", "0"))
        assert s.entries("esp") == [name], "the same entry keeps its file, whatever the tries now"
        t.ok(s.h("entry", "remove", "--kernel-version", KV, "--boot", s.boot, "--entry-token", "tok"))
        t.ok(s.add("--tries", "0"))
        assert s.entries("esp") == ["tok-%s+0.conf" % KV]
        t.fails(s.add("--tries", "1", "--in-place", "yes"), 1, "boot counting needs the entry")


@t.test
def entry_kernel_version_command_line_sources():
    with t.Tmp() as tmp:
        s = System(tmp, cmdline=None)
        t.fails(s.add(), 1, "no kernel command line: %s/cmdline is missing" % s.kconf)
        s.write(tmp, "proc-cmdline", "BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda2  ro initrd=\\x\\initrd console=ttyS0\n")
        t.ok(s.add("--in-place", "no"))
        assert s.entry("esp", "tok-%s.conf" % KV)["options"] == "root=/dev/vda2 ro console=ttyS0"
        t.ok(s.add("--in-place", "no", "--options", "given wins"))
        assert s.entry("esp", "tok-%s.conf" % KV)["options"] == "given wins"
        s.write(s.kconf, "cmdline", "root=LABEL=r\n  rw\n")
        t.ok(s.add("--in-place", "no"))
        assert s.entry("esp", "tok-%s.conf" % KV)["options"] == "root=LABEL=r rw"


@t.test
def entry_kernel_version_command_line_from_procfs():
    """/proc/cmdline says it holds 0 bytes (st_size), as sysfs says 4096:
    the tool reads to the end of file (procfs's ostype stands in for it)."""
    with t.Tmp() as tmp:
        s = System(tmp, cmdline=None)
        assert os.stat("/proc/sys/kernel/ostype").st_size == 0
        s.env["HANDOFF_PROC_CMDLINE"] = "/proc/sys/kernel/ostype"
        t.ok(s.add("--in-place", "no"))
        assert s.entry("esp", "tok-%s.conf" % KV)["options"] == open("/proc/sys/kernel/ostype").read().strip()


@t.test
def entry_kernel_version_without_handoff_installed():
    """Kernel hooks on a system where handoff is not installed: nothing, exit 0."""
    with t.Tmp() as tmp:
        s = System(tmp)
        os.unlink(os.path.join(s.esp, "EFI/handoff/handoffx64.efi"))
        before = t.tree_state(tmp)
        r = t.ok(s.add())
        assert b"handoff is not installed on" in r.stderr and r.stdout == b""
        r = t.ok(s.h("entry", "remove", "--kernel-version", KV, "--boot", s.boot))
        assert t.tree_state(tmp) == before


@t.test
def entry_remove_kernel_version_everywhere():
    with t.Tmp() as tmp:
        s = System(tmp)
        t.ok(s.add("--in-place", "no", "--tries", "2"))
        entries = os.path.join(s.esp, "loader/entries")
        os.rename(os.path.join(entries, "tok-%s+2.conf" % KV), os.path.join(entries, "tok-%s+0-2.conf" % KV))
        os.makedirs(os.path.join(s.boot, "loader/entries"))
        s.write(os.path.join(s.boot, "loader/entries"), "tok-%s.conf" % KV, "linux /vmlinuz-%s\n" % KV)
        s.write(os.path.join(s.boot, "loader/entries"), "other.conf", "linux /vmlinuz-%s\n" % KV)
        r = t.ok(s.h("entry", "remove", "--kernel-version", KV, "--boot", s.boot, "--entry-token", "tok"))
        assert s.entries("esp") == [] and not os.path.exists(os.path.join(s.esp, "tok")), r.stdout
        assert s.entries("boot") == ["other.conf"]
        assert os.path.exists(os.path.join(s.boot, "vmlinuz-" + KV)), "a kernel in place is the package's"
        before = t.tree_state(tmp)
        t.ok(s.h("entry", "remove", "--kernel-version", KV, "--boot", s.boot, "--entry-token", "tok"))
        assert t.tree_state(tmp) == before
        t.fails(s.h("entry", "remove", "--boot", s.boot, "tok-" + KV), 1, "no entry 'tok-%s'" % KV)
        t.ok(s.h("entry", "remove", "--boot", s.boot, "other+3-1.conf"))  # any spelling of the id
        assert s.entries("boot") == []


@t.test
def update_replaces_only_handoff():
    with t.Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.makedirs(esp)
        env = {"HANDOFF_CONF_DIR": os.path.join(tmp, "none")}
        t.fails(t.h("update", "--esp", esp, "--loader", t.SDBOOT, env=env), 1, "handoff is not installed there")
        r = t.ok(t.h("update", "--esp", esp, "--loader", t.SDBOOT, "--graceful", env=env))
        assert os.listdir(esp) == [] and b"nothing to update" in r.stderr
        t.ok(t.h("install", "--esp", esp, "--loader", t.SDSTUB, env=env))  # "the old version"
        r = t.ok(t.h("update", "--esp", esp, "--loader", t.SDBOOT, env=env))
        for p in ("EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI"):
            assert t.sha256(os.path.join(esp, p)) == t.sha256(t.SDBOOT), p
        before = t.tree_state(esp)
        r = t.ok(t.h("update", "--esp", esp, "--loader", t.SDBOOT, env=env))
        assert t.tree_state(esp) == before and r.stdout == b""
        shutil.copyfile(t.SDSTUB, os.path.join(esp, "EFI/BOOT/BOOTX64.EFI"))  # another loader took it
        t.fails(t.h("update", "--esp", esp, "--loader", "/etc/hostname", env=env), 1,
                "not an x86-64, IA-32 or AArch64 EFI application")
        os.unlink(os.path.join(esp, "EFI/handoff/handoffx64.efi"))
        shutil.copyfile(t.SDSTUB, os.path.join(esp, "EFI/handoff/handoffx64.efi"))
        shutil.copyfile(t.INITRD, os.path.join(esp, "EFI/BOOT/BOOTX64.EFI"))
        r = t.ok(t.h("update", "--esp", esp, "--loader", t.SDBOOT, env=env))
        assert b"keeping" in r.stderr and t.sha256(os.path.join(esp, "EFI/BOOT/BOOTX64.EFI")) == t.sha256(t.INITRD)
        assert t.sha256(os.path.join(esp, "EFI/handoff/handoffx64.efi")) == t.sha256(t.SDBOOT)


@t.test
def update_replaces_the_ia32_loader_too():
    """An ESP with only the 32-bit loader (install --arch ia32): update
    replaces handoffia32.efi and BOOTIA32.EFI from --loader and creates no
    x64 file."""
    ia32 = t.LOADER32
    t.need(ia32)
    with t.Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.makedirs(esp)
        old = os.path.join(tmp, "old-ia32.efi")
        with open(old, "wb") as f:
            f.write(open(ia32, "rb").read() + b"old")  # still the same image, other bytes
        env = {"HANDOFF_CONF_DIR": os.path.join(tmp, "none")}
        t.ok(t.h("install", "--esp", esp, "--arch", "ia32", "--loader", old, env=env))
        t.ok(t.h("update", "--esp", esp, "--loader", ia32, env=env))
        for p in ("EFI/handoff/handoffia32.efi", "EFI/BOOT/BOOTIA32.EFI"):
            assert t.sha256(os.path.join(esp, p)) == t.sha256(ia32), p
        assert not os.path.exists(os.path.join(esp, "EFI/handoff/handoffx64.efi"))
        assert not os.path.exists(os.path.join(esp, "EFI/BOOT/BOOTX64.EFI"))


def efivar(d, name, guid, data, attrs=7):
    with open(os.path.join(d, "%s-%s" % (name, guid)), "wb") as f:
        f.write(struct.pack("<I", attrs) + data)


def ucs2(s):
    return (s + "\0").encode("utf-16-le")


@t.test
def set_default_oneshot_timeout_write_efivars():
    with t.Tmp() as tmp:
        ev = os.path.join(tmp, "efivars")
        os.makedirs(ev)
        env = {"HANDOFF_EFIVARS_DIR": ev}
        path = lambda n: os.path.join(ev, "%s-%s" % (n, LOADER_GUID))
        for cmd, var, value in (("set-default", "LoaderEntryDefault", "debian-*"),
                                ("set-default", "LoaderEntryDefault", "@saved"),
                                ("set-oneshot", "LoaderEntryOneShot", "tok-6.1.0-13-amd64"),
                                ("set-oneshot", "LoaderEntryOneShot", "auto-windows"),
                                ("set-timeout", "LoaderConfigTimeout", "7"),
                                ("set-timeout", "LoaderConfigTimeout", "menu-force"),
                                ("set-timeout-oneshot", "LoaderConfigTimeoutOneShot", "0")):
            t.ok(t.h(cmd, value, env=env))
            assert open(path(var), "rb").read() == struct.pack("<I", 7) + ucs2(value), (cmd, value)
        t.ok(t.h("set-timeout", "", env=env))
        assert not os.path.exists(path("LoaderConfigTimeout"))
        t.ok(t.h("set-timeout", "", env=env))  # already gone: fine
        t.fails(t.h("set-default", "@current", env=env), 1, "LoaderEntrySelected is not set")
        efivar(ev, "LoaderEntrySelected", LOADER_GUID, ucs2("tok-1"), attrs=6)
        t.ok(t.h("set-default", "@current", env=env))
        assert open(path("LoaderEntryDefault"), "rb").read()[4:] == ucs2("tok-1")
        t.ok(t.h("set-oneshot", "d\u00e9bian", env=env))
        assert open(path("LoaderEntryOneShot"), "rb").read()[4:] == ucs2("d\u00e9bian")
        t.fails(t.h("set-default", "x", env={"HANDOFF_EFIVARS_DIR": os.path.join(tmp, "none")}), 1, "is missing")


@t.test
def status_json_from_efivars():
    with t.Tmp() as tmp:
        s = System(tmp)
        ev = os.path.join(tmp, "efivars")
        os.makedirs(ev)
        s.env["HANDOFF_EFIVARS_DIR"] = ev
        t.ok(s.add("--in-place", "no"))
        efivar(ev, "SecureBoot", GLOBAL_GUID, b"\0", attrs=6)
        efivar(ev, "SetupMode", GLOBAL_GUID, b"\1", attrs=6)
        vals = {"LoaderInfo": "handoff 9.9", "LoaderEntrySelected": "tok-" + KV, "HandoffBootScheme": "stub",
                "LoaderBootCountPath": "\\loader\\entries\\x+1-1.conf", "LoaderEntryDefault": "tok-*"}
        for k, v in vals.items():
            efivar(ev, k, LOADER_GUID, ucs2(v), attrs=6)
        efivar(ev, "LoaderFeatures", LOADER_GUID, struct.pack("<Q", (1 << 4) | (1 << 9) | 1), attrs=6)
        j = json.loads(t.ok(s.h("status", "--json", "--boot", s.boot)).stdout)
        assert j["efi"] is True and j["secure_boot"] is False and j["setup_mode"] is True
        assert j["booted_by_handoff"] is True
        lo = j["loader"]
        assert (lo["info"], lo["entry"], lo["scheme"], lo["boot_count_path"], lo["default"]) == \
            ("handoff 9.9", "tok-" + KV, "stub", "\\loader\\entries\\x+1-1.conf", "tok-*"), lo
        assert lo["features"] == ["config-timeout", "boot-counting", "saved-entry"], lo["features"]
        assert lo["oneshot"] is None
        assert j["esp"]["path"] == os.path.realpath(s.esp) and j["esp"]["installed"] is True
        assert j["esp"]["mounted"] is False
        assert [e["id"] for e in j["entries"]["entries"]] == ["tok-" + KV]
        text = t.ok(s.h("status", "--boot", s.boot)).stdout.decode()
        assert "handoff 9.9" in text and "Boot scheme: stub" in text and "boot-counting" in text
        assert "tok-" + KV in text
        s.env["HANDOFF_EFIVARS_DIR"] = os.path.join(tmp, "none")
        j = json.loads(t.ok(s.h("status", "--json", "--boot", s.boot)).stdout)
        assert j["efi"] is False and j["booted_by_handoff"] is False and j["secure_boot"] is None


ROOT_X64_TYPE = "4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709"


@t.test
def disk_with_root_partition():
    """--root: an ext4 root partition (Discoverable Partitions type) keeping
    owners, modes and symbolic links; --esp-size: room on the ESP."""
    import subprocess
    with t.Tmp() as tmp:
        esp, root = os.path.join(tmp, "esp"), os.path.join(tmp, "root")
        write_files(esp, {"EFI/BOOT/BOOTX64.EFI": b"x" * 1000})
        write_files(root, {"etc/hostname": b"guest\n", "boot/vmlinuz-1": b"k" * 4096})
        os.chmod(os.path.join(root, "etc/hostname"), 0o640)
        os.chown(os.path.join(root, "etc/hostname"), 42, 43)
        os.symlink("boot/vmlinuz-1", os.path.join(root, "vmlinuz"))
        img = os.path.join(tmp, "d.img")
        r = t.ok(t.h("disk", "-o", img, "--esp", esp, "--esp-size", "200", "--root", root))
        assert b"root" in r.stdout
        n, first, last, parts = gpt.read(img)
        assert [p["type"] for p in parts] == [gpt.ESP_TYPE, ROOT_X64_TYPE], parts
        assert parts[0]["last"] - parts[0]["first"] + 1 == 200 * 2048, "ESP of --esp-size MiB"
        dev = "%s?offset=%d" % (img, parts[1]["first"] * 512)
        fsck = subprocess.run(["e2fsck", "-fn", dev], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stdout + fsck.stderr
        st = subprocess.run(["debugfs", "-R", "stat /etc/hostname", dev], capture_output=True, text=True).stdout
        assert "User:    42   Group:    43" in st and "Mode:  0640" in st, st
        link = subprocess.run(["debugfs", "-R", "stat /vmlinuz", dev], capture_output=True, text=True).stdout
        assert 'Fast link dest: "boot/vmlinuz-1"' in link, link
        label = subprocess.run(["debugfs", "-R", "stats", dev], capture_output=True, text=True).stdout
        assert "Filesystem volume name:   root" in label
        t.fails(t.h("disk", "-o", img, "--esp", esp, "--root", os.path.join(tmp, "none")), 1, "not a directory")
        r = t.h("disk", "-o", img, "--esp", esp, "--esp-size", "0")
        assert r.returncode == 2
