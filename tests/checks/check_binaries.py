#!/usr/bin/python3
"""Checks the built EFI binaries, reading the PE headers here independently of
src/core/pe.c: x86-64 PE32+ (IA-32 PE32 for the 32-bit firmware loader, AArch64
PE32+ for the arm64 loader and stub), EFI application subsystem, 4 KiB section alignment,
a .reloc section with base relocations, no section both writable and
executable, NX compatible, a .sbat section in shim's format (SBAT.md: the
"sbat,1," header line, then handoff's own line), and the size budgets
(tests/harness/paths.py SIZE_BUDGETS, docs/style.md rule 12). The packed
loaders and stub (docs/design.md "Packed loaders"): the images they carry pass the same
checks but the budget, and each one's .image section decodes with the
reference LZMA implementation (Python's lzma, liblzma), its branch filter (x86's or
AArch64's, by the payload's machine) and relocation
differences undone by the code here, to exactly its image laid out here."""
import os
import struct
import sys
import lzma
import zlib


sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: the harness package
from harness.paths import (LOADER, LOADER32, LOADERAA64, LOADER_IMAGE, LOADER32_IMAGE,  # noqa: E402
                           LOADERAA64_IMAGE, STUB, STUB_IMAGE, STUBAA64, STUBAA64_IMAGE, SIZE_BUDGETS)

# path: (size budget, machine, optional header magic, its size before the data directories)
X64, IA32, AA64 = (0x8664, 0x20B, 112), (0x14C, 0x10B, 96), (0xAA64, 0x20B, 112)
MACHINES = {0x8664: "x86-64", 0x14C: "i386", 0xAA64: "arm64"}
BINARIES = {LOADER: (SIZE_BUDGETS[LOADER],) + X64, STUB: (SIZE_BUDGETS[STUB],) + X64,
            LOADER32: (SIZE_BUDGETS[LOADER32],) + IA32, LOADERAA64: (SIZE_BUDGETS[LOADERAA64],) + AA64,
            LOADER_IMAGE: (None,) + X64, LOADER32_IMAGE: (None,) + IA32, LOADERAA64_IMAGE: (None,) + AA64,
            STUB_IMAGE: (None,) + X64, STUBAA64: (SIZE_BUDGETS[STUBAA64],) + AA64, STUBAA64_IMAGE: (None,) + AA64}
PACKED = {LOADER: LOADER_IMAGE, LOADER32: LOADER32_IMAGE, LOADERAA64: LOADERAA64_IMAGE, STUB: STUB_IMAGE,
          STUBAA64: STUBAA64_IMAGE}
SCN_MEM_EXECUTE, SCN_MEM_WRITE = 0x20000000, 0x80000000
DLL_NX_COMPAT = 0x0100

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else f": {detail}"))
    passed, failed = passed + ok, failed + (not ok)


