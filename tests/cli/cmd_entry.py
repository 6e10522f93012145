"""handoff entry add/remove/list: the files and entries written, the entry token
fallbacks, shared files kept, the entries as the loader sees them."""
import json
import os
import shutil

from harness.esp import write as write_files
from common import (
    INITRD,
    KERNEL,
    SDBOOT,
    Tmp,
    fails,
    h,
    make_uki,
    ok,
    read_setup_header,
    sha256,
    test,
    tree_state,
)


def kernel_release():
    with open(KERNEL, "rb") as f:
        return read_setup_header(f.read())["kernel_version"].split()[0]


@test
def entry_add_layout():
    with Tmp() as esp:
        rel = kernel_release()
        r = ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD,
                 "--options", "console=ttyS0 quiet", "--entry-token", "tok", "--title", "My Linux"))
        conf = os.path.join(esp, "loader", "entries", f"tok-{rel}.conf")
        assert r.stdout.decode().strip() == conf
        assert sha256(os.path.join(esp, "tok", rel, "linux")) == sha256(KERNEL)
        assert sha256(os.path.join(esp, "tok", rel, "initramfs.cpio.gz")) == sha256(INITRD)
        lines = dict(l.split(None, 1) for l in open(conf).read().splitlines() if l and not l.startswith("#"))
        assert lines["title"] == "My Linux"
        assert lines["version"] == rel
        assert lines["linux"] == f"/tok/{rel}/linux"
        assert lines["initrd"] == f"/tok/{rel}/initramfs.cpio.gz"
        assert lines["options"] == "console=ttyS0 quiet"
        assert "protocol" not in lines
        before = tree_state(esp)
        ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD,
             "--options", "console=ttyS0 quiet", "--entry-token", "tok", "--title", "My Linux"))
        assert tree_state(esp) == before, "adding the same entry again changed files"


def fake_root(tmp, files):
    """A root directory holding only @files (path -> text): what --root reads."""
    root = os.path.join(tmp, "root")
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    os.makedirs(root, exist_ok=True)
    return root


MID = "0123456789abcdef0123456789abcdef"


@test
def entry_add_token_fallbacks():
    """kernel-install's order under --root: /etc/kernel/entry-token, the machine
    ID, IMAGE_ID, ID; none of them is a clear error. Nothing of the build host
    (its machine ID, os-release) is read."""
    osrel = 'ID=deb\nIMAGE_ID=appliance\nPRETTY_NAME="Fake OS 1"\n'
    cases = [
        ({"etc/kernel/entry-token": "tok\n", "etc/machine-id": MID + "\n", "usr/lib/os-release": osrel}, "tok"),
        ({"etc/machine-id": MID + "\n", "etc/os-release": osrel}, MID),
        ({"etc/machine-id": "\n", "etc/os-release": osrel}, "appliance"),             # empty machine-id
        ({"etc/machine-id": "uninitialized\n", "usr/lib/os-release": "ID=deb\n"}, "deb"),
    ]
    for files, token in cases:
        with Tmp() as tmp:
            esp = os.path.join(tmp, "esp")
            os.mkdir(esp)
            r = ok(h("entry", "add", "--esp", esp, "--root", fake_root(tmp, files), "--linux", KERNEL,
                     "--version", "1.0"), token)
            conf = os.path.join(esp, "loader", "entries", f"{token}-1.0.conf")
            assert r.stdout.decode().strip() == conf, (r.stdout, conf)
            text = open(conf).read()
            assert f"linux      /{token}/1.0/linux" in text, text
            assert ("machine-id " + MID in text) == (MID in files.get("etc/machine-id", "")), text
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        fails(h("entry", "add", "--esp", esp, "--root", fake_root(tmp, {}), "--linux", KERNEL, "--version", "1"),
              1, "no entry token: no /etc/kernel/entry-token, /etc/machine-id, nor IMAGE_ID= or ID= in os-release")
        assert os.listdir(esp) == [], "nothing written"


