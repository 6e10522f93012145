"""CLI tests of the loader.conf lines that name a partition the loader may
read entries from (boot-partition PARTUUID, issue 21): what entry add
--in-place, install and disk --root write, that they write it once and keep
the user's lines, and what entry list says of a partition not named.

BOOT's partition is told by HANDOFF_BOOT_PARTUUID (what an image build that
knows its partition GUIDs sets); without it, and without a mounted ESP, the
tool cannot know the partition and says so. The disk tests read the image
back with the harness's own GPT reader and mtools.
"""
import json
import os

import common as t
from cmd_system import KV, System, boot_tmp
from harness import disk, gpt
from harness.esp import write as write_files

UUID = "6e1d2a9c-51f3-4b8e-9a0d-172c445b6001"
LINUX_DATA_TYPE = "0FC63DAF-8483-4772-8E79-3D69D8477DE4"
ROOT_X64_TYPE = "4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709"


def conf_of(esp):
    with open(os.path.join(esp, "loader/loader.conf"), "rb") as f:
        return f.read()


def named(text):
    """The boot-partition values of a loader.conf text (bytes), lower case."""
    return [l.split()[1].decode().lower() for l in text.splitlines() if l.split()[:1] == [b"boot-partition"]]


@t.test
def entry_add_in_place_names_the_boot_partition_once():
    with boot_tmp() as tmp:
        s = System(tmp)
        user = b"timeout 7\r\n# my own comment\r\ndefault tok-*"  # CRLF, no line end at the end
        write_files(s.esp, {"loader/loader.conf": user})
        r = s.add()  # a chroot: no mounted ESP, no HANDOFF_BOOT_PARTUUID: the partition is not known
        t.ok(r)
        assert b"the partition %s will be on is not known yet" % s.boot.encode() in r.stderr, r.stderr
        assert conf_of(s.esp) == user, "loader.conf changed although the partition is not known"
        s.env["HANDOFF_BOOT_PARTUUID"] = UUID.upper()
        r = t.ok(s.add())
        want = user + (b"\r\n# %s/loader/entries is on this partition (named by handoff entry add)\r\n"
                       b"boot-partition %s\r\n" % (s.boot.encode(), UUID.encode()))
        assert conf_of(s.esp) == want, conf_of(s.esp)
        assert b"named partition %s in %s/loader/loader.conf" % (UUID.encode(), s.esp.encode()) in r.stdout, r.stdout
        before = t.tree_state(tmp)
        t.ok(s.add())  # the kernel hooks run again: nothing changes
        assert t.tree_state(tmp) == before, "a second entry add changed something"
        # the user edits the file (the line in upper case, a new key): still one line, the edits stay
        edited = want.replace(UUID.encode(), UUID.upper().encode()) + b"editor no\r\n"
        write_files(s.esp, {"loader/loader.conf": edited})
        t.ok(s.add())
        assert conf_of(s.esp) == edited, conf_of(s.esp)
        # copied entries (--in-place no) need no line and add none
        write_files(s.esp, {"loader/loader.conf": b"timeout 1\n"})
        t.ok(s.add("--in-place", "no"))
        assert conf_of(s.esp) == b"timeout 1\n"
        s.env["HANDOFF_BOOT_PARTUUID"] = "/dev/sda2"
        t.fails(s.add("--in-place", "yes"), 1, "HANDOFF_BOOT_PARTUUID '/dev/sda2' is not a partition GUID")
        r = t.ok(s.add())  # auto: copied, saying why
        assert b"copying the kernel to the ESP: HANDOFF_BOOT_PARTUUID" in r.stderr, r.stderr


@t.test
def entry_list_says_unnamed_boot_entries_are_not_read():
    with boot_tmp() as tmp:
        s = System(tmp)
        s.env["HANDOFF_BOOT_PARTUUID"] = UUID
        t.ok(s.add())
        listed = json.loads(t.ok(s.h("entry", "list", "--boot", s.boot, "--json")).stdout)
        assert [x["problems"] for x in listed["entries"]] == [[]], listed
        write_files(s.esp, {"loader/loader.conf": b"timeout 3\n"})  # the line lost
        listed = json.loads(t.ok(s.h("entry", "list", "--boot", s.boot, "--json")).stdout)
        assert [x["problems"] for x in listed["entries"]] == [[
            "not read by the loader: the partition is not XBOOTLDR and loader/loader.conf does not name it "
            "(boot-partition PARTUUID; handoff entry add names it)"]], listed
        out = t.ok(s.h("entry", "list", "--boot", s.boot)).stdout.decode()
        assert "problem: not read by the loader" in out, out


