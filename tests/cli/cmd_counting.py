"""CLI tests of boot counting on the booted system: handoff bless (good,
bad, status) and the "Boot counting" line of handoff status, through a
stand-in efivarfs (HANDOFF_EFIVARS_DIR: LoaderBootCountPath, set as the
loader sets it) and an ESP directory. Expected names are the ones
systemd-bless-boot gives (UAPI.1 "Boot counting"), written out here."""
import json
import os
import struct

import common as t

LOADER_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
SYSTEMD_BLESS = ("/lib/systemd/systemd-bless-boot", "/usr/lib/systemd/systemd-bless-boot")


class Counted:
    """An ESP with one entry file and efivarfs naming it in LoaderBootCountPath."""

    def __init__(self, tmp, rel, var=None):
        self.esp, self.ev = os.path.join(tmp, "esp"), os.path.join(tmp, "efivars")
        os.makedirs(self.ev)
        self.dir = os.path.join(self.esp, os.path.dirname(rel))
        os.makedirs(self.dir)
        with open(os.path.join(self.esp, rel), "w") as f:
            f.write("title counted\nlinux /vmlinuz\n")
        value = var if var is not None else "\\" + rel.replace("/", "\\")
        with open(os.path.join(self.ev, "LoaderBootCountPath-" + LOADER_GUID), "wb") as f:
            f.write(struct.pack("<I", 6) + (value + "\0").encode("utf-16-le"))
        self.env = {"HANDOFF_EFIVARS_DIR": self.ev, "HANDOFF_CONF_DIR": os.path.join(tmp, "conf")}

    def h(self, *args):
        return t.h(*args, "--esp", self.esp, "--boot", os.path.join(self.esp, "no-boot"), env=self.env)

    def names(self):
        return sorted(os.listdir(self.dir))


def marked_by():
    """As handoff-bless-boot-generator decides: systemd-bless-boot installed, its unit and generator not masked."""
    masked = any(os.path.exists(d + n) and os.stat(d + n).st_size == 0 for d in ("/etc/systemd/", "/run/systemd/")
                 for n in ("system/systemd-bless-boot.service", "system-generators/systemd-bless-boot-generator"))
    installed = any(os.access(p, os.X_OK) for p in SYSTEMD_BLESS)
    return "systemd-bless-boot" if installed and not masked else "handoff bless"


@t.test
def bless_good_drops_the_counter():
    with t.Tmp() as tmp:
        c = Counted(tmp, "loader/entries/deb-6.1+2-1.conf")
        assert t.ok(c.h("bless", "--status")).stdout == b"indeterminate\n"
        st = t.ok(c.h("status")).stdout.decode()
        assert "Boot counting: entry deb-6.1, 2 tries left, 1 done; marked good by %s" % marked_by() in st, st
        r = t.ok(c.h("bless"))
        assert c.names() == ["deb-6.1.conf"], c.names()
        assert r.stdout.decode() == "renamed %s/deb-6.1+2-1.conf to deb-6.1.conf\n" % c.dir, r.stdout
        assert t.ok(c.h("bless", "--status")).stdout == b"good\n"
        r = t.ok(c.h("bless", "--good"))  # systemd-bless-boot or handoff again: nothing renamed twice
        assert c.names() == ["deb-6.1.conf"] and r.stdout == b"", (c.names(), r.stdout)
        js = json.loads(t.ok(c.h("status", "--json")).stdout)["boot_counting"]
        assert (js["state"], js["entry"], js["file"]) == ("good", "deb-6.1",
                                                          os.path.join(c.dir, "deb-6.1.conf")), js


@t.test
def bless_bad_marks_plus_zero():
    with t.Tmp() as tmp:
        c = Counted(tmp, "loader/entries/deb-6.1+1-2.conf")
        t.ok(c.h("bless", "--bad"))
        assert c.names() == ["deb-6.1+0-2.conf"], c.names()
        assert t.ok(c.h("bless", "--status")).stdout == b"bad\n"
        t.ok(c.h("bless"))  # good after bad, as systemd-bless-boot good does
        assert c.names() == ["deb-6.1.conf"], c.names()


@t.test
def bless_a_uki_on_the_esp():
    with t.Tmp() as tmp:
        c = Counted(tmp, "EFI/Linux/deb-6.1+3.efi", var="\\EFI\\Linux\\deb-6.1+3.efi")
        assert t.ok(c.h("bless", "--status")).stdout == b"indeterminate\n"
        t.ok(c.h("bless"))
        assert c.names() == ["deb-6.1.efi"], c.names()


@t.test
def bless_refuses_what_it_cannot_mark():
    with t.Tmp() as tmp:
        c = Counted(tmp, "loader/entries/deb-6.1+2-1.conf")
        os.unlink(os.path.join(c.dir, "deb-6.1+2-1.conf"))
        t.fails(c.h("bless"), 1, "none of deb-6.1+2-1.conf, deb-6.1.conf, deb-6.1+0-1.conf in loader/entries/")
        t.fails(c.h("bless", "--status"), 1, "so the state is unknown")
    with t.Tmp() as tmp:
        c = Counted(tmp, "loader/entries/plain.conf")
        t.fails(c.h("bless"), 1, "plain.conf has no boot counter")
    with t.Tmp() as tmp:
        c = Counted(tmp, "loader/entries/x+1.conf", var="\\loader\\..\\x+1.conf")
        t.fails(c.h("bless"), 1, "has an empty, \".\" or \"..\" component")
    with t.Tmp() as tmp:
        c = Counted(tmp, "loader/entries/x+1.conf")
        os.unlink(os.path.join(c.ev, "LoaderBootCountPath-" + LOADER_GUID))
        assert t.ok(c.h("bless", "--status")).stdout == b"clean\n"
        t.fails(c.h("bless"), 1, "not booted with boot counting")
        assert "Boot counting" not in t.ok(c.h("status")).stdout.decode()
        t.fails(c.h("bless", "--good", "--bad"), 2, "exclude each other")