@test
def entry_add_defaults_and_protocol():
    with Tmp() as esp:
        root = fake_root(esp + ".root", {"etc/machine-id": MID + "\n",
                                         "etc/os-release": 'PRETTY_NAME="Fake OS 1"\nID=fake\n'})
        ok(h("entry", "add", "--esp", esp, "--root", root, "--linux", KERNEL, "--protocol", "legacy",
             "--version", "1.0"))
        conf = open(os.path.join(esp, "loader", "entries", f"{MID}-1.0.conf")).read()
        assert "protocol   legacy" in conf and f"machine-id {MID}" in conf, conf
        assert f"linux      /{MID}/1.0/linux" in conf and "title      Fake OS 1" in conf, conf
        assert "sort-key   fake" in conf, conf
        shutil.rmtree(esp + ".root")
        fails(h("entry", "add", "--esp", esp, "--linux", SDBOOT, "--protocol", "handover", "--entry-token", "t",
                "--version", "2"), 1, "cannot boot by handover: not a bzImage")
        fails(h("entry", "add", "--esp", esp, "--linux", "/etc/hostname", "--entry-token", "t"), 1,
              "neither a bzImage")
        fails(h("entry", "add", "--esp", os.path.join(esp, "no"), "--linux", KERNEL, "--entry-token", "t"), 1,
              "not a directory")
        fails(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", "a/b"), 1, "entry token")
        fails(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", "t", "--initrd", "/nonexistent/x"),
              1, "No such file")
        assert not os.path.exists(os.path.join(esp, "loader", "entries", "t-" + kernel_release() + ".conf"))
        r = h("entry", "add", "--esp", esp, "--linux", SDBOOT, "--entry-token", "t")
        assert r.returncode == 2 and b"--version" in r.stderr


@test
def entry_remove_keeps_shared_files():
    with Tmp() as esp:
        for v in ("1", "2"):
            ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", "t", "--version", v,
                 "--initrd", INITRD))
        # A hand-written entry sharing version 1's kernel.
        with open(os.path.join(esp, "loader/entries/manual.conf"), "w") as f:
            f.write("title manual\nlinux /t/1/linux\n")
        ok(h("entry", "remove", "--esp", esp, "t-1"))
        assert not os.path.exists(os.path.join(esp, "loader/entries/t-1.conf"))
        assert os.path.exists(os.path.join(esp, "t/1/linux")), "shared kernel removed"
        assert not os.path.exists(os.path.join(esp, "t/1/initramfs.cpio.gz"))
        ok(h("entry", "remove", "--esp", esp, "t-2.conf"))
        assert not os.path.exists(os.path.join(esp, "t/2")), "empty version directory left"
        # handoff did not write manual.conf: what it names stays, whoever copied it
        ok(h("entry", "remove", "--esp", esp, "manual"))
        assert os.path.exists(os.path.join(esp, "t/1/linux")), "a file named by an entry handoff did not write"
        fails(h("entry", "remove", "--esp", esp, "t-1"), 1, "no entry 't-1'")
        # An entry pointing outside the ESP: the file there is never touched.
        outside = os.path.join(os.path.dirname(esp), os.path.basename(esp) + ".victim")
        with open(outside, "w") as f:
            f.write("keep")
        try:
            with open(os.path.join(esp, "loader/entries/evil.conf"), "w") as f:
                f.write(f"linux /../{os.path.basename(outside)}\n")
            ok(h("entry", "remove", "--esp", esp, "evil"))
            assert os.path.exists(outside)
        finally:
            os.unlink(outside)


