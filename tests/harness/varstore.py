"""OVMF's variable store files (OVMF_VARS*.fd) read independently of the tool:
the firmware volume header (PI 1.8 vol. 3 §3.2.1: FvLength at 32, "_FVH" at
40, HeaderLength at 48), then edk2's authenticated variable store
(VARIABLE_STORE_HEADER: Signature GUID, Size, Format, State; then
AUTHENTICATED_VARIABLE_HEADER records: StartId 0x55aa, State, Attributes,
MonotonicCount, TimeStamp, PubKeyIndex, NameSize, DataSize, VendorGuid, then
the name and the data, each record 4-byte aligned). Live records have State
VAR_ADDED (0x3f), or 0x3e while a newer copy is being written. Also signature
lists (UEFI 2.10 §32.4.1) and efivarfs files (4 attribute bytes, then the data)."""
import os
import shutil
import struct
import uuid

GLOBAL = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
IMAGE_SECURITY = "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
LOADER = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"  # systemd's Boot Loader Interface
MICROSOFT = "77fa9abd-0359-4d32-bd60-28f4e78f784b"
CERT_X509 = "a5c059a1-94e4-4aa7-87b5-ab155c2bf072"
VAR_HEADER = struct.Struct("<HBBIQ16sIII16s")  # 60 bytes
LIVE = (0x3f, 0x3e)


def _records(d, path):
    """(live variables as variables() gives them, offset of the store's free space) of the store bytes @d."""
    assert d[40:44] == b"_FVH", "%s: no firmware volume header" % path
    store = struct.unpack_from("<H", d, 48)[0]
    size = struct.unpack_from("<I", d, store + 16)[0]
    off, end, out = store + 28, store + size, {}
    while off + VAR_HEADER.size <= end:
        start, state, _, attrs, _, _, _, name_size, data_size, guid = VAR_HEADER.unpack_from(d, off)
        if start != 0x55aa:
            break
        name_at = off + VAR_HEADER.size
        name = d[name_at:name_at + name_size].decode("utf-16-le").rstrip("\0")
        data = d[name_at + name_size:name_at + name_size + data_size]
        if state in LIVE:
            out[(name, str(uuid.UUID(bytes_le=guid)))] = (attrs, data)
        off = (name_at + name_size + data_size + 3) & ~3
    return out, off, end


def variables(path):
    """{(name, vendor guid): (attributes, data)} of the live variables in @path."""
    return _records(open(path, "rb").read(), path)[0]


def add_variable(path, name, guid, attrs, data):
    """Append a new (not yet present) variable to the store file @path, as
    the firmware would: a VAR_ADDED record (no authentication data) in the
    free space (0xff bytes) after the last record."""
    d = bytearray(open(path, "rb").read())
    have, off, end = _records(bytes(d), path)
    assert (name, guid) not in have, "%s: %s-%s is already there" % (path, name, guid)
    name16 = (name + "\0").encode("utf-16-le")
    rec = VAR_HEADER.pack(0x55aa, 0x3f, 0, attrs, 0, bytes(16), 0, len(name16), len(data),
                          uuid.UUID(guid).bytes_le) + name16 + data
    assert off + len(rec) <= end and d[off:off + len(rec)] == b"\xff" * len(rec), "%s: no free space" % path
    d[off:off + len(rec)] = rec
    open(path, "wb").write(bytes(d))


def signature_list(data):
    """[(type guid, owner guid, signature data)] of the EFI_SIGNATURE_LISTs in @data."""
    off, out = 0, []
    while off < len(data):
        list_size, header_size, sig_size = struct.unpack_from("<III", data, off + 16)
        kind = str(uuid.UUID(bytes_le=data[off:off + 16]))
        p = off + 28 + header_size
        while p < off + list_size:
            out.append((kind, str(uuid.UUID(bytes_le=data[p:p + 16])), data[p + 16:p + sig_size]))
            p += sig_size
        assert p == off + list_size, "signature list at %#x: its signatures overrun it" % off
        off += list_size
    return out


def write_efivars(out_dir, variables_):
    """efivarfs files NAME-GUID (the attributes as 4 bytes LE, then the data) for {(name, guid): (attrs, data)}."""
    os.makedirs(out_dir, exist_ok=True)
    for (name, guid), (attrs, data) in variables_.items():
        with open(os.path.join(out_dir, "%s-%s" % (name, guid)), "wb") as f:
            f.write(struct.pack("<I", attrs) + data)


def with_variables(src, dst, new):
    """A copy @dst of the variable store @src with the variables @new ({(name,
    guid): (attributes, data)}) added (add_variable()). Returns @dst."""
    shutil.copyfile(src, dst)
    for (name, guid), (attrs, data) in new.items():
        add_variable(dst, name, guid, attrs, data)
    return dst


NV_BS_RT = 0x7  # EFI_VARIABLE_NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS


def load_option(description, file_path, hd=None):
    """A Boot#### (UEFI 2.10 §3.1.3, active): [HD(@hd: number, first LBA,
    sectors, PARTUUID)/]File(@file_path)/End."""
    fpl = b""
    if hd:
        number, first, sectors, guid = hd
        fpl += bytes([4, 1, 42, 0]) + struct.pack("<IQQ", number, first, sectors) + uuid.UUID(guid).bytes_le + \
            b"\x02\x02"
    name = (file_path + "\0").encode("utf-16-le")
    fpl += bytes([4, 4]) + struct.pack("<H", 4 + len(name)) + name + b"\x7f\xff\x04\x00"
    return struct.pack("<IH", 1, len(fpl)) + (description + "\0").encode("utf-16-le") + fpl
