"""Host-side predictions for measured boot, written from the specifications
(stdlib only), to compare with what the booted kernel reads from the TPM:

- pcr_extend / chain: TPM 2.0 PCR extend, new = SHA-256(old || digest).
- linux_stub_pcr9(cmdline, initrd): what Linux's EFI stub measures into PCR 9
  (libstub efi_measure_tagged_event): the LoadOptions, UTF-16LE with the NUL,
  then the initrd bytes (only when there is one).
- options_pcr12(cmdline): systemd-boot's PCR 12 (EV_IPL, UTF-16LE with NUL).
- uki_pcr11(path): systemd-stub's PCR 11 for a UKI file: for each section of
  the UKI specification's list in its order (.pcrsig excluded), its name with
  the NUL, then its VirtualSize bytes (any bank: hashlib's name).
- phase_pcr11(value, phase): PCR 11 after systemd-pcrphase extends each word
  of a phase path ("enter-initrd:leave-initrd"), the word's digest, no NUL.
- policy_pcr11(value, bank): TPM2_PolicyPCR's policy digest (TPM 2.0 Part 3
  §23.7) for PCR 11 of @bank holding @value, from a fresh SHA-256 session.
- authenticode_sha256(path): the PE image hash the firmware measures into
  PCR 4 (EV_EFI_BOOT_SERVICES_APPLICATION): "Windows Authenticode Portable
  Executable Signature Format", the checksum and certificate-table entry and
  the certificate table itself left out.
- firmware_pcr4(images): PCR 4 of an EDK II firmware that boots from a boot
  option straight into @images (the boot loader, then what LoadImage loaded):
  EV_EFI_ACTION "Calling EFI Application from Boot Option" and EV_SEPARATOR
  (PC Client PFP §3.3.4.5, §10.4.1; four zero bytes), then each image's
  authenticode_sha256(). For a guest whose kernel cannot read the event log.
- parse_event_log(bytes): the crypto-agile TCG event log (PC Client PFP
  §10.2: a SHA-1 format Spec ID event, then TCG_PCR_EVENT2 records), and
  replay(events) -> {pcr: sha256 value}; pcr4_apps(events): the digests of
  PCR 4's EV_EFI_BOOT_SERVICES_APPLICATION events (a kernel must be there once).
"""
import hashlib
import struct

EV_NO_ACTION = 0x3
EV_EVENT_TAG = 0x6
EV_IPL = 0xD
EV_EFI_BOOT_SERVICES_APPLICATION = 0x80000003
TPM_ALG_SHA256 = 0x000B
ZERO = b"\0" * 32

UKI_ORDER = (".linux", ".osrel", ".cmdline", ".initrd", ".ucode", ".splash", ".dtb", ".uname",
             ".sbat", ".pcrpkey", ".profile")


TPM_ALG = {"sha1": 0x0004, "sha256": 0x000B, "sha384": 0x000C, "sha512": 0x000D}
TPM_CC_POLICY_PCR = 0x0000017F


def pcr_extend(old, digest, bank="sha256"):
    return hashlib.new(bank, old + digest).digest()


def chain(digests, start=ZERO):
    v = start
    for d in digests:
        v = pcr_extend(v, d)
    return v


def utf16z(text):
    return (text + "\0").encode("utf-16-le")


def linux_stub_pcr9(cmdline, initrd):
    ds = [hashlib.sha256(utf16z(cmdline)).digest()]
    if initrd:
        ds.append(hashlib.sha256(initrd).digest())
    return chain(ds)


def options_pcr12(cmdline):
    return chain([hashlib.sha256(utf16z(cmdline)).digest()])


def pe_sections(data):
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    nsec, optsize = struct.unpack_from("<H", data, pe + 6)[0], struct.unpack_from("<H", data, pe + 20)[0]
    opt = pe + 24
    out = []
    for i in range(nsec):
        h = opt + optsize + 40 * i
        name = data[h:h + 8].rstrip(b"\0").decode()
        vsize, va, rsize, roff = struct.unpack_from("<IIII", data, h + 8)
        out.append((name, vsize, va, rsize, roff))
    return pe, opt, out


def section(data, name):
    """The first section called name: VirtualSize bytes from the file."""
    for n, vsize, va, rsize, roff in pe_sections(data)[2]:
        if n == name:
            return data[roff:roff + vsize]
    return None


