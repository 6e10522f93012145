"""handoff uki and wrap on the malformed-image corpus, and outputs left alone
when uki, wrap or entry add fail midway; uki --microcode (.ucode)."""
import json
import os
import struct

from harness.paths import ROOT
from harness.tool import add_section
from common import ARM64_KERNEL, CORPUS, INITRD, KERNEL, Tmp, fails, h, need, ok, read_pe, sha256, test, tree_state


STUB = os.path.join(ROOT, "build", "handoff-stub.efi")
STUBAA64 = os.path.join(ROOT, "build", "handoff-stubaa64.efi")


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


def raw_offsets(img):
    """Each section's PointerToRawData (PE/COFF §4), by name."""
    pe = struct.unpack_from("<I", img, 0x3c)[0]
    nsec, opt_size = struct.unpack_from("<H", img, pe + 6)[0], struct.unpack_from("<H", img, pe + 20)[0]
    table = pe + 24 + opt_size
    return {img[o:o + 8].rstrip(b"\0").decode(): struct.unpack_from("<I", img, o + 20)[0]
            for o in (table + 40 * i for i in range(nsec))}


@test
def uki_microcode_section_listed_by_inspect():
    """`uki --microcode`: the archive as .ucode, byte for byte (read with this
    script's own PE reader), before .initrd; `inspect` lists it, in text and
    JSON; a file that is no uncompressed cpio archive is refused by name."""
    need(STUB)
    with Tmp() as tmp:
        ucode = os.path.join(tmp, "ucode.cpio")
        data = b"070701" + b"0" * 104 + b"TRAILER!!!\0\0"
        with open(ucode, "wb") as f:
            f.write(data)
        out = os.path.join(tmp, "u.efi")
        ok(h("uki", "--linux", KERNEL, "--initrd", INITRD, "--microcode", ucode, "-o", out))
        img = open(out, "rb").read()
        s = {x["name"]: x for x in read_pe(img)["sections"]}[".ucode"]
        raw = raw_offsets(img)
        assert s["virtual_size"] == len(data), s
        assert img[raw[".ucode"]:raw[".ucode"] + len(data)] == data, ".ucode is not the archive"
        assert raw[".ucode"] < raw[".initrd"], "the .ucode section comes after .initrd"
        text = ok(h("inspect", out)).stdout.decode()
        assert "UKI .ucode" in text and "%d bytes" % len(data) in text, text
        assert json.loads(ok(h("inspect", "--json", out)).stdout)["uki"]["ucode_size"] == len(data)
        gz = os.path.join(tmp, "ucode.cpio.gz")
        with open(gz, "wb") as f:
            f.write(b"\x1f\x8b\x08\0" + bytes(16))
        fails(h("uki", "--linux", KERNEL, "--microcode", gz, "-o", out), 1, "microcode: not an uncompressed cpio")



@test
def uki_sections_handoffs_stub_does_not_handle_refused_by_name():
    """.dtbauto, .hwids and .efifw (systemd-stub picks a device tree or
    firmware by the machine's hardware IDs): `handoff uki` refuses a stub
    carrying one, and `inspect` a UKI of handoff's stub carrying one, each
    naming the section in the same words; a systemd-stub UKI with one is
    inspected as before (systemd-stub handles it)."""
    need(STUB)
    with Tmp() as tmp:
        for name in (".dtbauto", ".hwids", ".efifw"):
            said = "UKI has a %s section, which handoff's stub does not handle" % name
            stub = add_section(STUB, os.path.join(tmp, "stub.efi"), name, b"x" * 16, tmp)
            out = os.path.join(tmp, "u.efi")
            fails(h("uki", "--stub", stub, "--linux", KERNEL, "-o", out), 1, said)
            assert not os.path.exists(out), "uki wrote an output"
            good = os.path.join(tmp, "good.efi")
            ok(h("uki", "--linux", KERNEL, "-o", good))
            ok(h("inspect", good))
            bad = add_section(good, os.path.join(tmp, "bad.efi"), name, b"x" * 16, tmp)
            fails(h("inspect", bad), 1, said)