def inspect(path, budget, want_machine, want_magic, dirs):
    data = open(path, "rb").read()
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    check(f"{path}: MZ and PE signatures", data[:2] == b"MZ" and data[pe:pe + 4] == b"PE\0\0")
    machine, nsec, stamp, _, _, optsize, _ = struct.unpack_from("<HHIIIHH", data, pe + 4)
    want_stamp = int(os.environ.get("SOURCE_DATE_EPOCH", "0")) & 0xFFFFFFFF
    check(f"{path}: PE timestamp {want_stamp} (SOURCE_DATE_EPOCH or 0), not the link time: reproducible",
          stamp == want_stamp, str(stamp))
    opt = pe + 24
    magic = struct.unpack_from("<H", data, opt)[0]
    sect_align, file_align = struct.unpack_from("<II", data, opt + 32)
    subsystem, dllchar = struct.unpack_from("<HH", data, opt + 68)
    nrva = struct.unpack_from("<I", data, opt + dirs - 4)[0]
    reloc_rva, reloc_size = struct.unpack_from("<II", data, opt + dirs + 5 * 8) if nrva > 5 else (0, 0)
    check(f"{path}: machine {MACHINES[want_machine]}", machine == want_machine, hex(machine))
    check(f"{path}: {'PE32+' if want_magic == 0x20B else 'PE32'}", magic == want_magic, hex(magic))
    check(f"{path}: subsystem EFI application (10)", subsystem == 10, str(subsystem))
    check(f"{path}: section alignment 4096", sect_align == 4096, str(sect_align))
    check(f"{path}: NX compatible", bool(dllchar & DLL_NX_COMPAT), hex(dllchar))
    sections = []
    sbat = image = None
    for i in range(nsec):
        h = opt + optsize + 40 * i
        name = data[h:h + 8].rstrip(b"\0").decode()
        vsize, va, rsize, roff = struct.unpack_from("<IIII", data, h + 8)
        chars = struct.unpack_from("<I", data, h + 36)[0]
        sections.append((name, va, vsize, chars, roff))
        if name == ".sbat":
            sbat = data[roff:roff + vsize]
        if name == ".image":
            image = data[roff:roff + vsize]
    coff_chars = struct.unpack_from("<H", data, pe + 22)[0]
    check(f"{path}: relocatable (IMAGE_FILE_RELOCS_STRIPPED clear)", not coff_chars & 1, hex(coff_chars))
    # these unpackers address everything PC-relative: nothing to relocate
    if path in (LOADER, STUB, LOADERAA64, STUBAA64):
        check(f"{path}: no base relocation needed, none present", reloc_size == 0, f"reloc dir size {reloc_size}")
    else:
        check(f"{path}: .reloc section with base relocations",
              any(s[0] == ".reloc" for s in sections) and reloc_size > 0, f"reloc dir size {reloc_size}")
    wx = [s[0] for s in sections if s[3] & SCN_MEM_EXECUTE and s[3] & SCN_MEM_WRITE]
    check(f"{path}: no writable+executable section", not wx, ", ".join(wx))
    # shim's loader refuses a section whose RVA or PointerToRawData is below SizeOfHeaders
    # ("Section N is inside image headers"), an uninitialized one's PointerToRawData 0 too
    size_of_headers = struct.unpack_from("<I", data, opt + 60)[0]
    inside = [s[0] for s in sections if s[1] < size_of_headers or s[4] < size_of_headers]
    check(f"{path}: every section past the headers (shim loads it)", not inside, ", ".join(inside))
    lines = sbat.decode("ascii", "replace").splitlines() if sbat is not None else []
    check(f"{path}: .sbat: 'sbat,1,' then a 'handoff,N,' line, no NUL",
          len(lines) >= 2 and lines[0].startswith("sbat,1,") and lines[1].startswith("handoff,")
          and len(lines[1].split(",")) == 6 and b"\0" not in sbat, repr(sbat))
    if budget is not None:
        check(f"{path}: size {len(data)} <= budget {budget}", len(data) <= budget, f"{len(data)} bytes")
    check_header_room(path, data, opt + optsize + 40 * nsec, file_align)
    if path in PACKED:
        check_packed(path, image, want_machine, PACKED[path])