def uki_profile_sections(data, profile=0):
    """name -> bytes as profile @profile of a UKI sees them (None: the base
    alone): the base (before the first .profile), each name overridden by the
    profile's own (UAPI.5 multi-profile UKIs; the first of a name wins)."""
    base, own, rng = {}, {}, None
    for name, vsize, va, rsize, roff in pe_sections(data)[2]:
        if name == ".profile":
            rng = 0 if rng is None else rng + 1
        d = base if rng is None else own if rng == profile else None
        if d is not None:
            d.setdefault(name, data[roff:roff + vsize])
    base.update(own)
    return base


def uki_pcr11(data, bank="sha256", profile=0):
    by_name = uki_profile_sections(data, profile)
    v = bytes(hashlib.new(bank).digest_size)
    for name in UKI_ORDER:
        blob = by_name.get(name)
        if blob:
            v = pcr_extend(v, hashlib.new(bank, name.encode() + b"\0").digest(), bank)
            v = pcr_extend(v, hashlib.new(bank, blob).digest(), bank)
    return v


def phase_pcr11(value, phase, bank="sha256"):
    for word in phase.split(":"):
        if word:
            value = pcr_extend(value, hashlib.new(bank, word.encode()).digest(), bank)
    return value


def policy_pcr11(value, bank="sha256"):
    # TPML_PCR_SELECTION {count 1: hash, sizeofSelect 3, PCR 11 = bit 3 of byte 1}, big-endian
    selection = struct.pack(">IHB3B", 1, TPM_ALG[bank], 3, 0x00, 0x08, 0x00)
    return hashlib.sha256(bytes(32) + struct.pack(">I", TPM_CC_POLICY_PCR) + selection +
                          hashlib.sha256(value).digest()).digest()


def authenticode_sha256(data):
    pe, opt, secs = pe_sections(data)
    magic = struct.unpack_from("<H", data, opt)[0]
    assert magic == 0x20B, "PE32+ only"
    checksum = opt + 64
    certdir = opt + 112 + 4 * 8        # data directory 4 (PE32+)
    size_of_headers = struct.unpack_from("<I", data, opt + 60)[0]
    cert_off, cert_size = struct.unpack_from("<II", data, certdir)
    h = hashlib.sha256()
    h.update(data[:checksum])
    h.update(data[checksum + 4:certdir])
    h.update(data[certdir + 8:size_of_headers])
    hashed = size_of_headers
    for name, vsize, va, rsize, roff in sorted(secs, key=lambda s: s[4]):
        if rsize:
            h.update(data[roff:roff + rsize])
            hashed += rsize
    end = len(data) - cert_size
    if end > hashed:
        h.update(data[hashed:end])
    return h.digest()


CALLING_EFI_APPLICATION = b"Calling EFI Application from Boot Option"


def firmware_pcr4(images):
    return chain([hashlib.sha256(CALLING_EFI_APPLICATION).digest(), hashlib.sha256(bytes(4)).digest()] +
                 [authenticode_sha256(i) for i in images])


def parse_event_log(log):
    """[(pcr, type, {alg: digest}, event_data)] of a crypto-agile log."""
    pcr, etype = struct.unpack_from("<II", log, 0)
    size = struct.unpack_from("<I", log, 28)[0]      # TCG_PCR_EVENT: pcr, type, sha1[20], size
    spec = log[32:32 + size]
    assert spec.startswith(b"Spec ID Event03\0"), "not a crypto-agile log"
    n_algs = struct.unpack_from("<I", spec, 24)[0]
    sizes = {}
    for i in range(n_algs):
        alg, dsize = struct.unpack_from("<HH", spec, 28 + 4 * i)
        sizes[alg] = dsize
    off = 32 + size
    events = []
    while off + 12 <= len(log):
        pcr, etype, count = struct.unpack_from("<III", log, off)
        off += 12
        digests = {}
        for _ in range(count):
            alg = struct.unpack_from("<H", log, off)[0]
            digests[alg] = log[off + 2:off + 2 + sizes[alg]]
            off += 2 + sizes[alg]
        esize = struct.unpack_from("<I", log, off)[0]
        events.append((pcr, etype, digests, log[off + 4:off + 4 + esize]))
        off += 4 + esize
    return events


def pcr4_apps(events):
    """The SHA-256 digests of PCR 4's EV_EFI_BOOT_SERVICES_APPLICATION events, in log order."""
    return [e[2].get(TPM_ALG_SHA256) for e in events if e[0] == 4 and e[1] == EV_EFI_BOOT_SERVICES_APPLICATION]


def replay(events):
    pcrs = {}
    for pcr, etype, digests, _ in events:
        if etype == EV_NO_ACTION or TPM_ALG_SHA256 not in digests:
            continue
        pcrs[pcr] = pcr_extend(pcrs.get(pcr, ZERO), digests[TPM_ALG_SHA256])
    return pcrs
