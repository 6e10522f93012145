"""handoff uki and wrap on the malformed-image corpus, and outputs left alone
when uki, wrap or entry add fail midway."""
import os
import struct

from harness.paths import ROOT
from common import CORPUS, INITRD, KERNEL, Tmp, fails, h, need, ok, read_pe, sha256, test, tree_state


STUB = os.path.join(ROOT, "build", "handoff-stub.efi")


def dir_state(d):
    """Names in @d with their sha256 and mtime: a temporary file left behind,
    or an output touched, shows up as a difference."""
    return {n: (sha256(os.path.join(d, n)), os.stat(os.path.join(d, n)).st_mtime_ns) for n in sorted(os.listdir(d))}


@test
def uki_and_wrap_on_the_malformed_corpus():
    """Every image of the corpus as --linux: refused with one line naming the
    file (the existing output untouched, nothing left beside it), or, for a
    kernel whose bzImage header is sound, a well-formed result carrying the
    kernel's bytes unchanged (read back with this script's own PE reader)."""
    need(STUB)
    for name in sorted(os.listdir(CORPUS)):
        src = os.path.join(CORPUS, name)
        data = open(src, "rb").read()
        for cmd in ("uki", "wrap"):
            with Tmp() as tmp:
                out = os.path.join(tmp, "out.efi")
                with open(out, "wb") as f:
                    f.write(b"the previous image")
                before = dir_state(tmp)
                r = h(cmd, "--linux", src, "-o", out)
                if r.returncode != 0:
                    line = fails(r, 1)
                    assert src in line, f"{cmd} {name}: the error does not name the file: {line!r}"
                    assert dir_state(tmp) == before, f"{cmd} {name}: output touched or temporary file left"
                    continue
                img = open(out, "rb").read()
                pe = read_pe(img)
                assert pe["machine"] == 0x8664 and pe["subsystem"] == 10, f"{cmd} {name}: {pe}"
                if cmd == "uki":
                    sec = [x for x in pe["sections"] if x["name"] == ".linux"]
                    assert len(sec) == 1 and sec[0]["virtual_size"] == len(data), f"uki {name}: .linux {sec}"
                else:
                    # wrap.h: from the setup header to syssize's end the bzImage is carried unchanged
                    end = ((data[0x1f1] or 4) + 1) * 512 + struct.unpack_from("<I", data, 0x1f4)[0] * 16
                    assert img[0x1f1:end] == data[0x1f1:end], f"wrap {name}: the bzImage is not carried unchanged"
                    assert ".bzimage" in [x["name"] for x in pe["sections"]], f"wrap {name}: no .bzimage section"


@test
def uki_wrap_entry_add_fail_midway_leave_outputs():
    """A failure after the kernel was read (an initrd that cannot be read)
    leaves an existing output exactly as it was."""
    need(STUB)
    with Tmp() as tmp:
        out = os.path.join(tmp, "out", "uki.efi")
        os.makedirs(os.path.dirname(out))
        ok(h("uki", "--linux", KERNEL, "--cmdline", "console=ttyS0", "-o", out))
        before = dir_state(os.path.dirname(out))
        fails(h("uki", "--linux", KERNEL, "--initrd", tmp, "-o", out), 1, tmp)  # a directory as initrd
        assert dir_state(os.path.dirname(out)) == before, "uki: output touched"
        fails(h("wrap", "--linux", os.path.join(tmp, "missing"), "-o", out), 1, "missing")
        assert dir_state(os.path.dirname(out)) == before, "wrap: output touched"
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD, "--entry-token", "t",
             "--version", "1", "--options", "first"))
        state = tree_state(esp)
        other = os.path.join(tmp, "vmlinuz-other")  # a different kernel: replacing the old one would show
        with open(other, "wb") as f:
            f.write(open(KERNEL, "rb").read() + b"\0")
        fails(h("entry", "add", "--esp", esp, "--linux", other, "--initrd", INITRD,
                "--initrd", os.path.join(tmp, "missing-initrd"), "--entry-token", "t", "--version", "1",
                "--options", "second"), 1, "missing-initrd")
        assert tree_state(esp) == state, "entry add: the existing entry or its files changed"
