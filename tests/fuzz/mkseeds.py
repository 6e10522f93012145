#!/usr/bin/python3
"""Writes the hand-made inputs of tests/fuzz/corpus/{bzimage,initrd,cmdline,gpt,pe,pcr,lzma,pack,fat,
cmdline_measure,str16,bli,tool_readers,relocate,x86_filter,aa64_filter,sb_auth,smbios,fdt} and the UTF-8 regressions of
{bls,config,osrel} (committed; run by hand after changing it). Each is a regression or an edge
the fuzzers must keep reaching: see the comment beside each."""
import ctypes
import ctypes.util
import os
import random
import struct
import sys
import uuid
import zlib

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")


def put(kind, name, data):
    os.makedirs(os.path.join(OUT, kind), exist_ok=True)
    with open(os.path.join(OUT, kind, name), "wb") as f:
        f.write(data)


def bzimage(kernel_size=4096, handover=0x100, pref=0x1000000, reloc=1, syssize=None, xlf=0x7f):
    """A 2.15 header with one setup sector after the boot sector."""
    b = bytearray(1024 + kernel_size)
    b[0x1f1] = 1                                                    # setup_sects
    struct.pack_into("<I", b, 0x1f4, (kernel_size + 15) // 16 if syssize is None else syssize)
    struct.pack_into("<H", b, 0x1fe, 0xaa55)
    b[0x201] = 0x6a                                                 # header to 0x26c
    b[0x202:0x206] = b"HdrS"
    struct.pack_into("<H", b, 0x206, 0x020f)
    struct.pack_into("<I", b, 0x22c, 0x7fffffff)                    # initrd_addr_max
    struct.pack_into("<I", b, 0x230, 0x200000)                      # kernel_alignment
    b[0x234] = reloc
    struct.pack_into("<H", b, 0x236, xlf)
    struct.pack_into("<I", b, 0x238, 2047)
    struct.pack_into("<Q", b, 0x258, pref)
    struct.pack_into("<I", b, 0x260, 0x400000)                      # init_size
    struct.pack_into("<I", b, 0x264, handover)
    return bytes(b)


# issue 12: handover_offset + 512 wrapped in 32 bits and passed the check
put("bzimage", "handover-offset-4g", bzimage(handover=0xffffff00))
put("bzimage", "handover-offset-last", bzimage(handover=4096 - 512 - 1))
# issue 12: pref_address + size wrapped for a non-relocatable kernel
put("bzimage", "pref-address-wrap", bzimage(reloc=0, pref=0xffffffffffe00000))
# syssize counts paragraphs: 15 bytes short boots, 16 is truncation
put("bzimage", "syssize-short-15", bzimage(kernel_size=4096 - 15, syssize=256))
put("bzimage", "syssize-short-16", bzimage(kernel_size=4096 - 16, syssize=256))
put("bzimage", "legacy-entry-past-end", bzimage(kernel_size=0x200, handover=0))

# issue 12: 2^63-1, 2^63-1, 4096 once summed (wrapping) to 4096
put("initrd", "wrap-2x-int64-max", struct.pack("<3Q", 2**63 - 1, 2**63 - 1, 4096))
put("initrd", "odd-sizes", struct.pack("<4Q", 5, 3, 0, 4093))
put("initrd", "cap-exact", struct.pack("<2Q", (4 << 30) - 7, 4))
put("initrd", "all-ones", b"\xff" * 64)

u = lambda s: s.encode("utf-16-le")
# first byte: how many following bytes are LoadOptions; the rest is .cmdline
put("cmdline", "opts-and-section", bytes([12]) + u("ro quiet") [:12] + b"root=/dev/sda initrd=/a\n")
put("cmdline", "odd-unterminated", bytes([7]) + u("initrd=\"/a b\"")[:7] + b"x")
put("cmdline", "quoted-initrds", bytes([0]) + b'initrd="/with space" initrd=/b initrd= initrd=""\n')
put("cmdline", "nul-in-section", bytes([0]) + b"console=ttyS0\0initrd=/hidden")
# the options handoff names on U-Boot, as the kernel parses them (cmdline_kernel_flags)
put("cmdline", "uboot-options", bytes([0]) + b'"disable-mtrr-trim" efi=debug,noruntime,runtime noefi -- efi=x\n')
put("cmdline", "long-option", bytes([0]) + b"efi=noruntime," + b"a" * 200 + b" efi= efi ,,,")
put("cmdline", "surrogates", bytes([8]) + b"\x3d\xd8\x00\xde\x00\xdc\xff\xff" + b"")


def gpt_disk(n_sectors=100, parts=((34, 50), (51, 66)), tweak=None):
    sec = 512
    disk = bytearray(n_sectors * sec)
    disk[446 + 4] = 0xee
    struct.pack_into("<IIII", disk, 446 + 8, 1, min(n_sectors - 1, 0xffffffff), 0, 0)
    struct.pack_into("<H", disk, 510, 0xaa55)
    entries = bytearray(128 * 128)
    for i, (first, last) in enumerate(parts):
        e = uuid.UUID("c12a7328-f81f-11d2-ba4b-00a0c93ec93b").bytes_le + uuid.UUID(int=i + 1).bytes_le
        e += struct.pack("<QQQ", first, last, 0) + "part".encode("utf-16-le")
        entries[i * 128:i * 128 + len(e)] = e
    if tweak:
        tweak(entries)
    ecrc = zlib.crc32(entries)

    def header(my, alt, entries_lba):
        h = bytearray(92)
        h[0:8] = b"EFI PART"
        struct.pack_into("<IIII", h, 8, 0x10000, 92, 0, 0)
        struct.pack_into("<QQQQ", h, 24, my, alt, 34, n_sectors - 34)
        h[56:72] = uuid.UUID(int=42).bytes_le
        struct.pack_into("<QIII", h, 72, entries_lba, 128, 128, ecrc)
        struct.pack_into("<I", h, 16, zlib.crc32(h))
        return h
    disk[sec:sec + 92] = header(1, n_sectors - 1, 2)
    disk[2 * sec:2 * sec + len(entries)] = entries
    disk[(n_sectors - 33) * sec:(n_sectors - 1) * sec] = entries
    disk[(n_sectors - 1) * sec:(n_sectors - 1) * sec + 92] = header(n_sectors - 1, 1, n_sectors - 33)
    return bytes(disk)


put("gpt", "two-partitions", gpt_disk())
put("gpt", "partition-past-usable", gpt_disk(parts=((34, 99),)))
put("gpt", "partition-reversed", gpt_disk(parts=((60, 40),)))
put("gpt", "no-gpt", gpt_disk()[:512] + bytes(99 * 512))

# fuzz_pcr: a --phases argument, NUL, an image (uki-small.efi: a UKI whose
# .linux is a bzImage); the image's length modulo 1026 is the signature size
with open(os.path.join(OUT, "uki", "uki-small.efi"), "rb") as f:
    UKI = f.read()


def padded(img, sig_size):
    return img + bytes((sig_size - len(img)) % 1026)


put("pcr", "defaults", b"\0" + UKI)
put("pcr", "phases-mixed", b" sysinit,enter-initrd::leave-initrd:\tready\n,ready\0" + UKI)
put("pcr", "phase-unknown-word", b"enter-initrd:leave-initd\0" + UKI)
put("pcr", "phase-only-colons", b"ready ::\0" + UKI)
put("pcr", "phases-33", b"ready " * 33 + b"\0" + UKI)
put("pcr", "phases-no-image", b"shutdown:final")
put("pcr", "signature-none", b"\0" + padded(UKI, 0))
put("pcr", "signature-max", b"\0" + padded(UKI, 1024))
put("pcr", "signature-too-big", b"\0" + padded(UKI, 1025))
with open(os.path.join(OUT, "uki", "tiny-stub.efi"), "rb") as f:
    put("pcr", "not-a-uki", b"enter-initrd\0" + f.read())

# issue 21: UTF-8 that is not well-formed, one of each class (Unicode 15.0
# Table 3-7), and text that is
BAD_UTF8 = {
    "overlong-nul": b"\xc0\x80", "overlong-3": b"\xe0\x80\xaf", "overlong-4": b"\xf0\x80\x80\xa0",
    "surrogate": b"\xed\xa0\x80", "above-10ffff": b"\xf4\x90\x80\x80", "truncated": b"\xe2\x82",
    "stray-continuation": b"\x80", "no-lead-byte": b"\xff",
}
GOOD_UTF8 = "root=LABEL=корень quiet caf\u00e9 \u20ac \U0001f600 \U0010ffff".encode()
EVIL = b"quiet\xc0\x80 init=/bin/evil"

# cmdline_measure: lines of options (cut at line feeds), the line itself, and LoadOptions/.cmdline
put("cmdline_measure", "evil-overlong-nul", b"console=ttyS0\n" + EVIL + b"\npanic=-1")
put("cmdline_measure", "every-class", b"\n".join(b"a" + v + b" b" for v in BAD_UTF8.values()))
put("cmdline_measure", "well-formed", GOOD_UTF8 + b"\n\t" + GOOD_UTF8 + b" \r")
put("cmdline_measure", "line-feed", b"quiet\ninit=/bin/evil")
put("cmdline_measure", "blank-lines-crlf", b"  a\t\r\n\r\n\t\n \r\r\n")
put("cmdline_measure", "nul-inside", b"a\0b\nc")
# "options " and 4088 bytes is the longest line (4096); the CR of a CRLF does not count
put("cmdline_measure", "longest-line",
    b"a" * (4096 - 8) + b"\n" + b"b" * (4096 - 7) + b"\r\n" + b"c" * (4096 - 8) + b"\r")
put("cmdline_measure", "utf16-pairs-lone-lf", u("a\u00e9\U0001f600 b") + b"\x3d\xd8 \x00\x00\xdc\n\x00z\x00")

# str16: UTF-8 and, the same bytes, UTF-16LE
for name, v in BAD_UTF8.items():
    put("str16", name, b"x" + v + b"y")
put("str16", "well-formed", GOOD_UTF8)
put("str16", "utf16-pairs-and-lone", b"\x3d\xd8\x00\xde" + b"\x00\xdc" + b"\x3d\xd8" + b"\x3d\xd8\x01\xde" + b"\xff")
put("str16", "empty", b"")
put("str16", "nul-first", b"\0\xc0\x80")


def bli(vars, flags=0x1f, last_id=b""):
    """fuzz_bli: a flag byte, per variable a length byte and its UTF-16LE payload, then one more entry id."""
    out = bytes([flags])
    for v in vars:
        out += bytes([len(v)]) + v
    return out + last_id


put("bli", "all-set", bli([u("5"), u("0"), u("debian-*\0"), u("arch"), u("fedora")], 0x3f, u("extra-1")))
put("bli", "saved", bli([u("menu-force"), b"", u("@saved"), b"", u("debian-6.12.9-amd64")], 0x15))
put("bli", "odd-and-lone", bli([b"5\x00\x00", u("\u00e9") + b"\x3d\xd8", u("deb") + b"\x00\xdc" + u("*"), b"a", b""]))
put("bli", "too-big", bli([u("9" * 120), u("x" * 127)], 0x03) + b"\xff" * 600)
put("bli", "overlong-in-id", bli([b"", b"", u("arch"), b"", b""], 0x04, EVIL))

# tool_readers: an entry file, a /proc/cmdline, a BootOrder, a string variable (the same bytes for all)
put("tool_readers", "entry-refs", b"title x\nlinux /a/vmlinuz\ninitrd /a/initrd.img \r\ninitrd relative\n"
    b"efi /../etc/passwd\ndevicetree /dtb\nlinux /\xc0\x80/evil\ninitrd /nul\0x\n  linux /indented\n")
put("tool_readers", "proc-cmdline", b"BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda1\t ro  initrd=\\x.img quiet\n")
put("tool_readers", "boot-order", b"\x02\x00" + b"\x01\x00\x02\x00\x00\x00\x02\x00\x07")
put("tool_readers", "string-variable", u("handoff 1.0 \U0001f600") + b"\x00\xdc\x00\x00junk")

# regressions in the existing corpora: an ill-formed line is skipped
put("bls", "options-overlong-nul", b"evil.conf\ntitle Evil\nlinux /k\noptions console=ttyS0\noptions " + EVIL + b"\n")
put("bls", "every-utf8-class", b"e.conf\nlinux /k\n" + b"".join(b"title " + v + b"\n" for v in BAD_UTF8.values()))
put("config", "default-overlong-nul", b"timeout 3\ndefault deb\xc0\x80ian-*\neditor no\n")
# editor-password (README "Configuration"): the tool's line, its bounds, and what must lock
# the editor for good (a bad value, or a line the reader rejects: no value, a NUL, not UTF-8, too long)
PW_SALT, PW_HASH = bytes(range(16)).hex(), "c914cc4f06cc6e8f46d157e3a1b5aa7abceebb17bb0444cd4c4ac16ca2ae9864"
put("config", "editor-password-good", b"editor yes\neditor-password pbkdf2-sha256:1000:%s:%s\n"
    % (PW_SALT.encode(), PW_HASH.encode()))
put("config", "editor-password-bounds", b"editor-password pbkdf2-sha256:5000000:0001020304050607:%s\r\n"
    b"editor-password pbkdf2-sha256:5000001:%s:%s\r\n" % (PW_HASH.encode(), PW_SALT.encode(), PW_HASH.encode()))
put("config", "editor-password-salt-65", b"editor-password pbkdf2-sha256:1000:%s:%s\n"
    % (bytes(65).hex().encode(), PW_HASH.encode()))
put("config", "editor-password-fields", b"editor-password pbkdf2-sha256:1000:%s\neditor-password pbkdf2-sha256:"
    b"\neditor-password pbkdf2-sha256::::\neditor-password pbkdf2-sha256:1000:%s:%s:\n"
    % (PW_SALT.encode(), PW_SALT.encode(), PW_HASH.encode()))
put("config", "editor-password-no-value", b"timeout 3\n  editor-password \t\r\n")
put("config", "editor-password-nul", b"editor-password pbkdf2-sha256:1000\0:%s:%s\n"
    % (PW_SALT.encode(), PW_HASH.encode()))
put("config", "editor-password-not-utf8", b"editor-password pbkdf2-sha256:1000:\xc0\x80:%s\n" % PW_HASH.encode())
put("config", "editor-password-long", b"editor-password " + b"0" * 4100 + b"\n")
put("osrel", "pretty-name-overlong", b'NAME="Plain"\nPRETTY_NAME="Evil\xc0\x80 x"\nVERSION_ID="1\xf4\x90\x80\x80"\n')
# fuzz_osrel found: a kernel version that is not UTF-8 made a default .osrel the loader skips a line of
put("osrel", "kernel-version-not-utf8", b"\xd3\xd11.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP")
# LoadOptions ending at a line feed, with pairs and a lone surrogate; an overlong NUL in a .cmdline
put("cmdline", "load-options-line-feed", bytes([16]) + u("a\U0001f600") + b"\x00\xdc" + u("\nb ") + b"x")
put("cmdline", "section-overlong-nul", bytes([0]) + EVIL + b"\n")

def loaded_pe(length, vsize=0x10, size_of_image=0x2000):
    """A PE32+ EFI application as the firmware loaded it (headers at 0, its one
    section .data at RVA 0x1000, VirtualSize @vsize, 0x200 raw), @length bytes."""
    b = bytearray(max(length, 0x400))
    b[0:2] = b"MZ"
    struct.pack_into("<I", b, 0x3c, 0x80)
    b[0x80:0x84] = b"PE\0\0"
    struct.pack_into("<HH", b, 0x84, 0x8664, 1)                    # machine, one section
    struct.pack_into("<H", b, 0x94, 112 + 16 * 8)                  # optional header size
    opt = 0x98
    struct.pack_into("<HI", b, opt, 0x20b, 0)
    struct.pack_into("<I", b, opt + 16, 0x1000)                    # entry point
    struct.pack_into("<QII", b, opt + 24, 0x10000000, 0x1000, 0x200)  # ImageBase, alignments
    struct.pack_into("<IIIH", b, opt + 56, size_of_image, 0x400, 0, 10)  # SizeOfImage, headers, EFI app
    struct.pack_into("<I", b, opt + 108, 16)                       # data directories
    sec = opt + 112 + 16 * 8
    b[sec:sec + 8] = b".data\0\0\0"
    struct.pack_into("<IIII", b, sec + 8, vsize, 0x1000, 0x200, 0x400)
    return bytes(b[:length])


# U-Boot's ImageSize ends with the last section (RVA + VirtualSize), short of
# SizeOfImage: a whole loaded image; one byte less cuts into the section.
put("pe", "loaded-short-of-size-of-image", loaded_pe(0x1010))
put("pe", "loaded-cut-in-last-section", loaded_pe(0x100f))
# as a file: headers lld-link-like (PE header at 0x80, SizeOfHeaders 0x400) that mkpack --trim makes 0x200
put("pe", "trim-headers", loaded_pe(0x600))


# fuzz_lzma: 2 bytes of output size, then a raw LZMA stream in the loaders' properties (src/core/lzma.h),
# written by liblzma (through ctypes: Python's own module cannot leave the end marker out), and the
# refusals the decoder must keep reaching.
class _LzmaOptions(ctypes.Structure):  # lzma_options_lzma (lzma/lzma12.h), to ext_size_high and the reserved tail
    _fields_ = [("dict_size", ctypes.c_uint32), ("preset_dict", ctypes.c_char_p), ("preset_dict_size", ctypes.c_uint32),
                ("lc", ctypes.c_uint32), ("lp", ctypes.c_uint32), ("pb", ctypes.c_uint32), ("mode", ctypes.c_int),
                ("nice_len", ctypes.c_uint32), ("mf", ctypes.c_int), ("depth", ctypes.c_uint32),
                ("ext_flags", ctypes.c_uint32), ("ext_size_low", ctypes.c_uint32), ("ext_size_high", ctypes.c_uint32),
                ("reserved", ctypes.c_uint32 * 9), ("reserved_ptr", ctypes.c_void_p * 2)]


class _LzmaFilter(ctypes.Structure):  # lzma_filter (lzma/filter.h)
    _fields_ = [("id", ctypes.c_uint64), ("options", ctypes.c_void_p)]


def raw_lzma(data, preset=9 | 0x80000000, eopm=False, dict_=b"", lc=3, lp=0):
    """LZMA_FILTER_LZMA1EXT, lc 3 lp 0 pb 0 (or @lc, @lp), the size known: no end marker unless @eopm."""
    lib = ctypes.CDLL(ctypes.util.find_library("lzma"))
    opt = _LzmaOptions()
    assert lib.lzma_lzma_preset(ctypes.byref(opt), ctypes.c_uint32(preset)) == 0
    opt.lc, opt.lp, opt.pb, opt.dict_size = lc, lp, 0, max(4096, len(data))
    opt.ext_flags, opt.ext_size_low, opt.ext_size_high = int(eopm), len(data) & 0xFFFFFFFF, len(data) >> 32
    opt.preset_dict, opt.preset_dict_size = (dict_, len(dict_)) if dict_ else (None, 0)
    filters = (_LzmaFilter * 2)(_LzmaFilter(0x4000000000000002, ctypes.cast(ctypes.byref(opt), ctypes.c_void_p)),
                                _LzmaFilter(2**64 - 1, None))
    out = ctypes.create_string_buffer(len(data) + len(data) // 8 + 64)
    pos = ctypes.c_size_t(0)
    assert lib.lzma_raw_buffer_encode(filters, None, data, ctypes.c_size_t(len(data)), out, ctypes.byref(pos),
                                      ctypes.c_size_t(len(out))) == 0
    return out.raw[:pos.value]


def lzma_seed(out_size, stream):
    return struct.pack("<H", out_size) + stream


TEXT = b"the quick brown fox jumps over the lazy dog " * 20
put("lzma", "text", lzma_seed(len(TEXT), raw_lzma(TEXT)))
put("lzma", "text-preset-0", lzma_seed(len(TEXT), raw_lzma(TEXT, preset=0)))
put("lzma", "zeros-overlapping", lzma_seed(3000, raw_lzma(b"\0" * 3000)))
put("lzma", "noise", lzma_seed(600, raw_lzma(random.Random(7).randbytes(600))))
put("lzma", "one-short", lzma_seed(len(TEXT) - 1, raw_lzma(TEXT)))
put("lzma", "cut", lzma_seed(len(TEXT), raw_lzma(TEXT)[:-3]))
put("lzma", "end-marker", lzma_seed(len(TEXT), raw_lzma(TEXT, eopm=True)))
put("lzma", "end-marker-read-as-match", lzma_seed(len(TEXT) + 1, raw_lzma(TEXT, eopm=True)))
# a match into a preset dictionary the decoder does not have: a distance before the output's start
put("lzma", "distance-before-start", lzma_seed(len(TEXT), raw_lzma(TEXT, dict_=b"the quick brown fox")))
put("lzma", "first-byte-not-0", lzma_seed(len(TEXT), b"\1" + raw_lzma(TEXT)[1:]))


def x86_filter(image):
    """The packer's branch filter (docs/image-formats.md "Packed loaders"): E8, E9, 0F 80..8F rel32 and
    48/4C 8B/8D [RIP+disp32] within +-16 MiB made RVAs modulo 32 MiB."""
    m, i, n = bytearray(image), 0, len(image)
    while i < n:
        rip = n - i >= 7 and m[i] in (0x48, 0x4C) and m[i + 1] in (0x8B, 0x8D) and m[i + 2] & 0xC7 == 5
        jcc = n - i >= 2 and m[i] == 0x0F and m[i + 1] & 0xF0 == 0x80
        if m[i] not in (0xE8, 0xE9) and not rip and not jcc:
            i += 1
            continue
        op = i + (1 if m[i] in (0xE8, 0xE9) else 2 if jcc else 3)
        if op + 4 > n:
            break
        v = struct.unpack_from("<i", m, op)[0]
        if -(1 << 24) <= v < 1 << 24:
            struct.pack_into("<i", m, op, (v + op + 4 + (1 << 24)) % (1 << 25) - (1 << 24))
        i = op + 4
    return bytes(m)


def aa64_filter(image):
    """AArch64's branch filter: each word at a multiple of 4 that is a BL or an ADRP gets the target's
    word index (modulo 2^26) or page number (modulo 2^21) in its offset field."""
    m = bytearray(image)
    for at in range(0, len(m) - 3, 4):
        w = struct.unpack_from("<I", m, at)[0]
        if w >> 26 == 0x25:
            w = 0x94000000 | (w + at // 4) & 0x3FFFFFF
        elif w & 0x9F000000 == 0x90000000:
            imm = ((((w >> 5) & 0x7FFFF) << 2 | (w >> 29) & 3) + at // 4096) & 0x1FFFFF
            w = w & 0x9F00001F | (imm & 3) << 29 | (imm >> 2) << 5
        struct.pack_into("<I", m, at, w)
    return bytes(m)


def packed(image, machine=0x8664, block=None, size=None, entry=None, sections=None):
    """fuzz_pack: a payload (src/core/pack.h, version 7, its CRC-32 right) of the memory image @image (a PE32+ as
    loaded: its header fields read here), whose relocations (relocated_pe()'s one at offset 8
    of its block) read the same as differences; @entry and @sections replace the header's."""
    if block is None:  # AArch64's filter and literal properties (lc 1, lp 2), or x86's
        block = raw_lzma(aa64_filter(image), lc=1, lp=2) if machine == 0xAA64 else raw_lzma(x86_filter(image))
    pe = struct.unpack_from("<I", image, 0x3C)[0]
    nsec, optsize = struct.unpack_from("<H", image, pe + 6)[0], struct.unpack_from("<H", image, pe + 20)[0]
    opt = pe + 24
    table = opt + optsize
    if sections is None:
        sections = [struct.unpack_from("<II", image, table + 40 * i + 8) +  # VirtualSize, VirtualAddress
                    struct.unpack_from("<I", image, table + 40 * i + 36) for i in range(nsec)]  # Characteristics
    reloc = struct.unpack_from("<II", image, opt + 112 + 5 * 8)
    head = b"HOPK" + struct.pack("<HHIII", 7, machine, len(image) if size is None else size, len(block),
                                 struct.unpack_from("<I", image, opt + 16)[0] if entry is None else entry)
    head += struct.pack("<IIHHQ", *reloc, len(sections), 0, struct.unpack_from("<Q", image, opt + 24)[0])
    rest = b"".join(struct.pack("<III", va, vs, ch) for vs, va, ch in sections) + block
    return head + struct.pack("<I", zlib.crc32(rest, zlib.crc32(head))) + rest


# fuzz_x86_filter: any bytes; sites in and out of the window, sites inside others' operands, an E8 at the end
put("x86_filter", "sites", bytes.fromhex("e800010000488d05e0ffffff4c8b3d40000000488d8040000000e80000e80290e8"))
put("x86_filter", "jumps", bytes.fromhex("e9f0ffffff0f84100000000f8ffeffffff0f7f05e90000000f80"))
put("x86_filter", "window-edges", bytes.fromhex("e8000000ffe8ffffff00e800000001e8ffffffffe8"))
# fuzz_aa64_filter: BL forward and back (its field wrapping), ADRP, ADR and B (left), a BL off the word grid,
# a word cut short by the end
put("aa64_filter", "sites", bytes.fromhex("00010094f8ffff97010000d0feffffd08200001010000014" "0000" "000100940001"))
put("aa64_filter", "adrp-pages", bytes(0xffc) + bytes.fromhex("010000d0feffffd0ffffff97"))


def relocated_pe():
    """loaded_pe() with a .reloc directory: one DIR64 fixup at RVA 0x1008, in the one section."""
    b = bytearray(loaded_pe(0x2000, vsize=0x200))
    struct.pack_into("<II", b, 0x98 + 112 + 5 * 8, 0x1100, 12)
    struct.pack_into("<IIHH", b, 0x1100, 0x1000, 12, 0xA008, 0)
    struct.pack_into("<Q", b, 0x1008, 0x10001000)
    return bytes(b)


put("pack", "x64-relocated", packed(relocated_pe()))
put("pack", "x64-preset-0", packed(relocated_pe(), block=raw_lzma(x86_filter(relocated_pe()), preset=0)))
put("pack", "machine-ia32-of-x64-image", packed(relocated_pe(), machine=0x14c))
put("pack", "size-one-short", packed(relocated_pe(), size=0x1fff))
# a call and a RIP-relative LEA in the section, which the unpacker must give back as they were
put("pack", "x64-with-branches", packed(relocated_pe()[:0x1010] + bytes.fromhex("e8f0ffffff488d05e0ffffff") +
                                        relocated_pe()[0x101c:]))
# a JMP and a Jcc, which version 6 left as they were
put("pack", "x64-with-jumps", packed(relocated_pe()[:0x1010] + bytes.fromhex("e9f0ffffff0f85e0ffffff") +
                                     relocated_pe()[0x101b:]))
# the AArch64 payload: a BL and an ADRP in the section, through AArch64's filter, not x86's
put("pack", "aa64-with-branches", packed(relocated_pe()[:0x1010] + bytes.fromhex("fcffff97010000b0") +
                                         relocated_pe()[0x1018:], machine=0xAA64))
# the header's own fields (version 7): an entry point or a section past the image, too many sections
put("pack", "entry-past-image", packed(relocated_pe(), entry=0x2000))
put("pack", "section-past-image", packed(relocated_pe(), sections=[(0x1001, 0x1000, 0x60000020)]))
put("pack", "sections-over-max", packed(relocated_pe(), sections=[(0x10, 0x1000, 0)] * 97))


# fuzz_relocate: target (address, size), descriptor size 40 + 8 * (sel & 3), kept ranges, then the map
def move_seed(dst, size, descs, keep=(), sel=1):
    stride = 40 + 8 * (sel & 3) if not sel & 4 else 32
    head = struct.pack("<QQBB", dst, size, sel, len(keep)) + b"".join(struct.pack("<QQ", a, n) for a, n in keep)
    return head + b"".join(struct.pack("<IIQQQQ", t, 0, start, 0, pages, attr).ljust(stride, b"\xa5")[:stride]
                           for t, start, pages, attr in descs)


MIB_PAGES = 0x100
put("relocate", "free", move_seed(0x100000, 0x300000, [(4, 0, MIB_PAGES, 0), (7, 0x100000, MIB_PAGES, 0),
                                                        (3, 0x200000, MIB_PAGES, 0), (2, 0x300000, MIB_PAGES, 0)]))
put("relocate", "partly-runtime", move_seed(0x100000, 0x300001, [(7, 0x100000, 3 * MIB_PAGES, 0),
                                                                   (6, 0x400000, MIB_PAGES, 1 << 63)]))
put("relocate", "hole", move_seed(0x100000, 0x300000, [(7, 0x100000, MIB_PAGES, 0), (7, 0x300000, MIB_PAGES, 0)]))
put("relocate", "unsorted", move_seed(0x100000, 0x200000, [(7, 0x200000, MIB_PAGES, 0), (4, 0x100000, MIB_PAGES, 0)]))
put("relocate", "over-initrd", move_seed(0x100000, 0x100000, [(7, 0x100000, MIB_PAGES, 0)],
                                         keep=[(0x1ff000, 0x2000), (0x80000, 0x1000)]))
put("relocate", "size-wraps", move_seed(0xfffffffffffff000, 0x2000, [(7, 0, MIB_PAGES, 0)]))
put("relocate", "descriptor-wraps", move_seed(0x100000, 0x1000, [(7, 0xfffffffffff00000, 1 << 44, 0)]))
put("relocate", "soft-reserved", move_seed(0x100000, 0x1000, [(7, 0x100000, MIB_PAGES, 0x40000)]))
put("relocate", "desc-size-64", move_seed(0x100000, 0x1000, [(7, 0x100000, MIB_PAGES, 0)], sel=3))
put("relocate", "desc-size-32", move_seed(0x100000, 0x1000, [(7, 0x100000, MIB_PAGES, 0)], sel=4))


def fat_image(fat_bits, kib, keep=None):
    """fuzz_fat: a mkfs.fat volume of @kib KiB with /B (5 bytes), /dir/long-file-name.bin (3000) and a
    fragmented /a (3000 bytes around a deleted file), cut to its first @keep bytes (fuzz_fat reads zeros past
    the input)."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        img = os.path.join(d, "v.img")
        run = lambda *c: subprocess.run(c, check=True, cwd=d, capture_output=True,
                                        env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        run("/usr/sbin/mkfs.fat", "-C", "-F", str(fat_bits), "-s", "1", "-r", "16", "-i", "12345678", img, str(kib))
        for name, size in (("b", 5), ("a", 3000), ("gap", 600)):
            with open(os.path.join(d, name), "wb") as f:
                f.write(bytes((i * 7 + size) & 0xff for i in range(size)))
        run("mmd", "-i", img, "::/dir")
        run("mcopy", "-i", img, "b", "::/B")
        run("mcopy", "-i", img, "gap", "::/gap")
        run("mcopy", "-i", img, "a", "::/dir/long-file-name.bin")
        run("mdel", "-i", img, "::/gap")
        run("mcopy", "-i", img, "a", "::/a")
        with open(img, "rb") as f:
            data = f.read()
    return data[:keep] if keep else data


def fat_patch(data, find, offset, value):
    """@data with the bytes at @offset from the first directory entry named @find (11 bytes) replaced."""
    b = bytearray(data)
    at = b.index(find)
    b[at + offset:at + offset + len(value)] = value
    return bytes(b)


fat12 = fat_image(12, 40)
fat16 = fat_image(16, 2100, keep=24 * 1024)
put("fat", "seed-fat12", fat12)
put("fat", "seed-fat16", fat16)
# /a's first cluster pointing at itself in the FAT: the walk stops at the size (fat.c, chain loops).
a_cluster = struct.unpack_from("<H", fat12, fat12.index(b"A          ") + 26)[0]
loop = bytearray(fat12)
for fat in (512, 512 + 512):  # reserved 1 sector, 1-sector FATs
    entry = fat + a_cluster + a_cluster // 2
    v = struct.unpack_from("<H", loop, entry)[0]
    v = (v & 0x000f) | (a_cluster << 4) if a_cluster & 1 else (v & 0xf000) | a_cluster
    struct.pack_into("<H", loop, entry, v)
put("fat", "chain-self-loop", bytes(loop))
# A long-name entry with sequence number 0 after number 1 (lfn_add() must not index chars[-13]).
lfn = bytearray(fat12)
at = lfn.index("long-".encode("utf-16-le")[:8]) - 1  # the entry holding the name's first characters
lfn[at + 32:at + 32 + 32] = lfn[at:at + 32]
lfn[at + 32] = 0x80  # sequence number 0 (0x00 would end the directory)
put("fat", "lfn-sequence-zero", bytes(lfn[:len(fat12)]))
# /B claims 70000 bytes in a 40 KiB volume: more clusters than the volume has.
put("fat", "size-past-volume", fat_patch(fat12, b"B          ", 28, struct.pack("<I", 70000)))
# A root directory entry count that does not fill its sector (fat.c scans root_entries, not whole sectors).
put("fat", "root-entries-odd", fat12[:17] + struct.pack("<H", 3) + fat12[19:])


# sb_auth: the .auth files of \loader\keys\NAME (src/core/sb_keys.c). First byte: 1 = PK, 0 = not.
PKCS7 = uuid.UUID("4aafd29d-68df-49ee-8aa9-347d375665a7").bytes_le
X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072").bytes_le
SHA256 = uuid.UUID("c1c41626-504c-4092-aca9-41f936934328").bytes_le


def esl(sig_type, sigs, header=b""):
    """An EFI_SIGNATURE_LIST of @sigs (each owner GUID + data, all one size)."""
    size = len(sigs[0])
    return sig_type + struct.pack("<III", 28 + len(header) + size * len(sigs), len(header), size) + header + \
        b"".join(sigs)


def auth(lists, cert=b"\x30\x82\x01\x00" + bytes(256), stamp=(2024, 11, 30, 12, 34, 56), pk=False):
    time = struct.pack("<HBBBBBBIhBB", *stamp, 0, 0, 0, 0, 0)
    return bytes([pk]) + time + struct.pack("<IHH", 24 + len(cert), 0x0200, 0x0ef1) + PKCS7 + cert + lists


owner = uuid.UUID("11111111-2222-3333-4444-555555555555").bytes_le
cert_sig = owner + b"\x30\x82\x02\x00" + bytes(508)
one = esl(X509, [cert_sig])
put("sb_auth", "pk", auth(one, pk=True))
put("sb_auth", "db-two-lists", auth(one + esl(SHA256, [owner + bytes(32)] * 3)))
put("sb_auth", "db-header", auth(esl(SHA256, [owner + bytes(32)], header=bytes(8))))
put("sb_auth", "kek-unsigned", auth(one, cert=b""))
put("sb_auth", "pk-unsigned", auth(one, cert=b"", pk=True))
put("sb_auth", "pk-two-signatures", auth(esl(X509, [cert_sig, cert_sig]), pk=True))
put("sb_auth", "pk-two-lists", auth(one + one, pk=True))
put("sb_auth", "no-list", auth(b""))
put("sb_auth", "list-cut", auth(one[:-1]))
put("sb_auth", "trailing-byte", auth(one + b"\0"))
put("sb_auth", "nanosecond", auth(one)[:9] + b"\x01" + auth(one)[10:])
put("sb_auth", "dwlength-past-end", auth(one)[:17] + struct.pack("<I", 0xfffffff0) + auth(one)[21:])
put("sb_auth", "cert-not-der", auth(one, cert=b"\x31" + bytes(20)))
put("sb_auth", "signature-size-owner-only", auth(X509 + struct.pack("<III", 28 + 16, 0, 16) + owner))
put("sb_auth", "list-size-wraps", auth(X509 + struct.pack("<III", 0xfffffff0, 0, 17) + owner + b"x"))
put("sb_auth", "header-size-huge", auth(X509 + struct.pack("<III", 28 + 17, 0xffffffff, 17) + owner + b"x"))


def smbios_struct(stype, formatted, strings):
    """A structure: header (type, length, handle 0), the formatted rest, its string set."""
    body = bytes([stype, 4 + len(formatted), 0, 0]) + formatted
    return body + (b"".join(s + b"\0" for s in strings) + b"\0" if strings else b"\0\0")


def smbios_seed(v3, table, ep_len=None):
    """Byte 0: the entry point's kind; then 0x20 bytes of entry point; then the table."""
    if v3:
        ep = b"_SM3_" + bytes([0, ep_len or 0x18, 3, 0, 0, 1, 0]) + struct.pack("<IQ", len(table), 0x7f8f1000)
    else:
        ep = b"_SM_" + bytes([0, ep_len or 0x1f, 2, 8, 0, 1]) + bytes(6) + b"_DMI_\0" + \
            struct.pack("<HI", len(table), 0xf0000) + b"\x09\x00\x28"
    return bytes([v3]) + ep.ljust(0x20, b"\0") + table


EXTRA = b"io.systemd.boot.kernel-cmdline-extra="
OEM = smbios_struct(11, b"\x02", [b"io.systemd.credential:x=y", EXTRA + b"console=ttyS0 debug"])
QEMU_LIKE = smbios_struct(0, bytes([1, 2, 0, 0xe8, 3]) + bytes(15), [b"EDK II", b"1.0"]) + \
    smbios_struct(1, bytes(4), []) + OEM + smbios_struct(127, b"", [])
put("smbios", "qemu-like-v3", smbios_seed(1, QEMU_LIKE))
put("smbios", "qemu-like-v2", smbios_seed(0, QEMU_LIKE))
put("smbios", "ep-length-errata", smbios_seed(0, QEMU_LIKE, ep_len=0x1e))
put("smbios", "ep-length-short", smbios_seed(1, QEMU_LIKE, ep_len=0x17))
put("smbios", "string-set-cut", smbios_seed(1, OEM[:-1]))
put("smbios", "string-unterminated", smbios_seed(1, OEM[:-2]))
put("smbios", "length-below-header", smbios_seed(1, b"\x0b\x03\0\0" + OEM))
put("smbios", "length-past-table", smbios_seed(1, b"\x0b\xff\0\0\x01" + EXTRA + b"x\0\0"))
put("smbios", "oem-without-count", smbios_seed(1, smbios_struct(11, b"", [EXTRA + b"x"])))
put("smbios", "lone-nul-set", smbios_seed(1, b"\x01\x04\0\0\0x" + OEM))
put("smbios", "after-end", smbios_seed(1, smbios_struct(127, b"", []) + OEM))
put("smbios", "extra-blanks-controls", smbios_seed(1, smbios_struct(11, b"\x01", [EXTRA + b" \t a\x7fb\r\n "])))
put("smbios", "extra-not-utf8", smbios_seed(1, smbios_struct(11, b"\x01", [EXTRA + b"a\xff\xc3"])))
put("smbios", "extra-empty", smbios_seed(1, smbios_struct(11, b"\x01", [EXTRA])))

def boot_option(path="\\EFI\\Microsoft\\Boot\\bootmgfw.efi", desc="Windows Boot Manager", name_nul=True,
                end=b"\x7f\xff\x04\x00", fpl_extra=0, file_len=None, opt=b"WINDOWS\0"):
    """A Boot#### (UEFI 2.10 §3.1.3): HD(1,GPT)/File(@path)/@end, then @opt."""
    name = path.encode("utf-16-le") + (b"\0\0" if name_nul else b"")
    hd = bytes([4, 1, 42, 0]) + struct.pack("<IQQ", 1, 2048, 204800) + bytes(16) + b"\x02\x02"
    node = bytes([4, 4]) + struct.pack("<H", 4 + len(name) if file_len is None else file_len) + name
    fpl = hd + node + end
    return struct.pack("<IH", 1, len(fpl) + fpl_extra) + (desc + "\0").encode("utf-16-le") + fpl + opt


put("bootopt", "windows", boot_option())
put("bootopt", "windows-name-without-nul", boot_option(name_nul=False))
put("bootopt", "windows-lower-case-slashes", boot_option(path="/efi/microsoft/boot/BOOTMGFW.EFI"))
put("bootopt", "shell", boot_option(path="\\shellx64.efi", desc="EFI Shell", opt=b""))
put("bootopt", "end-of-instance", boot_option(end=b"\x7f\x01\x04\x00" + bytes([4, 4, 6, 0, 0, 0]) +
                                              b"\x7f\xff\x04\x00"))
put("bootopt", "list-past-end", boot_option(fpl_extra=1, opt=b""))
put("bootopt", "no-end-node", boot_option(end=b""))
put("bootopt", "node-shorter-than-header", boot_option(file_len=3))
put("bootopt", "node-past-list", boot_option(file_len=0xffff))
put("bootopt", "description-without-nul", struct.pack("<IH", 1, 0) + "Windows".encode("utf-16-le"))
put("bootopt", "header-only", struct.pack("<IH", 1, 0))
put("bootopt", "bitlocker-sector", b"\xeb\x58\x90-FVE-FS-" + bytes(501))


def fdt_blob(words=None, pad=0, **field):
    """A version 17 devicetree blob (Devicetree Specification v0.4 §5.2) as dtc
    writes one: header, an empty reservation block, a root node with one
    property "mod" = "ABC", the strings; @field overrides a header field by
    name; @pad bytes after it (the file longer than totalsize)."""
    body = struct.pack(">4I", 0, 0, 0, 0) + struct.pack(">8I", 1, 0, 3, 4, 0, 0x41424300, 2, 9) + b"mod\0"
    h = dict(magic=0xd00dfeed, totalsize=92, off_dt_struct=56, off_dt_strings=88, off_mem_rsvmap=40, version=17,
             last_comp_version=16, boot_cpuid_phys=0, size_dt_strings=4, size_dt_struct=32)
    h.update(field)
    return struct.pack(">10I", *h.values()) + body + bytes(pad)


put("fdt", "minimal", fdt_blob())
put("fdt", "padded", fdt_blob(pad=4096 - 92))
put("fdt", "short", fdt_blob()[:39])
put("fdt", "little-endian", struct.pack("<I", 0xd00dfeed) + fdt_blob()[4:])
put("fdt", "version-16", fdt_blob(version=16, size_dt_struct=0))
put("fdt", "version-18-compatible", fdt_blob(version=18, last_comp_version=17))
put("fdt", "totalsize-past-file", fdt_blob(totalsize=93))
put("fdt", "totalsize-below-header", fdt_blob(totalsize=39))
put("fdt", "totalsize-max", fdt_blob(totalsize=0xffffffff))
put("fdt", "compatible-above-version", fdt_blob(version=17, last_comp_version=18))
# bls: the devicetree key (kept on AArch64 and the host, the last one counting), overlays ignored
put("bls", "devicetree", b"e.conf\nlinux /k\ndevicetree /a.dtb\ndevicetree-overlay /o.dtbo\n"
    b"devicetree \\dtbs\\b\xc0\x80.dtb\ndevicetree\n")