@t.test
def install_names_a_boot_with_entries():
    with t.Tmp() as tmp:
        esp, boot = os.path.join(tmp, "esp"), os.path.join(tmp, "boot")
        os.makedirs(esp)
        env = {"HANDOFF_CONF_DIR": os.path.join(tmp, "etc-handoff"), "HANDOFF_BOOT_PARTUUID": UUID}
        os.makedirs(boot)
        t.ok(t.h("install", "--esp", esp, "--loader", t.SDBOOT, "--boot", boot, env=env))
        assert named(conf_of(esp)) == [], "no entries in BOOT: nothing to name"
        os.makedirs(os.path.join(boot, "loader/entries"))
        r = t.ok(t.h("install", "--esp", esp, "--loader", t.SDBOOT, "--boot", boot, env=env))
        assert named(conf_of(esp)) == [UUID], conf_of(esp)
        text = conf_of(esp)
        assert text.startswith(b"# handoff loader configuration") and b"timeout 3\n" in text, text
        assert b"# %s/loader/entries is on this partition (named by handoff install)\n" % boot.encode() in text
        assert b"named partition" in r.stdout
        before = t.tree_state(tmp)
        t.ok(t.h("install", "--esp", esp, "--loader", t.SDBOOT, "--boot", boot, env=env))
        assert t.tree_state(tmp) == before, "install twice changed something"
        # BOOT is the ESP itself (the ESP mounted at /boot): its entries need no line
        esp2 = os.path.join(tmp, "esp2")
        os.makedirs(os.path.join(esp2, "loader/entries"))
        t.ok(t.h("install", "--esp", esp2, "--loader", t.SDBOOT, "--boot", esp2, env=env))
        assert named(conf_of(esp2)) == []


@t.test
def disk_names_a_root_with_entries_in_place():
    """--root with /boot/loader/entries: the image's loader.conf names the root
    partition's GUID (the ESP tree stays as it was); --data is a Linux data
    partition, never named; a root without entries is not named either."""
    with t.Tmp() as tmp:
        esp, root, data = (os.path.join(tmp, d) for d in ("esp", "root", "data"))
        write_files(esp, {"EFI/BOOT/BOOTX64.EFI": b"x" * 1000, "loader/loader.conf": b"timeout 0\ndefault a"})
        write_files(root, {"boot/loader/entries/a.conf": b"title A\nlinux /vmlinuz\n", "boot/vmlinuz": b"k"})
        write_files(data, {"loader/entries/a.conf": b"title evil\nsort-key 0\nlinux /vmlinuz\n"})
        img = os.path.join(tmp, "d.img")
        r = t.ok(t.h("disk", "-o", img, "--esp", esp, "--root", root, "--data", data))
        parts = gpt.read(img)[3]
        assert [p["type"] for p in parts] == [gpt.ESP_TYPE, ROOT_X64_TYPE, LINUX_DATA_TYPE], parts
        got = disk.mtools("mtype", img, "::/loader/loader.conf", partition=1).stdout
        assert got == (b"timeout 0\ndefault a\n# the root partition, with entries in place (named by handoff disk)\n"
                       b"boot-partition %s\n" % parts[1]["guid"].lower().encode()), got
        assert b"named the root partition (PARTUUID %s)" % parts[1]["guid"].lower().encode() in r.stdout, r.stdout
        assert conf_of(esp) == b"timeout 0\ndefault a", "the ESP tree was changed"
        os.unlink(os.path.join(esp, "loader/loader.conf"))  # no loader.conf: one is made
        t.ok(t.h("disk", "-o", img, "--esp", esp, "--root", root))
        parts = gpt.read(img)[3]
        got = disk.mtools("mtype", img, "::/loader/loader.conf", partition=1).stdout
        assert named(got) == [parts[1]["guid"].lower()], got
        os.rmdir(os.path.join(esp, "loader"))  # nor a loader directory
        t.ok(t.h("disk", "-o", img, "--esp", esp, "--root", root))
        assert named(disk.mtools("mtype", img, "::/loader/loader.conf", partition=1).stdout) == \
            [gpt.read(img)[3][1]["guid"].lower()]
        write_files(esp, {"loader/loader.conf": b"timeout 0\n"})
        plain = os.path.join(tmp, "plain")
        write_files(plain, {"etc/hostname": b"guest\n"})
        t.ok(t.h("disk", "-o", img, "--esp", esp, "--root", plain, "--data", root))  # no entries in the root
        assert disk.mtools("mtype", img, "::/loader/loader.conf", partition=1).stdout == b"timeout 0\n"
