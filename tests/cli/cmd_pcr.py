"""Signed PCR policies: `handoff uki --pcr-private-key` and `handoff inspect
--pcrs`, against oracles that are not the tool: Debian 12's systemd-measure
252 (`sign` and `calculate`, given a TPM by swtpm over TCP), openssl (keys,
signature checks) and tests/boot/measured.py (hashlib).

systemd-measure 252 predates .uname and .sbat in PCR 11 (systemd 254 added
them; handoff's stub measures them), and every `handoff uki` image has both.
So `sign` runs with --current on PCR 11 after the stub as measured.py computes
it from the image (a private mount namespace shows it in
/sys/class/tpm/tpm0/pcr-BANK/11; in a chroot too): systemd then extends the phases, computes
each policy digest and signs it, and its JSON must equal .pcrsig byte for
byte (RSA PKCS#1 v1.5 is deterministic). `calculate` runs on the image's own
section files with .uname and .sbat renamed away, against inspect --pcrs of
that image."""
import base64
import hashlib
import json
import os
import struct
import subprocess

from boot import measured
from harness import firmware
from common import KERNEL, INITRD, Tmp, fails, h, need, ok, test

MEASURE = "/usr/lib/systemd/systemd-measure"
BANKS = ("sha1", "sha256", "sha384", "sha512")
DEFAULT_PHASES = ("enter-initrd", "enter-initrd:leave-initrd", "enter-initrd:leave-initrd:sysinit",
                  "enter-initrd:leave-initrd:sysinit:ready")


def openssl(*args, data=None):
    r = subprocess.run(["openssl", *args], input=data, capture_output=True)
    assert r.returncode == 0, f"openssl {' '.join(args)}: {r.stderr.decode(errors='replace')}"
    return r.stdout


def keypair(tmp, name, *genpkey):
    """PEM private key and its public key (SubjectPublicKeyInfo), made by openssl."""
    key, pub = os.path.join(tmp, name + ".pem"), os.path.join(tmp, name + ".pub")
    openssl("genpkey", *genpkey, "-out", key)
    openssl("pkey", "-in", key, "-pubout", "-out", pub)
    return key, pub


def rsa(tmp, name="rsa"):
    return keypair(tmp, name, "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048")


def ec(tmp, name="ec", curve="P-256"):
    return keypair(tmp, name, "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:" + curve)


def build(tmp, *extra, out="uki.efi"):
    out = os.path.join(tmp, out)
    ok(h("uki", "--linux", KERNEL, "--initrd", INITRD, "--cmdline", "console=ttyS0 quiet",
         "--os-release", '@ID=test\nPRETTY_NAME="PCR test"\n', "-o", out, *extra), "uki")
    return out


def section(path, name):
    data = open(path, "rb").read()
    s = measured.section(data, name)
    assert s is not None, f"{path}: no {name} section"
    return s


class Swtpm:
    """swtpm on TCP for systemd-measure, stopped afterwards."""

    def __init__(self, tmp):
        self.tmp = tmp

    def __enter__(self):
        self.proc, port = firmware.start_swtpm_tcp(self.tmp)
        self.device = f"--tpm2-device=swtpm:host=127.0.0.1,port={port}"
        return self

    def __exit__(self, *a):
        firmware.stop_swtpm(self.proc)


def measure_sign_current(tpm, image, banks, key, pub, phases=()):
    """systemd-measure sign --current, PCR 11 of each bank set to measured.py's value for @image."""
    data = open(image, "rb").read()
    # unshare's default, making / private, fails where / is not a mount point (a chroot: "cannot change root
    # filesystem propagation"); there, /sys is made private instead, so that the tmpfs stays in the namespace.
    setup = "{ mount --make-rprivate / 2>/dev/null || mount --make-rprivate /sys; } && mount -t tmpfs none /sys/class"
    for b in banks:
        d = f"/sys/class/tpm/tpm0/pcr-{b}"
        setup += f" && mkdir -p {d} && echo {measured.uki_pcr11(data, b).hex()} > {d}/11"
    cmd = [MEASURE, "sign", "--current", tpm.device, "--private-key=" + key, "--public-key=" + pub, "--json=short",
           *("--bank=" + b for b in banks), *("--phase=" + p for p in phases)]
    ns = ["unshare", "--mount", "--propagation", "unchanged"] + (["--map-root-user"] if os.geteuid() else [])
    r = subprocess.run([*ns, "sh", "-c", setup + ' && exec "$@"', "sh", *cmd], capture_output=True)
    assert r.returncode == 0, f"systemd-measure sign: {r.stderr.decode(errors='replace')}"
    return r.stdout