@test
def uki_stub_of_another_machine_refused_naming_both():
    """An explicit --stub for the other machine: Debian's arm64 Image with
    handoff's x86-64 stub, Debian's x86-64 bzImage with the AArch64 stub;
    each refused naming both machines and why (a UKI's stub and kernel are
    for one machine), not as 'not a bzImage'; nothing written."""
    need(STUB, STUBAA64, ARM64_KERNEL)
    with Tmp() as tmp:
        out = os.path.join(tmp, "u.efi")
        line = fails(h("uki", "--stub", STUB, "--linux", ARM64_KERNEL, "-o", out), 1,
                     "%s: an arm64 kernel Image, and %s is an x86-64 stub" % (ARM64_KERNEL, STUB))
        assert line.endswith(": a UKI's stub and kernel must be for the same machine"), line
        line = fails(h("uki", "--stub", STUBAA64, "--linux", KERNEL, "-o", out), 1,
                     "%s: an x86-64 bzImage, and %s is an arm64 stub" % (KERNEL, STUBAA64))
        assert line.endswith(": a UKI's stub and kernel must be for the same machine"), line
        assert os.listdir(tmp) == [], os.listdir(tmp)


@test
def uki_default_stub_follows_the_kernels_machine():
    """Without --stub, `handoff uki` takes handoff-stubaa64.efi for an arm64
    Image and handoff-stub.efi for a bzImage: each UKI is its stub with the
    sections appended (the stub's bytes first, the machine its), the kernel
    carried unchanged in .linux; the arm64 UKI's .uname and .osrel come from
    the Image's banner. `inspect` says the stub's machine, the kernel's, and
    that AArch64 firmware (handoffaa64.efi) boots it by stub, x86 firmware not."""
    need(STUB, STUBAA64, ARM64_KERNEL)
    with Tmp() as tmp:
        for kernel, stub, machine in ((ARM64_KERNEL, STUBAA64, 0xaa64), (KERNEL, STUB, 0x8664)):
            out = os.path.join(tmp, "u.efi")
            ok(h("uki", "--linux", kernel, "--cmdline", "console=ttyAMA0", "-o", out))
            img, stub_data, data = (open(p, "rb").read() for p in (out, stub, kernel))
            pe = read_pe(img)
            assert pe["machine"] == machine, (kernel, hex(pe["machine"]))
            n = len(read_pe(stub_data)["sections"])
            assert [x["name"] for x in pe["sections"][:n]] == [x["name"] for x in read_pe(stub_data)["sections"]]
            sec = [x for x in pe["sections"] if x["name"] == ".linux"]
            assert len(sec) == 1 and sec[0]["virtual_size"] == len(data) and data in img, kernel
        j = json.loads(ok(h("inspect", "--json", out)).stdout)
        assert (j["uki"]["stub_machine"], j["uki"]["linux_machine"]) == ("x86_64", "x86_64"), j["uki"]
        ok(h("uki", "--linux", ARM64_KERNEL, "-o", out))
        j = json.loads(ok(h("inspect", "--json", out)).stdout)
        u = j["uki"]
        assert (u["stub_machine"], u["linux_machine"], u["handoff_stub"]) == ("arm64", "arm64", True), u
        assert u["uname"].endswith("-arm64") and u["osrel"]["VERSION_ID"] == u["uname"], u
        assert j["schemes_aa64"] == ["stub"] and j["schemes"] == [], (j["schemes_aa64"], j["schemes"])
        text = ok(h("inspect", out)).stdout.decode()
        for want in ("UKI stub             arm64, handoff's", "(arm64 kernel Image)", "on AArch64 firmware  stub: yes"):
            assert want in text, (want, text)
