"""handoff disk: GPT images with an ESP and an optional XBOOTLDR (FAT or ext4),
checked with sfdisk, sgdisk, mtools and debugfs; nothing left on error."""
import json
import os
import subprocess

from harness import gpt
from harness.esp import write as write_files
from harness.gpt import ESP_TYPE, XBOOTLDR_TYPE
from common import SDBOOT, Tmp, fails, h, ok, test


@test
def disk_esp_only():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        payload = os.urandom(300000)
        write_files(esp, {"EFI/BOOT/BOOTX64.EFI": open(SDBOOT, "rb").read(), "loader/entries/a.conf": b"title a\n",
                          "deep/er/Mixed Case.bin": payload})
        os.makedirs(os.path.join(esp, "empty"))
        img = os.path.join(tmp, "disk.img")
        r = ok(h("disk", "-o", img, "--esp", esp))
        assert b"ESP" in r.stdout
        n, first, last, parts = gpt.read(img)
        assert first == 34 and last == n - 34
        assert len(parts) == 1 and parts[0]["type"] == ESP_TYPE
        assert parts[0]["first"] == 2048 and (parts[0]["last"] + 1) % 2048 == 0
        assert parts[0]["name"] == "EFI System Partition"
        sg = subprocess.run(["sgdisk", "-v", img], capture_output=True, text=True)
        assert "No problems found" in sg.stdout, sg.stdout
        sf = json.loads(subprocess.run(["sfdisk", "--json", img], capture_output=True, text=True, check=True).stdout)
        assert sf["partitiontable"]["label"] == "gpt"
        assert sf["partitiontable"]["partitions"][0]["type"] == ESP_TYPE
        assert sf["partitiontable"]["partitions"][0]["uuid"] == parts[0]["guid"]
        env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
        at = f"{img}@@{parts[0]['first'] * 512}"
        got = subprocess.run(["mtype", "-i", at, "::/deep/er/Mixed Case.bin"], capture_output=True, env=env,
                             check=True).stdout
        assert got == payload
        listing = subprocess.run(["mdir", "-i", at, "::/"], capture_output=True, env=env, text=True, check=True).stdout
        assert "empty" in listing
        part = os.path.join(tmp, "p1")
        subprocess.run(["dd", f"if={img}", f"of={part}", "bs=512", f"skip={parts[0]['first']}",
                        f"count={parts[0]['last'] - parts[0]['first'] + 1}", "status=none"], check=True)
        fsck = subprocess.run(["fsck.vfat", "-n", part], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stdout + fsck.stderr
        with open(img, "rb") as f:
            f.seek(parts[0]["first"] * 512 + 82)
            assert f.read(8) == b"FAT32   ", "ESP is not FAT32"
        # Unique GUIDs: a second image gets different ones.
        img2 = os.path.join(tmp, "disk2.img")
        ok(h("disk", "-o", img2, "--esp", esp))
        assert gpt.read(img2)[3][0]["guid"] != parts[0]["guid"]


@test
def disk_with_xbootldr():
    for fs in ("vfat", "ext4"):
        with Tmp() as tmp:
            esp, xbl = os.path.join(tmp, "esp"), os.path.join(tmp, "xbl")
            write_files(esp, {"EFI/BOOT/BOOTX64.EFI": b"x" * 1000})
            data = os.urandom(5 << 20)
            write_files(xbl, {"k/linux": data})
            img = os.path.join(tmp, "d.img")
            ok(h("disk", "-o", img, "--esp", esp, "--xbootldr", xbl, "--xbootldr-fs", fs, "--size", "300"))
            assert os.path.getsize(img) == 300 << 20
            n, first, last, parts = gpt.read(img)
            assert [p["type"] for p in parts] == [ESP_TYPE, XBOOTLDR_TYPE]
            assert parts[1]["first"] == parts[0]["last"] + 1 and parts[1]["first"] % 2048 == 0
            assert parts[1]["last"] <= last
            assert len({p["guid"] for p in parts}) == 2
            part = os.path.join(tmp, "p2")
            subprocess.run(["dd", f"if={img}", f"of={part}", "bs=512", f"skip={parts[1]['first']}",
                            f"count={parts[1]['last'] - parts[1]['first'] + 1}", "status=none"], check=True)
            if fs == "ext4":
                fsck = subprocess.run(["e2fsck", "-fn", part], capture_output=True, text=True)
                assert fsck.returncode == 0, fsck.stdout
                got = subprocess.run(["debugfs", "-R", "cat /k/linux", part], capture_output=True, check=True).stdout
            else:
                env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
                got = subprocess.run(["mtype", "-i", part, "::/k/linux"], capture_output=True, env=env,
                                     check=True).stdout
            assert got == data, f"{fs}: XBOOTLDR contents differ"


@test
def disk_errors_leave_nothing():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        write_files(esp, {"big": os.urandom(1 << 20)})
        before = sorted(os.listdir(tmp))
        img = os.path.join(tmp, "d.img")
        fails(h("disk", "-o", img, "--esp", esp, "--size", "10"), 1, "too small")
        fails(h("disk", "-o", img, "--esp", os.path.join(tmp, "none")), 1, "not a directory")
        fails(h("disk", "-o", img, "--esp", esp, "--xbootldr", os.path.join(tmp, "none")), 1, "not a directory")
        fails(h("disk", "-o", os.path.join(tmp, "nodir", "d.img"), "--esp", esp), 1, "d.img")
        fails(h("disk", "-o", esp, "--esp", esp), 1, "is a directory")
        # A file system tool failing midway: no partial image, no temp file.
        fails(h("disk", "-o", img, "--esp", esp, env={"PATH": "/nonexistent"}), 1, "mkfs.vfat")
        assert sorted(os.listdir(tmp)) == before, os.listdir(tmp)
        # An existing image is replaced only by a complete one.
        with open(img, "wb") as f:
            f.write(b"old")
        fails(h("disk", "-o", img, "--esp", esp, env={"PATH": "/nonexistent"}), 1)
        assert open(img, "rb").read() == b"old"
