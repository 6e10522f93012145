#!/usr/bin/python3
"""Writes tests/cli/corpus/: small malformed images for `handoff inspect`.

Every file starts from one synthetic 4 KiB image that is both a bzImage
(boot protocol 2.15 setup header, boot.rst) and a PE32+ EFI application
(the masquerade Linux uses), built here from the specifications, then breaks
one thing. Files named ok-* are valid (inspect must succeed); bad-* must make
inspect exit 1 with one error line. Deterministic: rerun to regenerate.
"""
import hashlib
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")

PE_OFF = 0x40
OPT_SIZE = 112 + 16 * 8
SEC_OFF = PE_OFF + 4 + 20 + OPT_SIZE  # 0x148
SETUP_SECTS = 3
SIZE = 4096


def put(b, off, fmt, *v):
    struct.pack_into("<" + fmt, b, off, *v)


def section(b, i, name, va, vsize, raw_off, raw_size, flags=0x60000020):
    off = SEC_OFF + 40 * i
    b[off:off + 8] = name.ljust(8, b"\0")[:8]
    put(b, off + 8, "IIII", vsize, va, raw_size, raw_off)
    put(b, off + 36, "I", flags)


def base(sections=None):
    b = bytearray(SIZE)
    b[0:2] = b"MZ"
    put(b, 0x3c, "I", PE_OFF)
    b[PE_OFF:PE_OFF + 4] = b"PE\0\0"
    secs = sections if sections is not None else [
        (b".setup", 0x200, 0x600, 0x200, 0x600),
        (b".text", 0x800, 0x800, 0x800, 0x800),
    ]
    coff = PE_OFF + 4
    put(b, coff, "HHIIIHH", 0x8664, len(secs), 0, 0, 0, OPT_SIZE, 0x206)
    opt = coff + 20
    put(b, opt, "H", 0x20b)
    put(b, opt + 16, "I", 0x900)            # AddressOfEntryPoint
    put(b, opt + 24, "Q", 0)                # ImageBase
    put(b, opt + 32, "II", 0x200, 0x200)    # SectionAlignment, FileAlignment
    put(b, opt + 56, "II", 0x1000, 0x200)   # SizeOfImage, SizeOfHeaders
    put(b, opt + 68, "H", 10)               # EFI application
    put(b, opt + 108, "I", 16)              # NumberOfRvaAndSizes
    for i, s in enumerate(secs):
        section(b, i, *s)
    # Setup header (boot.rst), protected-mode code at (3 + 1) * 512.
    b[0x1f1] = SETUP_SECTS
    put(b, 0x1f4, "I", (SIZE - (SETUP_SECTS + 1) * 512) // 16)  # syssize
    put(b, 0x1fe, "H", 0xaa55)
    b[0x200] = 0xeb
    b[0x201] = 0x66
    b[0x202:0x206] = b"HdrS"
    put(b, 0x206, "H", 0x020f)
    put(b, 0x20e, "H", 0x300)               # kernel_version at 0x500
    b[0x500:0x500 + 24] = b"6.9.0-corpus (t@x) #1 \0\0"
    b[0x211] = 0x01                         # LOADED_HIGH
    put(b, 0x22c, "I", 0x7fffffff)
    put(b, 0x230, "I", 0x200000)
    b[0x234] = 1
    put(b, 0x236, "H", 0x0b)                # KERNEL_64 | ABOVE_4G | EFI_HANDOVER_64
    put(b, 0x238, "I", 2047)
    put(b, 0x258, "Q", 0x1000000)
    put(b, 0x260, "I", 0x10000)
    put(b, 0x264, "I", 0x190)
    return b


def not_bz(b):
    b[0x202:0x206] = b"\0\0\0\0"
    return b


def with_cert(length, cert_type=2):
    b = base()
    put(b, PE_OFF + 24 + 112 + 4 * 8, "II", 0xf00, 0x100)  # data directory 4
    put(b, 0xf00, "IHH", length, 0x0200, cert_type)
    return b


def uki():
    """A PE (no setup header) with .osrel, .cmdline and a .linux holding base()."""
    osrel = b'NAME="Corpus"\nPRETTY_NAME="Corpus \\"OS\\""\nID=corpus\n'
    cmdline = b"console=ttyS0 quiet\0"
    secs = [(b".osrel", 0x1000, len(osrel), 0x400, 0x200), (b".cmdline", 0x1200, len(cmdline), 0x600, 0x200),
            (b".linux", 0x2000, SIZE, 0x1000, SIZE)]
    b = not_bz(base(secs))[:0x1000] + base()
    b = bytearray(b)
    b[0x1f1:0x300] = bytes(0x300 - 0x1f1)  # no setup header in the outer PE
    put(b, PE_OFF + 24 + 56, "I", 0x3000)   # SizeOfImage
    b[0x400:0x400 + len(osrel)] = osrel
    b[0x600:0x600 + len(cmdline)] = cmdline
    return b


def files():
    rnd = hashlib.shake_256(b"handoff corpus random").digest(SIZE)
    uki_secs = [(b".setup", 0x200, 0x600, 0x200, 0x600), (b".linux", 0x800, 0x800, 0x800, 0x800)]
    dup_secs = [(b".setup", 0x200, 0x600, 0x200, 0x600), (b".linux", 0x800, 0x600, 0x800, 0x600),
                (b".osrel", 0xe00, 0x10, 0xe00, 0x10), (b".osrel", 0xf00, 0x10, 0xf00, 0x10)]
    weird = [(b'"\\\n\x1b\xff', 0x200, 0x600, 0x200, 0x600), (b".text", 0x800, 0x800, 0x800, 0x800)]
    b = {}
    b["ok-synthetic"] = base()
    b["ok-signed"] = with_cert(0x100)
    b["ok-weird-section-name"] = base(weird)
    b["ok-uki"] = uki()
    b["bad-empty"] = b""
    b["bad-truncated-100"] = base()[:100]
    b["bad-truncated-1024"] = base()[:1024]
    b["bad-random"] = rnd
    b["bad-mz-only"] = b"MZ" + bytes(62)
    b["bad-setup-sects-past-end"] = base(); b["bad-setup-sects-past-end"][0x1f1] = 200
    b["bad-section-table-outside"] = base()[:0x400]; put(b["bad-section-table-outside"], PE_OFF + 6, "H", 40)
    b["bad-sections-65535"] = base(); put(b["bad-sections-65535"], PE_OFF + 6, "H", 65535)
    setup = (b".setup", 0x200, 0x600, 0x200, 0x600)
    b["bad-overlapping-sections"] = base([setup, (b".text", 0x600, 0x800, 0x800, 0x800)])
    b["bad-section-raw-outside"] = base([setup, (b".text", 0x800, 0x800, 0xfffff000, 0x800)])
    b["bad-section-vsize-absurd"] = base([(b".setup", 0x200, 0xffffffff, 0x200, 0x600),
                                          (b".text", 0x800, 0x800, 0x800, 0x800)])
    b["bad-syssize-absurd"] = base(); put(b["bad-syssize-absurd"], 0x1f4, "I", 0xffffffff)
    b["bad-alignment-not-pow2"] = base(); put(b["bad-alignment-not-pow2"], 0x230, "I", 0x300000)
    b["bad-opt-header-outside"] = base(); put(b["bad-opt-header-outside"], PE_OFF + 20, "H", 0xfff0)
    b["bad-cert-length"] = with_cert(0x1000)
    b["bad-cert-short"] = with_cert(4)
    b["bad-uki-linux-garbage"] = not_bz(base(uki_secs))
    b["bad-uki-duplicate-osrel"] = not_bz(base(dup_secs))
    b["bad-no-bootflag"] = base(); b["bad-no-bootflag"][0:2] = b"\0\0"; put(b["bad-no-bootflag"], 0x1fe, "H", 0)
    return b


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in files().items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(bytes(data))


if __name__ == "__main__":
    main()
