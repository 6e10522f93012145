"""Issue 21: text the loader reads is well-formed UTF-8, and the tool neither
writes what the loader would skip nor reads it differently. Entries with an
ill-formed line (entry list names file, line and byte offset; entry remove
takes no file from it), options and command-line files refused by entry add,
a .cmdline refused by uki, Boot Loader Interface strings as UTF-16 with
surrogate pairs both ways."""
import json
import os
import struct

import common as t
from cmd_system import LOADER_GUID, System, efivar

EVIL = b"quiet\xc0\x80 init=/bin/evil"


@t.test
def utf8_entry_list_and_remove_skip_ill_formed_lines():
    with t.Tmp() as esp:
        t.ok(t.h("entry", "add", "--esp", esp, "--linux", t.KERNEL, "--entry-token", "t", "--version", "1",
                 "--options", "console=ttyS0"))
        with open(os.path.join(esp, "loader/entries/t-1.conf"), "ab") as f:
            f.write(b"options " + EVIL + b"\ninitrd /t/1/linux\xc0\x80\n")
        j = json.loads(t.ok(t.h("entry", "list", "--esp", esp, "--json")).stdout)
        (e,) = j["entries"]
        assert e["options"] == "console=ttyS0", e["options"]
        want = "t-1.conf:%d: invalid UTF-8 at byte offset 13 (0xc0), ignored"
        lines = open(os.path.join(esp, "loader/entries/t-1.conf"), "rb").read().split(b"\n")
        n = lines.index(b"options " + EVIL) + 1
        assert any(p.endswith(want % n) for p in e["problems"]), e["problems"]
        assert any(p.endswith("t-1.conf:%d: invalid UTF-8 at byte offset 17 (0xc0), ignored" % (n + 1))
                   for p in e["problems"]), e["problems"]
        # remove: the kernel goes with its entry; the ill-formed initrd line names nothing
        t.ok(t.h("entry", "remove", "--esp", esp, "t-1"))
        assert not os.path.exists(os.path.join(esp, "t"))


@t.test
def utf8_entry_add_refuses_what_the_loader_would_skip():
    with t.Tmp() as esp:
        for opt in ("--options", "--title"):
            t.fails(t.h("entry", "add", "--esp", esp, "--linux", t.KERNEL, opt, EVIL), 2,
                    "--options and --title must be one line of UTF-8 text")
        assert not os.path.exists(os.path.join(esp, "loader"))
        t.ok(t.h("entry", "add", "--esp", esp, "--linux", t.KERNEL, "--entry-token", "t", "--version", "1",
                 "--options", "root=LABEL=\u043a\u043e\u0440\u0435\u043d\u044c \U0001f600"))
        j = json.loads(t.ok(t.h("entry", "list", "--esp", esp, "--json")).stdout)
        assert j["entries"][0]["options"] == "root=LABEL=\u043a\u043e\u0440\u0435\u043d\u044c \U0001f600"
        assert j["entries"][0]["problems"] == []
    with t.Tmp() as tmp:
        s = System(tmp)
        with open(os.path.join(s.kconf, "cmdline"), "wb") as f:
            f.write(b"root=/dev/vda1 " + EVIL + b"\n")
        t.fails(s.add("--in-place", "no"), 1, "%s/cmdline: invalid UTF-8 at byte offset 20 (0xc0)" % s.kconf)
        assert s.entries("esp") == []


@t.test
def utf8_uki_refuses_a_cmdline_the_stub_would_refuse():
    with t.Tmp() as tmp:
        out = os.path.join(tmp, "uki.efi")
        t.fails(t.h("uki", "--linux", t.KERNEL, "--cmdline", EVIL, "-o", out), 1,
                ".cmdline: invalid UTF-8 at byte offset 5 (0xc0)")
        with open(os.path.join(tmp, "cmdline"), "wb") as f:
            f.write(b"console=ttyS0\nquiet\n")
        t.fails(t.h("uki", "--linux", t.KERNEL, "--cmdline", "@" + os.path.join(tmp, "cmdline"), "-o", out), 1,
                ".cmdline: line feed at byte offset 13")
        assert not os.path.exists(out)
        t.ok(t.h("uki", "--linux", t.KERNEL, "--cmdline", "console=ttyS0 caf\u00e9\n", "-o", out))


@t.test
def utf8_variables_are_utf16_with_pairs():
    with t.Tmp() as tmp:
        ev = os.path.join(tmp, "efivars")
        os.makedirs(ev)
        env = {"HANDOFF_EFIVARS_DIR": ev}
        path = os.path.join(ev, "LoaderEntryOneShot-" + LOADER_GUID)
        t.ok(t.h("set-oneshot", "d\u00e9bian-\U0001f600", env=env))
        assert open(path, "rb").read() == struct.pack("<I", 7) + "d\u00e9bian-\U0001f600\0".encode("utf-16-le")
        t.fails(t.h("set-oneshot", b"deb" + EVIL, env=env), 1, "invalid UTF-8 at byte offset 8 (0xc0)")
        assert open(path, "rb").read()[4:] == "d\u00e9bian-\U0001f600\0".encode("utf-16-le"), "changed"
        s = System(os.path.join(tmp, "sys"))
        s.env["HANDOFF_EFIVARS_DIR"] = ev
        # a pair, a lone low surrogate, a high one at the end: as the loader decodes them
        efivar(ev, "LoaderEntrySelected", LOADER_GUID, "a\U0001f600".encode("utf-16-le") + b"\x00\xdc\x3d\xd8",
               attrs=6)
        j = json.loads(t.ok(s.h("status", "--json", "--boot", s.boot)).stdout)
        assert j["loader"]["entry"] == "a\U0001f600\ufffd\ufffd", j["loader"]["entry"]
