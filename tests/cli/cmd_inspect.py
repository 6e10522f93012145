"""handoff inspect: kernels, EFI applications, UKIs, the malformed corpus, the
schemes a kernel supports on 32-bit firmware and on AArch64 firmware."""
import json
import os
import struct

from common import (
    ARM64_KERNEL,
    CORPUS,
    GRUB32,
    INITRD,
    KERNEL,
    LOADER32,
    LOADERAA64,
    SDBOOT,
    Tmp,
    fails,
    h,
    make_uki,
    need,
    ok,
    read_pe,
    read_setup_header,
    test,
)


@test
def inspect_debian_kernel_json():
    with open(KERNEL, "rb") as f:
        data = f.read()
    j = json.loads(ok(h("inspect", "--json", KERNEL)).stdout)
    want = read_setup_header(data)
    assert j["format"] == "bzImage"
    for k, v in want.items():
        assert j[k] == v, f"{k}: {j[k]!r} != {v!r}"
    pe = read_pe(data)
    assert j["pe"]["machine"] == pe["machine"] == 0x8664
    assert j["pe"]["subsystem"] == pe["subsystem"] == 10
    got = [{k: s[k] for k in ("name", "virtual_address", "virtual_size", "raw_size")} for s in j["pe"]["sections"]]
    assert got == pe["sections"], f"{got} != {pe['sections']}"
    assert j["signed"] == pe["signed"]
    assert "XLF_KERNEL_64" in j["xloadflags_names"]
    assert j["size"] == len(data)
    xlf = want["xloadflags"]
    expect = ["stub"] + (["handover"] if xlf & 8 and want["handover_offset"] else []) + (["legacy"] if xlf & 1 else [])
    assert j["schemes"] == expect, j["schemes"]


@test
def inspect_debian_kernel_text():
    out = ok(h("inspect", KERNEL)).stdout.decode()
    with open(KERNEL, "rb") as f:
        want = read_setup_header(f.read())
    assert "bzImage (with PE/COFF masquerade)" in out
    assert want["kernel_version"] in out
    assert f"boot protocol        {want['boot_protocol']}" in out
    assert "handover: yes" in out


@test
def inspect_efi_application():
    j = json.loads(ok(h("inspect", "--json", SDBOOT)).stdout)
    assert j["format"] == "pe"
    assert "boot_protocol" not in j
    assert j["schemes"] == ["stub"]
    assert j["schemes_rejected"]["handover"] == "not a bzImage"
    assert "systemd" in j["sbat"]
    with open(SDBOOT, "rb") as f:
        pe = read_pe(f.read())
    assert [s["name"] for s in j["pe"]["sections"]] == [s["name"] for s in pe["sections"]]
    assert j["signed"] is False



@test
def inspect_uki():
    with Tmp() as tmp:
        uki = make_uki(tmp, with_initrd=True)
        j = json.loads(ok(h("inspect", "--json", uki)).stdout)
        with open(KERNEL, "rb") as f:
            want = read_setup_header(f.read())
        assert j["format"] == "uki"
        assert j["boot_protocol"] == want["boot_protocol"]
        assert j["kernel_version"] == want["kernel_version"]
        assert j["uki"]["cmdline"] == "console=ttyS0 quiet"
        assert j["uki"]["osrel"] == {"NAME": "Test", "PRETTY_NAME": 'Test OS "1"', "ID": "test", "VERSION_ID": "1"}
        assert j["uki"]["linux_size"] == os.path.getsize(KERNEL)
        assert j["uki"]["initrd_size"] == os.path.getsize(INITRD)
        assert j["schemes"] == ["stub"]
        text = ok(h("inspect", uki)).stdout.decode()
        assert "format               uki" in text and "Test OS" in text