def check_policies(image, pub, banks, phases):
    """.pcrsig holds, per bank and phase, the policy of measured.py's PCR 11
    value, with a signature openssl verifies against .pcrpkey (= @pub)."""
    pcrsig = json.loads(section(image, ".pcrsig"))
    assert sorted(pcrsig) == sorted(banks), pcrsig.keys()
    assert section(image, ".pcrpkey") == open(pub, "rb").read(), ".pcrpkey is not the public key"
    data = open(image, "rb").read()
    tmp = os.path.dirname(image)
    for b in banks:
        base = measured.uki_pcr11(data, b)
        assert len(pcrsig[b]) == len(phases), (b, len(pcrsig[b]))
        for phase, e in zip(phases, pcrsig[b]):
            pol = measured.policy_pcr11(measured.phase_pcr11(base, phase, b), b)
            assert e["pcrs"] == [11] and e["pol"] == pol.hex(), (b, phase, e["pol"], pol.hex())
            open(os.path.join(tmp, "pol"), "wb").write(pol)
            open(os.path.join(tmp, "sig"), "wb").write(base64.b64decode(e["sig"]))
            openssl("dgst", "-" + b, "-verify", pub, "-signature", os.path.join(tmp, "sig"), os.path.join(tmp, "pol"))


@test
def uki_pcr_rsa_pcrsig_is_systemd_measure_sign():
    """RSA, two banks, systemd's default phases: .pcrsig is byte for byte
    what systemd-measure signs; each policy is the one of measured.py's PCR 11
    value and its signature verifies with openssl against .pcrpkey."""
    need(MEASURE, KERNEL, INITRD)
    with Tmp() as tmp, Swtpm(tmp) as tpm:
        key, pub = rsa(tmp)
        image = build(tmp, "--pcr-private-key", key, "--pcr-public-key", pub, "--pcr-banks", "sha256,SHA1")
        check_policies(image, pub, ("sha1", "sha256"), DEFAULT_PHASES)
        oracle = measure_sign_current(tpm, image, ("sha1", "sha256"), key, pub)
        assert section(image, ".pcrsig") == oracle, (section(image, ".pcrsig")[:200], oracle[:200])
        pkfp = json.loads(oracle)["sha256"][0]["pkfp"]
        der = openssl("rsa", "-pubin", "-in", pub, "-RSAPublicKey_out", "-outform", "DER")
        assert pkfp == hashlib.sha256(der).hexdigest(), "pkfp: SHA-256 of the PKCS#1 RSAPublicKey"