def check_header_room(path, data, table_end, file_align):
    """The packed loaders' headers take what they need (mkpack --trim: the PE header right after
    the MS-DOS header, SizeOfHeaders the section table's end rounded up to FileAlignment, PE/COFF
    3.4.2); the stub keeps room for a UKI's sections (.linux .initrd .cmdline .osrel .uname
    .splash .dtb .pcrsig .pcrpkey .sbat: ten more headers)."""
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    size_of_headers = struct.unpack_from("<I", data, pe + 24 + 60)[0]
    if path in (LOADER, LOADER32, LOADERAA64):
        need = -(-table_end // file_align) * file_align
        check(f"{path}: headers trimmed: PE header at 0x40, SizeOfHeaders {size_of_headers} = {need}",
              pe == 0x40 and size_of_headers == need, f"PE header at {pe:#x}, SizeOfHeaders {size_of_headers}")
    elif path in (STUB, STUBAA64):
        check(f"{path}: room in the headers for ten more sections (a UKI's)", size_of_headers - table_end >= 400,
              f"{size_of_headers - table_end} bytes")


def memory_layout(path):
    """The image as a firmware lays it out: headers, then each section at its RVA."""
    data = open(path, "rb").read()
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    nsec, optsize = struct.unpack_from("<H", data, pe + 6)[0], struct.unpack_from("<H", data, pe + 20)[0]
    opt = pe + 24
    size, headers = struct.unpack_from("<II", data, opt + 56)
    m = bytearray(size)
    m[:headers] = data[:headers]
    for i in range(nsec):
        vsize, va, rsize, roff = struct.unpack_from("<IIII", data, opt + optsize + 40 * i + 8)
        n = min(vsize, rsize) if vsize else rsize
        m[va:va + n] = data[roff:roff + n]
    return bytes(m)


def x86_unfilter(image):
    """Undo the packer's branch filter (docs/image-formats.md "Packed loaders"), written
    here from that description: at each E8 and E9, each 0F 80..8F, and each 48/4C 8B/8D with
    ModRM mod 00 r/m 101, the next four bytes, if within +-16 MiB, were an RVA modulo 32 MiB;
    the scan goes on past them either way."""
    m, i, n = bytearray(image), 0, len(image)
    while i < n:
        if m[i] in (0xE8, 0xE9):
            op = i + 1
        elif n - i >= 2 and m[i] == 0x0F and 0x80 <= m[i + 1] <= 0x8F:
            op = i + 2
        elif n - i >= 7 and m[i] in (0x48, 0x4C) and m[i + 1] in (0x8B, 0x8D) and m[i + 2] & 0xC7 == 5:
            op = i + 3
        else:
            i += 1
            continue
        if op + 4 > n:
            break
        v = struct.unpack_from("<i", m, op)[0]
        if -(1 << 24) <= v < 1 << 24:
            struct.pack_into("<i", m, op, (v - (op + 4) + (1 << 24)) % (1 << 25) - (1 << 24))
        i = op + 4
    return bytes(m)


def aa64_unfilter(image):
    """Undo AArch64's branch filter (docs/image-formats.md "Packed loaders"), written here
    from that description and the Arm ARM's encodings: each word at a multiple of 4 that is
    a BL (bits 31:26 100101) held the target's word index modulo 2^26 in imm26, each ADRP
    (bit 31 set, bits 28:24 10000) the target's page number modulo 2^21 in immhi:immlo."""
    m = bytearray(image)
    for at in range(0, len(m) - 3, 4):
        w = struct.unpack_from("<I", m, at)[0]
        if w >> 26 == 0x25:
            struct.pack_into("<I", m, at, 0x94000000 | (w - at // 4) % (1 << 26))
        elif w >> 31 and (w >> 24) & 0x1F == 0x10:
            page = ((w >> 5) & 0x7FFFF) << 2 | (w >> 29) & 3
            off = (page - at // 4096) % (1 << 21)
            struct.pack_into("<I", m, at, w & 0x9F00001F | (off & 3) << 29 | (off >> 2) << 5)
    return bytes(m)


def reloc_undelta(image):
    """Undo the packer's relocation differences (docs/image-formats.md "Packed loaders"),
    written here from that description: in each base relocation block, each entry of a
    type other than 0 held its offset minus the previous such entry's, modulo 4096."""
    m = bytearray(image)
    pe = struct.unpack_from("<I", m, 0x3C)[0]
    opt = pe + 24
    dirs = opt + (112 if struct.unpack_from("<H", m, opt)[0] == 0x20B else 96)
    rva, size = struct.unpack_from("<II", m, dirs + 5 * 8)
    b = 0
    while b + 8 <= size:
        block = struct.unpack_from("<I", m, rva + b + 4)[0]
        if block < 8 or block > size - b:
            break
        prev = 0
        for e in range(rva + b + 8, rva + b + block - 1, 2):
            v = struct.unpack_from("<H", m, e)[0]
            if v >> 12:
                prev = (v + prev) & 0xFFF
                struct.pack_into("<H", m, e, (v & 0xF000) | prev)
        b += block
    return bytes(m)


def pe_fields(path):
    """What a version 7 pack header repeats of the PE file @path (docs/image-formats.md):
    entry point, relocation directory, ImageBase, (RVA, VirtualSize, Characteristics) per section."""
    data = open(path, "rb").read()
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    nsec, optsize = struct.unpack_from("<H", data, pe + 6)[0], struct.unpack_from("<H", data, pe + 20)[0]
    opt = pe + 24
    plus = struct.unpack_from("<H", data, opt)[0] == 0x20B
    base = struct.unpack_from("<Q", data, opt + 24)[0] if plus else struct.unpack_from("<I", data, opt + 28)[0]
    reloc = struct.unpack_from("<II", data, opt + (112 if plus else 96) + 5 * 8)
    secs = []
    for i in range(nsec):
        h = opt + optsize + 40 * i
        vsize, va = struct.unpack_from("<II", data, h + 8)
        secs.append((va, vsize, struct.unpack_from("<I", data, h + 36)[0]))
    return struct.unpack_from("<I", data, opt + 16)[0], reloc, base, secs


def check_packed(path, payload, want_machine, inner):
    ok = payload is not None and len(payload) >= 44 and payload[:4] == b"HOPK"
    check(f"{path}: an .image section with a packed image", ok)
    if not ok:
        return
    version, machine, size, block, entry, reloc_rva, reloc_size, nsec, _, base = \
        struct.unpack_from("<HHIIIIIHHQ", payload, 4)
    check(f"{path}: .image: version 7, the binary's machine", version == 7 and machine == want_machine,
          f"version {version}, machine {machine:#x}")
    secs = [struct.unpack_from("<III", payload, 44 + 12 * i) for i in range(nsec)]
    got_fields = (entry, (reloc_rva, reloc_size), base, secs)
    check(f"{path}: .image: the header's entry point, relocations, ImageBase and sections are {inner}'s",
          got_fields == pe_fields(inner), f"{got_fields} against {pe_fields(inner)}")
    stream = 44 + 12 * nsec
    crc = struct.unpack_from("<I", payload, 40)[0]
    check(f"{path}: .image: the CRC-32 of the header and stream (zlib's)",
          crc == zlib.crc32(payload[44:stream + block], zlib.crc32(payload[:40])), f"{crc:#x}")
    try:
        # raw LZMA, lc 3 lp 0 pb 0 (AArch64: lc 1 lp 2), no end marker: SizeOfImage bytes. Python's lzma has no
        # LZMA1EXT, so it cannot tell where such a stream ends (past it, it decodes the range
        # coder's last bytes as more); that the stream ends there is lzma_decode()'s check,
        # tested against liblzma's own in tests/unit/test_lzma.c.
        lc, lp = (1, 2) if machine == 0xAA64 else (3, 0)
        z = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA1, "lc": lc, "lp": lp, "pb": 0,
                                                             "dict_size": max(size, 4096)}])
        got = z.decompress(payload[stream:stream + block], size)
        unfilter = aa64_unfilter if machine == 0xAA64 else x86_unfilter
        got = reloc_undelta(unfilter(got)) if len(got) == size else "stream of %d bytes" % len(got)
    except lzma.LZMAError as e:
        got = repr(e)
    check(f"{path}: .image decodes (lzma, the filters undone) to {inner} laid out", got == memory_layout(inner),
          f"{len(got)} bytes" if isinstance(got, bytes) else got)


for path, args in BINARIES.items():
    try:
        inspect(path, *args)
    except (OSError, struct.error) as e:
        check(f"{path}: readable PE", False, str(e))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