@test
def inspect_corpus():
    names = sorted(os.listdir(CORPUS))
    assert len(names) >= 20, names
    for n in names:
        p = os.path.join(CORPUS, n)
        for flags in ((), ("--json",)):
            r = h("inspect", *flags, p)
            if n.startswith("ok-"):
                ok(r, n)
                if flags:
                    json.loads(r.stdout)
            else:
                line = fails(r, 1, needle=f"handoff: inspect: {p}: ")
                assert r.stdout == b"", f"{n}: printed {r.stdout[:60]!r}"
                assert "\x1b" not in line


@test
def inspect_synthetic_values():
    """The corpus base image: values mkcorpus.py put there."""
    j = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-synthetic"))).stdout)
    assert j["setup_sects"] == 3 and j["boot_protocol"] == "2.15"
    assert j["handover_offset"] == 0x190 and j["init_size"] == 0x10000
    assert j["xloadflags_names"] == ["XLF_KERNEL_64", "XLF_CAN_BE_LOADED_ABOVE_4G", "XLF_EFI_HANDOVER_64"]
    assert j["kernel_version"] == "6.9.0-corpus (t@x) #1 "
    assert j["signed"] is False
    assert j["schemes"] == ["stub", "handover", "legacy"]
    s = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-signed"))).stdout)
    assert s["signed"] is True
    w = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-weird-section-name"))).stdout)
    assert w["pe"]["sections"][0]["name"] == '"\\\n\x1b\ufffd'
    u = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-uki"))).stdout)
    assert u["format"] == "uki" and u["setup_sects"] == 3 and u["schemes"] == ["stub"]
    assert u["uki"]["cmdline"] == "console=ttyS0 quiet"
    assert u["uki"]["osrel"] == {"PRETTY_NAME": 'Corpus "OS"', "NAME": "Corpus", "ID": "corpus"}
    t = ok(h("inspect", os.path.join(CORPUS, "ok-weird-section-name"))).stdout
    assert b"\x1b" not in t and b"\xff" not in t


