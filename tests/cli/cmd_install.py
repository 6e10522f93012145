"""handoff install: a fresh ESP, idempotence, a foreign loader kept, 32-bit
firmware, the Boot#### variable, a network boot server's tree (--netboot) and
its entries.list kept current by entry add/remove."""
import json
import os
import shutil
import struct

from common import (
    CORPUS,
    GRUB32,
    INITRD,
    KERNEL,
    LOADER,
    LOADER32,
    LOADERAA64,
    SDBOOT,
    SDSTUB,
    Tmp,
    fails,
    h,
    need,
    ok,
    sha256,
    test,
    tree_state,
)


@test
def install_fresh_and_idempotent():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        r = ok(h("install", "--esp", esp, "--loader", SDBOOT))
        for p in ("EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(SDBOOT), p
        conf = open(os.path.join(esp, "loader/loader.conf")).read()
        assert "timeout" in conf
        assert os.path.isdir(os.path.join(esp, "loader/entries"))
        assert b"installed" in r.stdout
        before = tree_state(esp)
        r = ok(h("install", "--esp", esp, "--loader", SDBOOT))
        assert tree_state(esp) == before, "second install changed the tree"
        assert r.stdout == b"" and r.stderr == b""
        assert os.listdir(tmp) == ["esp"]


@test
def install_keeps_other_loader():
    with Tmp() as tmp:
        boot = os.path.join(tmp, "EFI", "BOOT")
        os.makedirs(boot)
        other = os.path.join(boot, "BOOTX64.EFI")
        shutil.copy(SDSTUB, other)
        with open(os.path.join(tmp, "keep"), "w") as f:
            f.write("x")
        os.makedirs(os.path.join(tmp, "loader"))
        with open(os.path.join(tmp, "loader", "loader.conf"), "w") as f:
            f.write("timeout 7\n")
        r = ok(h("install", "--esp", tmp, "--loader", SDBOOT))
        assert sha256(other) == sha256(SDSTUB), "another loader was replaced"
        assert b"keeping" in r.stderr and b"--force" in r.stderr
        assert open(os.path.join(tmp, "loader", "loader.conf")).read() == "timeout 7\n"
        ok(h("install", "--esp", tmp, "--loader", SDBOOT, "--force"))
        assert sha256(other) == sha256(SDBOOT)
        # An update of handoff itself replaces the copy it put there.
        ok(h("install", "--esp", tmp, "--loader", SDSTUB))
        assert sha256(other) == sha256(SDSTUB)
        assert sha256(os.path.join(tmp, "EFI/handoff/handoffx64.efi")) == sha256(SDSTUB)


@test
def install_errors():
    with Tmp() as tmp:
        fails(h("install", "--esp", os.path.join(tmp, "nope"), "--loader", SDBOOT), 1, "not a directory")
        fails(h("install", "--esp", tmp, "--loader", os.path.join(tmp, "x.efi")), 1, "loader not found")
        fails(h("install", "--esp", tmp, "--loader", "/etc/hostname"), 1, "not an x86-64 EFI application")
        fails(h("install", "--esp", tmp, "--loader", os.path.join(CORPUS, "bad-section-raw-outside")), 1,
              "outside the file")
        # not the host's efivarfs: a stand-in that does not exist
        fails(h("install", "--esp", tmp, "--loader", SDBOOT, "--variables", "yes",
                env={"HANDOFF_EFIVARS_DIR": os.path.join(tmp + ".none", "efivars")}), 1, "efivars")
        assert os.listdir(tmp) == [], os.listdir(tmp)


@test
def install_for_32bit_firmware():
    """--arch ia32|both: handoffia32.efi and the IA-32 fallback BOOTIA32.EFI."""
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        ok(h("install", "--esp", esp, "--arch", "ia32"))
        assert sorted(os.listdir(os.path.join(esp, "EFI/BOOT"))) == ["BOOTIA32.EFI"]
        for p in ("EFI/handoff/handoffia32.efi", "EFI/BOOT/BOOTIA32.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(LOADER32), p
        ok(h("install", "--esp", esp, "--arch", "both"))
        for p in ("EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(LOADER), p
        before = tree_state(esp)
        r = ok(h("install", "--esp", esp, "--arch", "both"))
        assert tree_state(esp) == before and r.stdout == b"", "second install changed the tree"
        # another IA-32 loader at the fallback path is kept, as for x64
        shutil.copy(GRUB32, os.path.join(esp, "EFI/BOOT/BOOTIA32.EFI"))
        ok(h("install", "--esp", esp, "--arch", "ia32", "--loader", LOADER32))
        assert sha256(os.path.join(esp, "EFI/BOOT/BOOTIA32.EFI")) == sha256(GRUB32)
        before = tree_state(esp)
        fails(h("install", "--esp", esp, "--arch", "ia32", "--loader", LOADER), 1, "not an IA-32 EFI application")
        fails(h("install", "--esp", esp, "--arch", "x64", "--loader", LOADER32), 1, "not an x86-64 EFI application")
        fails(h("install", "--esp", esp, "--arch", "both", "--loader", LOADER), 2, "--arch x64 or --arch ia32")
        fails(h("install", "--esp", esp, "--arch", "arm64"), 2, "expected x64, ia32, aa64 or both")
        assert tree_state(esp) == before, "a refused install wrote something"


@test
def install_for_aarch64_firmware():
    """--arch aa64: handoffaa64.efi and the AArch64 fallback BOOTAA64.EFI (an
    arm64 machine's ESP made on this one); an x86 loader given as its image
    is refused by machine; `update` keeps it current as the x86 ones."""
    need(LOADERAA64)
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        ok(h("install", "--esp", esp, "--arch", "aa64"))
        assert sorted(os.listdir(os.path.join(esp, "EFI/BOOT"))) == ["BOOTAA64.EFI"]
        assert sorted(os.listdir(os.path.join(esp, "EFI/handoff"))) == ["handoffaa64.efi"]
        for p in ("EFI/handoff/handoffaa64.efi", "EFI/BOOT/BOOTAA64.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(LOADERAA64), p
        with open(os.path.join(esp, "EFI/BOOT/BOOTAA64.EFI"), "rb") as f:
            data = f.read()
        pe = struct.unpack_from("<I", data, 0x3C)[0]
        assert struct.unpack_from("<H", data, pe + 4)[0] == 0xAA64, "not an AArch64 image"
        before = tree_state(esp)
        r = ok(h("install", "--esp", esp, "--arch", "aa64"))
        assert tree_state(esp) == before and r.stdout == b"", "second install changed the tree"
        fails(h("install", "--esp", esp, "--arch", "aa64", "--loader", LOADER), 1, "not an AArch64 EFI application")
        assert tree_state(esp) == before, "a refused install wrote something"
        # an older loader there is replaced by update, the fallback with it
        for p in ("EFI/handoff/handoffaa64.efi", "EFI/BOOT/BOOTAA64.EFI"):
            with open(os.path.join(esp, p), "r+b") as f:
                f.seek(0, 2)
                f.write(b"old")
        ok(h("update", "--esp", esp))
        for p in ("EFI/handoff/handoffaa64.efi", "EFI/BOOT/BOOTAA64.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(LOADERAA64), p


@test
def install_netboot_tree_and_entries_list():
    """--netboot: the fallback loaders for both firmware word sizes, loader.conf
    and loader/entries.list; entry add/remove rewrite its entry lines and keep
    the others (comments, pins); nothing recorded in /etc/handoff."""
    need(KERNEL, INITRD)
    with Tmp() as tmp:
        srv = os.path.join(tmp, "srv")
        os.mkdir(srv)
        conf_dir = os.path.join(tmp, "etc-handoff")
        os.mkdir(conf_dir)
        env = {"HANDOFF_CONF_DIR": conf_dir}
        ok(h("install", "--esp", srv, "--netboot", env=env))
        assert sorted(os.listdir(os.path.join(srv, "EFI/BOOT"))) == ["BOOTIA32.EFI", "BOOTX64.EFI"]
        assert sha256(os.path.join(srv, "EFI/BOOT/BOOTX64.EFI")) == sha256(LOADER)
        assert sha256(os.path.join(srv, "EFI/BOOT/BOOTIA32.EFI")) == sha256(LOADER32)
        assert not os.path.exists(os.path.join(srv, "EFI/handoff")), "no Boot#### names a loader on a server"
        assert os.listdir(conf_dir) == [], "a server tree is not this machine's ESP"
        listing = os.path.join(srv, "loader/entries.list")
        head = open(listing).read()
        assert all(l.startswith("#") for l in head.splitlines()), head
        before = tree_state(srv)
        r = ok(h("install", "--esp", srv, "--netboot", env=env))
        assert tree_state(srv) == before and r.stdout == b"", "second install changed the tree"
        ok(h("entry", "add", "--esp", srv, "--linux", KERNEL, "--initrd", INITRD, "--entry-token", "fleet",
             "--version", "1.0", "--options", "console=ttyS0"))
        with open(listing, "a") as f:
            f.write("sha256 %s other/linux\nloader/entries/gone.conf\n" % ("ab" * 32))
        ok(h("entry", "add", "--esp", srv, "--linux", KERNEL, "--entry-token", "fleet", "--version", "2.0"))
        lines = open(listing).read().splitlines()
        assert lines == head.splitlines() + ["sha256 %s other/linux" % ("ab" * 32),
                                             "loader/entries/fleet-1.0.conf", "loader/entries/fleet-2.0.conf"], lines
        ok(h("entry", "remove", "--esp", srv, "fleet-1.0"))
        assert open(listing).read().splitlines()[-2:] == ["sha256 %s other/linux" % ("ab" * 32),
                                                          "loader/entries/fleet-2.0.conf"]
        # a name the loader would refuse in the list (one word, no '#') is left out, with a warning
        for name in ("my entry.conf", "a#b.conf"):
            with open(os.path.join(srv, "loader/entries", name), "w") as f:
                f.write("title x\nlinux /fleet/2.0/linux\n")
        r = ok(h("entry", "add", "--esp", srv, "--linux", KERNEL, "--entry-token", "fleet", "--version", "3.0"))
        assert open(listing).read().splitlines()[-3:] == ["sha256 %s other/linux" % ("ab" * 32),
                                                          "loader/entries/fleet-2.0.conf",
                                                          "loader/entries/fleet-3.0.conf"], open(listing).read()
        for name in ("my entry.conf", "a#b.conf"):
            assert ("loader/entries/%s: a blank, '#' or control character in the name: not listed in "
                    "loader/entries.list" % name).encode() in r.stderr, r.stderr
        fails(h("install", "--netboot"), 2, "--esp")
        fails(h("install", "--esp", srv, "--netboot", "--variables", "yes"), 2, "no --variables")


HOST_LINE = "host 52:54:00:12:34:56 loader/hosts/db.list"


@test
def entry_add_pin_netboot():
    """entry add --pin writes "sha256 HEX PATH" for the entry file, kernel and
    initrd (digests computed here), replaces them when the entry is added
    again, entry list shows them and a pin a file no longer matches, entry
    remove drops them; the admin's own lines (a comment, a pin, a host line) stay."""
    need(KERNEL, INITRD)
    with Tmp() as tmp:
        srv = os.path.join(tmp, "srv")
        os.mkdir(srv)
        env = {"HANDOFF_CONF_DIR": os.path.join(tmp, "none")}
        fails(h("entry", "add", "--esp", srv, "--linux", KERNEL, "--entry-token", "fleet", "--version", "1.0",
                "--pin", env=env), 1, "--pin: %s/loader/entries.list is missing" % srv)
        ok(h("install", "--esp", srv, "--netboot", env=env))
        listing = os.path.join(srv, "loader/entries.list")
        with open(listing, "a") as f:
            f.write("# mine\nsha256 %s other/linux\n%s\n" % ("cd" * 32, HOST_LINE))
        add = ["entry", "add", "--esp", srv, "--linux", KERNEL, "--initrd", INITRD, "--entry-token", "fleet",
               "--version", "1.0", "--pin"]
        ok(h(*add, "--options", "console=ttyS0", env=env))
        files = ["loader/entries/fleet-1.0.conf", "fleet/1.0/linux", "fleet/1.0/" + os.path.basename(INITRD)]

        def pins():
            return [l for l in open(listing).read().splitlines() if l.startswith("sha256 ")]
        assert pins() == ["sha256 %s other/linux" % ("cd" * 32)] + [
            "sha256 %s %s" % (sha256(os.path.join(srv, f)), f) for f in files], pins()
        e = json.loads(ok(h("entry", "list", "--esp", srv, "--json", env=env)).stdout)["entries"][0]
        assert e["pinned"] == files and e["problems"] == [], e
        # added again with other options: the entry file changed, its pin follows, one line each
        ok(h(*add, "--options", "console=ttyS0 quiet", env=env))
        assert pins()[1:] == ["sha256 %s %s" % (sha256(os.path.join(srv, f)), f) for f in files], pins()
        with open(os.path.join(srv, "fleet/1.0/linux"), "ab") as f:
            f.write(b"x")
        r = ok(h("entry", "list", "--esp", srv, env=env))
        assert b"pinned: fleet/1.0/linux" in r.stdout and (
            b"problem: /fleet/1.0/linux: its sha256 pin in loader/entries.list does not match the file" in r.stdout), \
            r.stdout
        ok(h("entry", "remove", "--esp", srv, "fleet-1.0", env=env))
        assert pins() == ["sha256 %s other/linux" % ("cd" * 32)] and "# mine" in open(listing).read()
        assert open(listing).read().splitlines().count(HOST_LINE) == 1, open(listing).read()
        fails(h(*add, "--in-place", "yes", env=env), 1, "--pin: a network boot tree holds the entry's files on the ESP")
        # layout=uki: the UKI is the one file
        ok(h(*add, "--layout", "uki", env=env))
        uki = "EFI/Linux/fleet-1.0.efi"
        assert pins()[1:] == ["sha256 %s %s" % (sha256(os.path.join(srv, uki)), uki)], pins()
        ok(h("entry", "remove", "--esp", srv, "fleet-1.0", env=env))
        assert pins() == ["sha256 %s other/linux" % ("cd" * 32)], pins()


# The ESP as the test hook HANDOFF_ESP_PARTITION gives it: number, first sector, sectors, partition GUID.
ESP_PARTITION = "1:2048:131072:c0ffee00-1234-4321-8765-0123456789ab"


@test
def install_boot_variable_32bit_firmware():
    """--variables yes on 32-bit firmware (fw_platform_size 32) names handoffia32.efi."""
    g = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
    with Tmp() as tmp:
        ev, esp = os.path.join(tmp, "efi", "efivars"), os.path.join(tmp, "esp")
        os.makedirs(ev)
        os.makedirs(esp)
        with open(os.path.join(tmp, "efi", "fw_platform_size"), "w") as f:
            f.write("32\n")
        env = {"HANDOFF_EFIVARS_DIR": ev, "HANDOFF_ESP_PARTITION": ESP_PARTITION}
        ok(h("install", "--esp", esp, "--arch", "both", "--variables", "yes", env=env))
        data = open(os.path.join(ev, f"Boot0000-{g}"), "rb").read()
        assert "\\EFI\\handoff\\handoffia32.efi\0".encode("utf-16-le") in data, data


@test
def install_boot_variable():
    """Boot#### and BootOrder through a stand-in efivarfs directory."""
    g = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
    with Tmp() as tmp:
        ev, esp = os.path.join(tmp, "efivars"), os.path.join(tmp, "esp")
        os.makedirs(ev)
        os.makedirs(esp)
        with open(os.path.join(ev, f"Boot0000-{g}"), "wb") as f:
            f.write(struct.pack("<I", 7) + b"firmware entry")
        with open(os.path.join(ev, f"BootOrder-{g}"), "wb") as f:
            f.write(struct.pack("<IHH", 7, 0, 3))
        env = {"HANDOFF_EFIVARS_DIR": ev, "HANDOFF_ESP_PARTITION": ESP_PARTITION}
        ok(h("install", "--esp", esp, "--loader", SDBOOT, "--variables", "yes", env=env))
        data = open(os.path.join(ev, f"Boot0001-{g}"), "rb").read()
        attrs, active, fpl = struct.unpack_from("<IIH", data, 0)
        assert attrs == 7 and active == 1
        desc_end = data.index(b"\0\0", 10)
        desc_end += (desc_end - 10) % 2
        assert data[10:desc_end].decode("utf-16-le") == "handoff"
        dp = data[desc_end + 2:]
        assert len(dp) == fpl
        t, st, ln, part, start, size = struct.unpack_from("<BBHIQQ", dp, 0)
        assert (t, st, ln, part, start, size) == (4, 1, 42, 1, 2048, 131072)
        import uuid
        assert uuid.UUID(bytes_le=dp[24:40]) == uuid.UUID("c0ffee00-1234-4321-8765-0123456789ab")
        assert dp[40:42] == b"\x02\x02"
        t, st, ln = struct.unpack_from("<BBH", dp, 42)
        assert (t, st) == (4, 4)
        assert dp[46:42 + ln].decode("utf-16-le") == "\\EFI\\handoff\\handoffx64.efi\0"
        assert dp[42 + ln:] == b"\x7f\xff\x04\x00"
        order = open(os.path.join(ev, f"BootOrder-{g}"), "rb").read()
        assert struct.unpack("<IHHH", order) == (7, 1, 0, 3)
        before = tree_state(tmp)
        ok(h("install", "--esp", esp, "--loader", SDBOOT, "--variables", "yes", env=env))
        assert tree_state(tmp) == before, "second install --variables yes changed something"
        fails(h("install", "--esp", esp, "--loader", SDBOOT, "--variables", "yes",
                env={"HANDOFF_EFIVARS_DIR": ev}), 1, "not on a FAT file system")