@test
def entry_remove_deletes_only_handoffs_copies():
    """remove deletes the files `entry add` copied for that entry, nothing
    else an entry names: not another loader's program, not a kernel of
    kernel-install's own layout, not a file outside /TOKEN/VERSION/ even when
    handoff's entry names it (issue 21)."""
    with Tmp() as esp:
        ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", "t", "--version", "1",
             "--initrd", INITRD))
        mine = os.path.join(esp, "loader/entries/t-1.conf")
        keep = {"EFI/Microsoft/Boot/bootmgfw.efi": b"windows", "EFI/Linux/other.efi": b"uki",
                "vmlinuz-6.1": b"kernel in place", "k/9/linux": b"kernel-install's copy",
                "t/other/initrd": b"not this entry's copy", "t/1/extra/x": b"deeper than handoff copies"}
        write_files(esp, {path: data for path, data in keep.items()})
        with open(mine, "a") as f:  # handoff's own entry, edited to name more files
            f.write("initrd /vmlinuz-6.1\ninitrd /t/other/initrd\ninitrd /t/1/extra/x\n"
                    "efi /EFI/Microsoft/Boot/bootmgfw.efi\n")
        # entries handoff did not write: a same-named one from kernel-install, and a hand-written one
        write_files(esp, {"loader/entries/k-9.conf": b"title kernel-install's\nlinux /k/9/linux\n",
                          "loader/entries/win.conf": b"title Windows\nefi /EFI/Microsoft/Boot/bootmgfw.efi\n",
                          "loader/entries/uki.conf": b"title UKI\nefi /EFI/Linux/other.efi\n"})
        ok(h("entry", "remove", "--esp", esp, "t-1"))
        assert not os.path.exists(mine)
        assert not os.path.exists(os.path.join(esp, "t/1/linux")), "handoff's copy of the kernel stays"
        assert not os.path.exists(os.path.join(esp, "t/1/initramfs.cpio.gz")), "handoff's copy of the initrd stays"
        for name in ("k-9", "win", "uki"):
            ok(h("entry", "remove", "--esp", esp, name))
        left = [p for p in keep if not os.path.exists(os.path.join(esp, p))]
        assert left == [], "entry remove deleted %s" % left
        for p, data in keep.items():
            assert open(os.path.join(esp, p), "rb").read() == data


@test
def entry_list_as_the_loader_sees_it():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        for tok, v, proto in (("a", "1", "auto"), ("a", "2", "handover"), ("b", "1", "auto")):
            ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", tok, "--version", v,
                 "--protocol", proto, "--initrd", INITRD))
            conf = os.path.join(esp, f"loader/entries/{tok}-{v}.conf")
            text = open(conf).read().replace("sort-key   debian", f"sort-key   {tok}")
            if "sort-key" not in text:
                text += f"sort-key {tok}\n"
            open(conf, "w").write(text)
        write_files(esp, {
            "loader/loader.conf": b"timeout 5\ndefault b-*\nfrobnicate yes\n",
            # Upper case on disk, lower case in the entry: FAT would find it.
            "EFI/TOOLS/SHELL.EFI": open(SDBOOT, "rb").read(),
            "loader/entries/tool.conf": b"title Tool\nefi /efi/tools/shell.efi\nbogus line here\n",
            "loader/entries/broken.conf": b"title Broken\nlinux /missing/linux\ninitrd /missing/initrd\n",
            "loader/entries/sdboot-legacy.conf": b"title Not a bzImage\nlinux /EFI/TOOLS/SHELL.EFI\nprotocol legacy\n",
            "loader/entries/empty.conf": b"title Nothing\n",
        })
        os.makedirs(os.path.join(esp, "EFI/Linux"))
        make_uki(os.path.join(esp, "EFI/Linux"))
        j = json.loads(ok(h("entry", "list", "--esp", esp, "--json")).stdout)
        ids = [e["id"] for e in j["entries"]]
        assert ids[:3] == ["a-2", "a-1", "b-1"], ids
        assert set(ids[3:]) == {"tool", "broken", "sdboot-legacy", "uki.efi"}, ids
        by = {e["id"]: e for e in j["entries"]}
        assert j["default"] == "b-1" and by["b-1"]["default"] and not by["a-2"]["default"]
        assert j["timeout"] == 5
        assert any("frobnicate" in p for p in j["problems"]), j["problems"]
        assert by["a-2"]["protocol"] == "handover" and by["a-2"]["problems"] == []
        assert by["a-1"]["initrd"] == ["/a/1/initramfs.cpio.gz"]
        assert by["tool"]["efi"] == "/efi/tools/shell.efi"
        assert len(by["tool"]["problems"]) == 1 and "bogus" in by["tool"]["problems"][0], by["tool"]["problems"]
        probs = by["broken"]["problems"]
        assert any("linux /missing/linux: file not found" in p for p in probs), probs
        assert any("initrd /missing/initrd: file not found" in p for p in probs), probs
        assert any("cannot boot by legacy" in p for p in by["sdboot-legacy"]["problems"]), by["sdboot-legacy"]
        assert by["uki.efi"]["type"] == "type2" and by["uki.efi"]["title"] == 'Test OS "1"'
        assert by["uki.efi"]["version"] == "1" and by["uki.efi"]["sort_key"] == "test"
        assert [i["path"] for i in j["ignored"]] == ["loader/entries/empty.conf"]
        assert "nothing to boot" in j["ignored"][0]["problems"][0]
        text = ok(h("entry", "list", "--esp", esp)).stdout.decode()
        assert "* " in text and "problem: initrd /missing/initrd: file not found" in text
        assert "ignored by the loader" in text
        fails(h("entry", "list", "--esp", os.path.join(tmp, "none")), 1, "not a directory")
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        assert json.loads(ok(h("entry", "list", "--esp", empty, "--json")).stdout)["entries"] == []


