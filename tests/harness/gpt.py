"""A GPT reader of the harness's own (UEFI 2.10 §5.3), independent of the
project's C code: it checks the protective MBR, both headers and both entry
arrays with their CRCs, and lists the partitions. It reads only those
sectors, so a disk of gigabytes costs nothing."""
import os
import struct
import uuid
import zlib

SECTOR = 512
ESP_TYPE = "C12A7328-F81F-11D2-BA4B-00A0C93EC93B"
XBOOTLDR_TYPE = "BC13C2FF-59E6-4262-A352-B275FD6F7172"


def _sectors(f, lba, count=1):
    f.seek(lba * SECTOR)
    return f.read(count * SECTOR)


def _header(f, lba, n):
    """The header at @lba, checked: signature, CRC, where it says it is and
    where its other copy is; its entry array, checked against its CRC."""
    h = bytearray(_sectors(f, lba)[:92])
    assert h[:8] == b"EFI PART", f"GPT signature at LBA {lba}"
    crc = struct.unpack_from("<I", h, 16)[0]
    struct.pack_into("<I", h, 16, 0)
    assert zlib.crc32(bytes(h)) == crc, f"header CRC at LBA {lba}"
    my, alt, first, last = struct.unpack_from("<QQQQ", h, 24)
    elba, nent, esize, ecrc = struct.unpack_from("<QIII", h, 72)
    f.seek(elba * SECTOR)
    arr = f.read(nent * esize)
    assert zlib.crc32(arr) == ecrc, f"entry array CRC at LBA {elba}"
    assert my == lba and alt == (n - 1 if lba == 1 else 1), f"my/alternate LBA of the header at {lba}"
    return first, last, elba, esize, arr


def read(img):
    """(sectors, first usable LBA, last usable LBA, partitions): each partition
    a dict of its number (its entry's place, from 1), type and guid (upper
    case), first and last LBA, name."""
    n = os.path.getsize(img) // SECTOR
    with open(img, "rb") as f:
        mbr = _sectors(f, 0)
        assert mbr[510:512] == b"\x55\xaa" and mbr[446 + 4] == 0xEE, "protective MBR"
        assert struct.unpack_from("<I", mbr, 446 + 8)[0] == 1
        assert struct.unpack_from("<I", mbr, 446 + 12)[0] == min(n - 1, 0xffffffff)
        primary, backup = _header(f, 1, n), _header(f, n - 1, n)
    assert primary[4] == backup[4], "backup entries differ"
    assert primary[2] == 2 and backup[2] == n - 33
    first, last, _, esize, arr = primary
    parts = []
    for i in range(len(arr) // esize):
        e = arr[i * esize:(i + 1) * esize]
        if e[:16] == bytes(16):
            continue
        parts.append({
            "number": i + 1,
            "type": str(uuid.UUID(bytes_le=e[:16])).upper(),
            "guid": str(uuid.UUID(bytes_le=e[16:32])).upper(),
            "first": struct.unpack_from("<Q", e, 32)[0],
            "last": struct.unpack_from("<Q", e, 40)[0],
            "name": e[56:128].decode("utf-16-le").rstrip("\0"),
        })
    return n, first, last, parts


def partition(img, number):
    """Partition @number (1-based, as the GPT counts) of @img."""
    found = [p for p in read(img)[3] if p["number"] == number]
    assert found, f"{img}: no partition {number}"
    return found[0]


def partition_offset(img, number):
    """Byte offset of partition @number in @img."""
    return partition(img, number)["first"] * SECTOR
