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
import struct
import uuid

GLOBAL = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
IMAGE_SECURITY = "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
MICROSOFT = "77fa9abd-0359-4d32-bd60-28f4e78f784b"
CERT_X509 = "a5c059a1-94e4-4aa7-87b5-ab155c2bf072"
VAR_HEADER = struct.Struct("<HBBIQ16sIII16s")  # 60 bytes
LIVE = (0x3f, 0x3e)


def variables(path):
    """{(name, vendor guid): (attributes, data)} of the live variables in @path."""
    d = open(path, "rb").read()
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
    return out


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


def add_variable(src, dst, name, guid, attrs, data):
    """Copy the store @src to @dst with the variable @name added after the last
    record (a new record, State VAR_ADDED, no timestamp), as the firmware finds
    it at its next start. The name must not be in the store yet."""
    d = bytearray(open(src, "rb").read())
    assert (name, guid) not in variables(src), "%s already holds %s" % (src, name)
    store = struct.unpack_from("<H", d, 48)[0]
    off, end = store + 28, store + struct.unpack_from("<I", d, store + 16)[0]
    while struct.unpack_from("<H", d, off)[0] == 0x55aa:
        _, _, _, _, _, _, _, name_size, data_size, _ = VAR_HEADER.unpack_from(d, off)
        off = (off + VAR_HEADER.size + name_size + data_size + 3) & ~3
    name16 = (name + "\0").encode("utf-16-le")
    record = VAR_HEADER.pack(0x55aa, 0x3f, 0, attrs, 0, bytes(16), 0, len(name16), len(data),
                             uuid.UUID(guid).bytes_le) + name16 + data
    assert off + len(record) <= end and d[off:off + len(record)] == b"\xff" * len(record), \
        "%s: no free room for %s" % (src, name)
    d[off:off + len(record)] = record
    open(dst, "wb").write(d)