@test
def entry_list_other_loaders():
    """The other loaders on the ESP as the loader finds them (README "Dual
    boot"): after the Linux entries, systemd-boot's ids and order, file names
    matched as FAT does; BOOTX64.EFI only when it is not handoff's copy;
    IA-32 names on 32-bit firmware; none under auto-entries no."""
    with Tmp() as tmp:
        esp, ev = os.path.join(tmp, "esp"), os.path.join(tmp, "fw", "efivars")
        os.makedirs(ev)
        env = {"HANDOFF_EFIVARS_DIR": ev}
        write_files(esp, {"loader/entries/debian.conf": b"title Debian\nefi /debian.efi\n",
                          "EFI/microsoft/BOOT/BOOTMGFW.EFI": b"windows", "shellx64.efi": b"shell",
                          "shellia32.efi": b"shell32", "EFI/handoff/handoffx64.efi": b"handoff",
                          "EFI/BOOT/BOOTX64.EFI": b"handoff", "EFI/BOOT/BOOTIA32.EFI": b"grub32"})

        def listed(conf=""):
            write_files(esp, {"loader/loader.conf": conf.encode()})
            j = json.loads(ok(h("entry", "list", "--esp", esp, "--json", env=env)).stdout)
            return [(e["id"], e["type"], e["title"], e["efi"]) for e in j["entries"]], j["default"]

        entries, default = listed()
        assert entries == [("debian", "type1", "Debian", "/debian.efi"),
                           ("auto-windows", "auto", "Windows Boot Manager", "/EFI/Microsoft/Boot/bootmgfw.efi"),
                           ("auto-efi-shell", "auto", "EFI Shell", "/shellx64.efi")], entries
        assert default == "debian"
        assert listed("default auto-windows\n")[1] == "auto-windows"
        write_files(esp, {"EFI/BOOT/BOOTX64.EFI": b"another loader"})
        assert listed()[0][3] == ("auto-efi-default", "auto", "EFI Default Loader", "/EFI/BOOT/BOOTX64.EFI")
        os.unlink(os.path.join(esp, "EFI/handoff/handoffx64.efi"))  # then BOOTX64.EFI is what starts handoff
        assert [e[0] for e in listed()[0]] == ["debian", "auto-windows", "auto-efi-shell"]
        assert [e[0] for e in listed("auto-entries no\n")[0]] == ["debian"]
        with open(os.path.join(tmp, "fw", "fw_platform_size"), "w") as f:
            f.write("32\n")
        assert [e[3] for e in listed()[0][1:]] == ["/EFI/Microsoft/Boot/bootmgfw.efi", "/shellia32.efi"]
        write_files(esp, {"EFI/handoff/handoffia32.efi": b"handoff32"})  # BOOTIA32.EFI is another loader
        assert [e[3] for e in listed()[0][1:]] == ["/EFI/Microsoft/Boot/bootmgfw.efi", "/shellia32.efi",
                                                  "/EFI/BOOT/BOOTIA32.EFI"]
        text = ok(h("entry", "list", "--esp", esp, env=env)).stdout.decode()
        assert "  Windows Boot Manager\n           id: auto-windows\n" in text, text
        status = json.loads(ok(h("status", "--esp", esp, "--json", env=env)).stdout)
        assert [e["id"] for e in status["entries"]["entries"]][1:] == ["auto-windows", "auto-efi-shell",
                                                                      "auto-efi-default"]