@test
def uki_pcr_ec_policies_as_systemd_measure():
    """EC P-256 (ECDSA signatures differ per run) with phases given as ukify
    takes them: pol and pkfp as systemd-measure's for the same phases (sorted,
    duplicates dropped), every signature verified by openssl; P-384 and the
    public key derived from the private one work too."""
    need(MEASURE, KERNEL, INITRD)
    phases = ("enter-initrd:leave-initrd", "shutdown", "sysinit")
    with Tmp() as tmp, Swtpm(tmp) as tpm:
        key, pub = ec(tmp)
        image = build(tmp, "--pcr-private-key", key, "--pcr-public-key", pub,
                      "--phases", "sysinit enter-initrd::leave-initrd", "--phases", "shutdown,sysinit")
        check_policies(image, pub, ("sha256",), phases)
        oracle = json.loads(measure_sign_current(tpm, image, ("sha256",), key, pub, phases))
        ours = json.loads(section(image, ".pcrsig"))
        assert [(e["pol"], e["pkfp"]) for e in ours["sha256"]] == [(e["pol"], e["pkfp"]) for e in oracle["sha256"]]
        point = openssl("pkey", "-pubin", "-in", pub, "-outform", "DER")[-65:]   # SPKI ends with the point
        assert ours["sha256"][0]["pkfp"] == hashlib.sha256(point).hexdigest(), "pkfp: SHA-256 of the point"
        key384, pub384 = ec(tmp, "ec384", "P-384")
        image = build(tmp, "--pcr-private-key", key384, out="uki384.efi")
        check_policies(image, pub384, ("sha256",), DEFAULT_PHASES)


def rename_section(data, old, new):
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    nsec, optsize = struct.unpack_from("<HH", data, pe + 6)[0], struct.unpack_from("<H", data, pe + 20)[0]
    out = bytearray(data)
    for i in range(nsec):
        o = pe + 24 + optsize + 40 * i
        if out[o:o + 8].rstrip(b"\0") == old.encode():
            out[o:o + 8] = new.encode().ljust(8, b"\0")
            return bytes(out)
    raise AssertionError(f"no {old} section")


@test
def inspect_pcrs_is_systemd_measure_calculate():
    """inspect --pcrs --json on a UKI whose .uname and .sbat are renamed away
    (systemd-measure 252 knows neither) equals systemd-measure calculate on
    its section files, in all four banks; the text output's lines too. On the
    image as built, every phase's value is measured.py's."""
    need(MEASURE, KERNEL, INITRD)
    with Tmp() as tmp:
        key, pub = rsa(tmp)
        image = build(tmp, "--pcr-private-key", key, "--splash", make_bmp(tmp))
        data = open(image, "rb").read()
        r = ok(h("inspect", "--pcrs", "--json", image))
        got = json.loads(r.stdout)
        assert got == {"sha256": [{"phase": p, "pcr": 11,
                                   "hash": measured.phase_pcr11(measured.uki_pcr11(data), p).hex()}
                                  for p in DEFAULT_PHASES]}, got
        bare = rename_section(rename_section(data, ".uname", ".xuname"), ".sbat", ".xsbat")
        open(os.path.join(tmp, "bare.efi"), "wb").write(bare)
        args = []
        for name in (".linux", ".osrel", ".cmdline", ".initrd", ".splash", ".pcrpkey"):
            path = os.path.join(tmp, "section" + name)
            open(path, "wb").write(section(image, name))
            args.append(f"--{name[1:]}={path}")
        oracle = subprocess.run([MEASURE, "calculate", "--json=short", *args], capture_output=True, text=True)
        assert oracle.returncode == 0, oracle.stderr
        r = ok(h("inspect", "--pcrs", "--json", "--pcr-banks", "sha512 sha384,sha1", "--pcr-banks", "sha256",
                 os.path.join(tmp, "bare.efi")))
        assert json.loads(r.stdout) == json.loads(oracle.stdout), (r.stdout, oracle.stdout)
        text = subprocess.run([MEASURE, "calculate", "--bank=sha256", *args], capture_output=True, text=True)
        r = ok(h("inspect", "--pcrs", os.path.join(tmp, "bare.efi")))
        lines = r.stdout.decode().splitlines()
        assert [l for l in lines if not l.startswith("#")][1:] == text.stdout.splitlines(), (lines, text.stdout)