@test
def inspect_file_errors():
    with Tmp() as tmp:
        fails(h("inspect", os.path.join(tmp, "missing")), 1, "No such file")
        fails(h("inspect", tmp), 1, "is a directory")
        trunc = os.path.join(tmp, "vmlinuz")
        with open(KERNEL, "rb") as f:
            data = f.read()
        for size in (0x100, 0x300, 16384, len(data) // 2):
            with open(trunc, "wb") as f:
                f.write(data[:size])
            fails(h("inspect", "--json", trunc), 1, f"{trunc}: ")
        sparse = os.path.join(tmp, "huge")
        with open(sparse, "wb") as f:
            f.truncate(2 << 30)
        fails(h("inspect", sparse), 1, "more than")


def read_compat_ia32(data):
    """Linux arch/x86/boot/header.S: the ".compat" section's {u8 type, u8 size,
    u16 machine, u32 entry} records; the IA-32 (0x14c) entry, or 0."""
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    nsec = struct.unpack_from("<H", data, pe + 6)[0]
    opt_size = struct.unpack_from("<H", data, pe + 20)[0]
    for i in range(nsec):
        o = pe + 24 + opt_size + 40 * i
        if data[o:o + 8].rstrip(b"\0") == b".compat":
            raw_size, raw_off = struct.unpack_from("<II", data, o + 16)
            sec = data[raw_off:raw_off + raw_size]
            off = 0
            while off + 8 <= len(sec) and sec[off] != 0 and sec[off + 1] >= 8:
                kind, size, machine, entry = struct.unpack_from("<BBHI", sec, off)
                if kind == 1 and machine == 0x14c:
                    return entry
                off += size
    return 0


@test
def inspect_schemes_on_32bit_firmware():
    """schemes_ia32: the .compat IA-32 entry (stub), XLF_EFI_HANDOVER_32
    (handover), XLF_KERNEL_64 (legacy, the 32-bit boot protocol)."""
    with open(KERNEL, "rb") as f:
        data = f.read()
    hdr = read_setup_header(data)
    xlf, compat = hdr["xloadflags"], read_compat_ia32(data)
    j = json.loads(ok(h("inspect", "--json", KERNEL)).stdout)
    assert j["pe"]["compat_entry_ia32"] == compat, (j["pe"]["compat_entry_ia32"], compat)
    expect = (["stub"] if compat else []) + (["handover"] if xlf & 4 and hdr["handover_offset"] else []) + \
        (["legacy"] if xlf & 1 else [])
    assert j["schemes_ia32"] == expect, j["schemes_ia32"]
    assert j["schemes_ia32_rejected"] == {}, j["schemes_ia32_rejected"]
    out = ok(h("inspect", KERNEL)).stdout.decode()
    assert "on 32-bit firmware   stub: yes" in out, out
    with Tmp() as tmp:
        # without XLF_EFI_HANDOVER_32 / as a 32-bit kernel (no XLF_KERNEL_64)
        for flags, scheme, needle in ((xlf & ~4, "handover", "XLF_EFI_HANDOVER_32 not set"),
                                      (4, "legacy", "XLF_KERNEL_64 not set")):
            k = os.path.join(tmp, "k%x" % flags)
            with open(k, "wb") as f:
                f.write(data[:0x236] + struct.pack("<H", flags) + data[0x238:])
            j = json.loads(ok(h("inspect", "--json", k)).stdout)
            assert scheme not in j["schemes_ia32"], j
            assert needle in j["schemes_ia32_rejected"][scheme], j["schemes_ia32_rejected"]
    j = json.loads(ok(h("inspect", "--json", SDBOOT)).stdout)
    assert j["schemes_ia32"] == [] and "IA-32" in j["schemes_ia32_rejected"]["stub"], j
    for app in (LOADER32, GRUB32):
        j = json.loads(ok(h("inspect", "--json", app)).stdout)
        assert j["pe"]["machine"] == 0x14c and j["pe"]["machine_name"] == "i386", app
        assert j["schemes"] == [] and j["schemes_ia32"] == ["stub"], (app, j["schemes"], j["schemes_ia32"])


@test
def inspect_arm64_kernel():
    """Debian's arm64 Image: a PE/COFF image of machine 0xAA64 behind the arm64
    boot header ("ARM\\x64" at 0x38); handoffaa64.efi boots it by its EFI stub,
    x86 firmware not at all; and an x86 kernel is nothing AArch64 starts."""
    need(ARM64_KERNEL, LOADERAA64)
    with open(ARM64_KERNEL, "rb") as f:
        data = f.read()
    assert data[0x38:0x3c] == b"ARM\x64"
    pe = read_pe(data)
    j = json.loads(ok(h("inspect", "--json", ARM64_KERNEL)).stdout)
    assert j["format"] == "pe" and j["arm64_image"] is True, (j["format"], j["arm64_image"])
    assert j["pe"]["machine"] == pe["machine"] == 0xaa64 and j["pe"]["machine_name"] == "arm64", j["pe"]
    assert j["schemes"] == [] and j["schemes_ia32"] == [], (j["schemes"], j["schemes_ia32"])
    assert j["schemes_aa64"] == ["stub"], j["schemes_aa64"]
    for scheme in ("handover", "legacy"):
        assert j["schemes_aa64_rejected"][scheme] == \
            f"{scheme} is an x86 boot protocol; AArch64 boots by the kernel's EFI stub", j["schemes_aa64_rejected"]
    out = ok(h("inspect", ARM64_KERNEL)).stdout.decode()
    assert "format               pe (arm64 kernel Image)" in out, out
    assert "on AArch64 firmware  stub: yes" in out, out
    j = json.loads(ok(h("inspect", "--json", KERNEL)).stdout)
    assert j["arm64_image"] is False and j["schemes_aa64"] == [], j["schemes_aa64"]
    assert "not an AArch64 EFI application" in j["schemes_aa64_rejected"]["stub"], j["schemes_aa64_rejected"]
    j = json.loads(ok(h("inspect", "--json", LOADERAA64)).stdout)
    assert j["arm64_image"] is False and j["schemes_aa64"] == ["stub"], (j["arm64_image"], j["schemes_aa64"])