def make_bmp(tmp):
    path = os.path.join(tmp, "splash.bmp")
    pixels = b"\xff\x00\x00\x00"                                         # one blue pixel, row padded to 4
    header = struct.pack("<2sIHHI", b"BM", 14 + 40 + len(pixels), 0, 0, 14 + 40)
    info = struct.pack("<IiiHHIIiiII", 40, 1, 1, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    open(path, "wb").write(header + info + pixels)
    return path


@test
def uki_pcr_sign_key_signs_last():
    """--pcr-private-key with --sign-key/--sign-cert: sbverify accepts the
    image, so the signature covers .pcrsig; the policies are still those of
    the image's PCR 11 (the Authenticode signature is not measured)."""
    need(KERNEL, INITRD)
    with Tmp() as tmp:
        key, pub = rsa(tmp)
        sb_key = os.path.join(tmp, "db.key")
        sb_cert = os.path.join(tmp, "db.crt")
        openssl("req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=pcr-test", "-days", "1",
                "-keyout", sb_key, "-out", sb_cert)
        image = build(tmp, "--pcr-private-key", key, "--sign-key", sb_key, "--sign-cert", sb_cert)
        v = subprocess.run(["sbverify", "--cert", sb_cert, image], capture_output=True, text=True)
        assert v.returncode == 0, v.stderr or v.stdout
        check_policies(image, pub, ("sha256",), DEFAULT_PHASES)


@test
def uki_pcr_errors_name_the_file_and_write_nothing():
    """Unreadable, wrong-type, encrypted, mismatched keys, unknown banks and
    phases: one line naming the file or option, the existing output untouched."""
    need(KERNEL)
    with Tmp() as tmp:
        key, pub = rsa(tmp)
        other_key, other_pub = ec(tmp, "other")
        ed_key, _ = keypair(tmp, "ed", "-algorithm", "ED25519")
        k1_key, _ = keypair(tmp, "k1", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:secp256k1")
        enc = os.path.join(tmp, "enc.pem")
        openssl("pkey", "-in", key, "-aes256", "-passout", "pass:secret", "-out", enc)
        out = os.path.join(tmp, "out.efi")
        open(out, "wb").write(b"old output")
        before = sorted(os.listdir(tmp))
        base = ["uki", "--linux", KERNEL, "-o", out]
        cases = [
            ((1, "missing.pem"), ["--pcr-private-key", os.path.join(tmp, "missing.pem")]),
            ((1, "pub: no PEM private key"), ["--pcr-private-key", pub]),
            ((1, "rsa.pem: no PEM public key"), ["--pcr-private-key", key, "--pcr-public-key", key]),
            ((1, f"{other_pub}: not the public key of {key}"), ["--pcr-private-key", key, "--pcr-public-key",
                                                                 other_pub]),
            ((1, "ed.pem: type ED25519: PCR policies are signed with RSA or EC"), ["--pcr-private-key", ed_key]),
            ((1, "k1.pem: type EC secp256k1: PCR policies"), ["--pcr-private-key", k1_key]),
            ((1, "enc.pem: the private key is encrypted"), ["--pcr-private-key", enc]),
            ((2, "--pcr-banks: unknown PCR bank 'md5'"), ["--pcr-private-key", key, "--pcr-banks", "sha256,md5"]),
            ((2, "--phases: 'leave-initd' is not a boot phase"), ["--pcr-private-key", key,
                                                                  "--phases", "enter-initrd:leave-initd"]),
            ((2, "--phases: '::' names no boot phase"), ["--pcr-private-key", key, "--phases", "ready ::"]),
            ((2, "go with --pcr-private-key"), ["--pcr-public-key", pub]),
            ((2, "go with --pcr-private-key"), ["--phases", "ready"]),
        ]
        for (code, needle), extra in cases:
            fails(h(*base, *extra), code, needle)
            assert open(out, "rb").read() == b"old output", f"{extra}: output touched"
            assert sorted(os.listdir(tmp)) == before, f"{extra}: files left: {os.listdir(tmp)}"
        fails(h("inspect", "--pcrs", KERNEL), 1, "bzImage, not a unified kernel image")
        fails(h("inspect", "--phases", "ready", KERNEL), 2, "--pcr-banks and --phases go with --pcrs")
        fails(h("inspect", "--pcrs", "--pcr-banks", "sha3", KERNEL), 2, "unknown PCR bank 'sha3'")
