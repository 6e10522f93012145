"""handoff keys create|enroll: the owner's own Secure Boot keys. The .auth
files are compared byte for byte with what efitools (cert-to-efi-sig-list,
sign-efi-sig-list) makes from the same keys, certificates and timestamp;
Microsoft's certificates come from OVMF_VARS_4M.ms.fd's KEK and db, read by
tests/harness/varstore.py; signatures on the ESP are checked with sbverify.
Whether OVMF enrolls the files is the enroll boot test's business."""
import json
import os
import shutil
import stat
import struct
import subprocess

import common as t
from harness import varstore

MS_VARS = "/usr/share/OVMF/OVMF_VARS_4M.ms.fd"
OWN = ("PK", "KEK", "db")
SIGNER = {"PK": "PK", "KEK": "PK", "db": "KEK"}


class Keys:
    """A scratch configuration directory and an ESP with the loader installed."""

    def __init__(self, tmp, efivars=None):
        self.conf, self.esp = os.path.join(tmp, "conf"), os.path.join(tmp, "esp")
        self.keys = os.path.join(self.conf, "keys")
        os.makedirs(self.esp)
        self.env = {"HANDOFF_CONF_DIR": self.conf, "HANDOFF_EFIVARS_DIR": efivars or os.path.join(tmp, "no-efivars")}

    def h(self, *args):
        return t.h(*args, env=self.env)

    def file(self, name):
        return os.path.join(self.keys, name)

    def read(self, name):
        return open(self.file(name), "rb").read()


def auth_parts(data):
    """(timestamp text for sign-efi-sig-list -t, the signature list after the descriptor)."""
    year, month, day, hour, minute, second = struct.unpack_from("<HBBBBB", data, 0)
    length = struct.unpack_from("<I", data, 16)[0]
    return "%04d-%02d-%02d %02d:%02d:%02d" % (year, month, day, hour, minute, second), data[16 + length:]


def efitools_auth(k, var, esl, tmp):
    """sign-efi-sig-list's .auth of @esl (bytes) for @var, signed as handoff signs it, at the same time."""
    stamp, _ = auth_parts(k.read(var + ".auth"))
    esl_path, out = os.path.join(tmp, var + ".ref.esl"), os.path.join(tmp, var + ".ref.auth")
    with open(esl_path, "wb") as f:
        f.write(esl)
    signer = SIGNER[var]
    subprocess.run(["sign-efi-sig-list", "-t", stamp, "-k", k.file(signer + ".key"), "-c", k.file(signer + ".crt"),
                    var, esl_path, out], check=True, capture_output=True)
    return open(out, "rb").read()


def cert_der(pem):
    return subprocess.run(["openssl", "x509", "-in", pem, "-outform", "DER"], check=True, capture_output=True).stdout


@t.test
def keys_create_writes_what_efitools_writes():
    with t.Tmp() as tmp:
        k = Keys(tmp)
        os.makedirs(k.conf)
        with open(os.path.join(k.conf, "handoff.conf"), "w") as f:
            f.write("# mine\nlayout=uki\nsign-key=/old/db.key\n")
        r = t.ok(k.h("keys", "create"))
        assert b"made PK, KEK and db" in r.stdout, r.stdout
        assert stat.S_IMODE(os.stat(k.keys).st_mode) == 0o700
        owner = open(k.file("GUID")).read().strip()
        for var in OWN:
            assert stat.S_IMODE(os.stat(k.file(var + ".key")).st_mode) == 0o600, var
            text = subprocess.run(["openssl", "x509", "-in", k.file(var + ".crt"), "-noout", "-text"],
                                  check=True, capture_output=True).stdout.decode()
            assert "Public-Key: (2048 bit)" in text and "CA:TRUE" in text, text
            esl = os.path.join(tmp, var + ".esl")
            subprocess.run(["cert-to-efi-sig-list", "-g", owner, k.file(var + ".crt"), esl], check=True,
                           capture_output=True)
            assert k.read(var + ".auth") == efitools_auth(k, var, open(esl, "rb").read(), tmp), var
        assert open(os.path.join(k.conf, "handoff.conf")).read() == \
            "# mine\nlayout=uki\nsign-key=%s\nsign-cert=%s\n" % (k.file("db.key"), k.file("db.crt"))


@t.test
def keys_create_keeps_existing_keys_unless_forced():
    with t.Tmp() as tmp:
        k = Keys(tmp)
        t.ok(k.h("keys", "create"))
        before = t.tree_state(k.keys)
        t.fails(k.h("keys", "create"), 1, "keys exist already: --force makes new ones")
        assert t.tree_state(k.keys) == before
        t.ok(k.h("keys", "create", "--force"))
        old = [d for d in os.listdir(k.conf) if d.startswith("keys.old-")]
        assert len(old) == 1 and t.tree_state(os.path.join(k.conf, old[0])) == before, old
        assert k.read("db.crt") != open(os.path.join(k.conf, old[0], "db.crt"), "rb").read()
        assert sorted(os.listdir(k.conf)) == sorted(["handoff.conf", "keys", old[0]]), os.listdir(k.conf)
        t.fails(k.h("keys", "create", "--mode", "force"), 2, "--mode is not an option of 'keys create'")
        t.fails(k.h("keys", "frobnicate"), 2, "unknown action 'frobnicate'")


def ms_efivars(tmp):
    """efivarfs files of OVMF_VARS_4M.ms.fd's KEK and db (Debian's PK/KEK and Microsoft's certificates)."""
    t.need(MS_VARS)
    v = varstore.variables(MS_VARS)
    d = os.path.join(tmp, "efivars")
    varstore.write_efivars(d, {key: v[key] for key in (("KEK", varstore.GLOBAL), ("db", varstore.IMAGE_SECURITY))})
    return v, d


@t.test
def keys_create_microsoft_keeps_microsofts_certificates_of_kek_and_db():
    with t.Tmp() as tmp:
        v, efivars = ms_efivars(tmp)
        k = Keys(tmp, efivars)
        r = t.ok(k.h("keys", "create", "--microsoft"))
        out = r.stdout.decode()
        for line in ("keeping Microsoft's certificate in KEK: Microsoft Corporation KEK CA 2011",
                     "keeping Microsoft's certificate in db: Microsoft Windows Production PCA 2011",
                     "keeping Microsoft's certificate in db: Microsoft Corporation UEFI CA 2011"):
            assert line in out, out
        owner = open(k.file("GUID")).read().strip()
        for var, vendor in (("KEK", varstore.GLOBAL), ("db", varstore.IMAGE_SECURITY)):
            _, esl = auth_parts(k.read(var + ".auth"))
            got = varstore.signature_list(esl)
            ms = [e for e in varstore.signature_list(v[(var, vendor)][1]) if e[1] == varstore.MICROSOFT]
            assert len(ms) == (1 if var == "KEK" else 2)
            assert got == [(varstore.CERT_X509, owner, cert_der(k.file(var + ".crt")))] + ms, var
            assert k.read(var + ".auth") == efitools_auth(k, var, esl, tmp), var
        _, pk = auth_parts(k.read("PK.auth"))
        assert len(varstore.signature_list(pk)) == 1, "PK holds the owner's certificate alone"


@t.test
def keys_create_microsoft_without_microsofts_certificates_fails():
    with t.Tmp() as tmp:
        k = Keys(tmp, os.path.join(tmp, "empty-efivars"))
        os.makedirs(os.path.join(tmp, "empty-efivars"))
        t.fails(k.h("keys", "create", "--microsoft"), 1, "holds no certificate of Microsoft's")
        assert not os.path.exists(k.keys)
        bad = os.path.join(tmp, "bad-efivars")
        varstore.write_efivars(bad, {("db", varstore.IMAGE_SECURITY): (0x27, b"\x01" * 40)})
        k.env["HANDOFF_EFIVARS_DIR"] = bad
        t.fails(k.h("keys", "create", "--microsoft"), 1, "db-%s: list at 0: SignatureListSize" %
                varstore.IMAGE_SECURITY)


def signed_by(path, cert):
    return subprocess.run(["sbverify", "--cert", cert, path], capture_output=True).returncode == 0


def esp_images(esp):
    return [os.path.join(esp, p) for p in ("EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI",
                                           "EFI/Linux/mine.efi", "EFI/Linux/mine.efi.extra.d/debug.addon.efi")]


def installed(k, tmp):
    """The loader on k.esp (unsigned: no keys yet), a UKI and its addon, loader.conf with a line of the user's."""
    t.need(t.LOADER, t.KERNEL)
    t.ok(k.h("install", "--esp", k.esp, "--loader", t.LOADER))
    os.makedirs(os.path.join(k.esp, "EFI/Linux/mine.efi.extra.d"))
    t.ok(k.h("uki", "--linux", t.KERNEL, "--cmdline", "quiet", "-o", os.path.join(k.esp, "EFI/Linux/mine.efi")))
    t.ok(k.h("addon", "--cmdline", "debug", "-o", os.path.join(k.esp, "EFI/Linux/mine.efi.extra.d/debug.addon.efi")))
    with open(os.path.join(k.esp, "loader/loader.conf"), "a") as f:
        f.write("default mine*\n")


@t.test
def keys_enroll_stages_the_auth_files_and_signs_what_boots():
    with t.Tmp() as tmp:
        k = Keys(tmp)
        installed(k, tmp)
        t.fails(k.h("keys", "enroll", "--esp", k.esp), 1, "keys/PK.auth: No such file or directory")
        t.ok(k.h("keys", "create"))
        r = t.ok(k.h("keys", "enroll", "--esp", k.esp))
        out = r.stdout.decode()
        assert "next: the firmware is not in Setup Mode" in out and "keys 'auto'" in out, out
        for var in OWN:
            assert open(os.path.join(k.esp, "loader/keys/auto", var + ".auth"), "rb").read() == k.read(var + ".auth")
        conf = open(os.path.join(k.esp, "loader/loader.conf")).read()
        assert conf.endswith("default mine*\nsecure-boot-enroll if-safe\n") and "timeout 3\n" in conf, conf
        for p in esp_images(k.esp):
            assert signed_by(p, k.file("db.crt")), p
        before = t.tree_state(k.esp)
        r = t.ok(k.h("keys", "enroll", "--esp", k.esp))
        assert t.tree_state(k.esp) == before, "a second enroll rewrote the ESP"
        assert not [l for l in r.stdout.splitlines() if l.startswith((b"signed ", b"staged ", b"updated "))], r.stdout
        t.ok(k.h("keys", "enroll", "--esp", k.esp, "--mode", "force", "--name", "mine"))
        conf = open(os.path.join(k.esp, "loader/loader.conf")).read()
        assert conf.count("secure-boot-enroll") == 1 and conf.endswith("secure-boot-enroll force\n"), conf
        assert sorted(os.listdir(os.path.join(k.esp, "loader/keys"))) == ["auto", "mine"]
        t.fails(k.h("keys", "enroll", "--esp", k.esp, "--name", "../x"), 2, "--name '../x'")
        t.fails(k.h("keys", "enroll", "--esp", k.esp, "--mode", "always"), 2, "--mode 'always'")


@t.test
def keys_enroll_after_new_keys_signs_everything_again():
    with t.Tmp() as tmp:
        k = Keys(tmp)
        installed(k, tmp)
        t.ok(k.h("keys", "create"))
        t.ok(k.h("keys", "enroll", "--esp", k.esp))
        old_cert = os.path.join(tmp, "old-db.crt")
        os.rename(k.file("db.crt"), old_cert)
        os.rename(k.file("db.key"), os.path.join(tmp, "old-db.key"))
        t.ok(k.h("keys", "create", "--force"))
        r = t.ok(k.h("keys", "enroll", "--esp", k.esp))
        for p in esp_images(k.esp):
            assert signed_by(p, k.file("db.crt")) and not signed_by(p, old_cert), p
            assert ("signed %s" % p).encode() in r.stdout or "EFI/Linux" not in p, (p, r.stdout)


@t.test
def keys_enroll_needs_the_loader_and_its_signing_key():
    with t.Tmp() as tmp:
        k = Keys(tmp)
        t.ok(k.h("keys", "create"))
        t.fails(k.h("keys", "enroll", "--esp", k.esp), 1, "handoff is not installed there")
        assert not os.path.exists(os.path.join(k.esp, "loader/keys"))
        t.need(t.LOADER)
        t.ok(k.h("install", "--esp", k.esp, "--loader", t.LOADER))
        with open(os.path.join(k.conf, "handoff.conf"), "w") as f:
            f.write("sign-key=%s\nsign-cert=%s\n" % (k.file("KEK.key"), k.file("KEK.crt")))
        t.fails(k.h("keys", "enroll", "--esp", k.esp), 1, "sign-cert=%s is not in %s" % (k.file("KEK.crt"),
                                                                                      k.file("db.auth")))


@t.test
def keys_enroll_in_setup_mode_says_the_next_boot_enrolls():
    with t.Tmp() as tmp:
        efivars = os.path.join(tmp, "efivars")
        varstore.write_efivars(efivars, {("SetupMode", varstore.GLOBAL): (6, b"\x01")})
        k = Keys(tmp, efivars)
        t.need(t.LOADER)
        t.ok(k.h("install", "--esp", k.esp, "--loader", t.LOADER))
        t.ok(k.h("keys", "create"))
        out = t.ok(k.h("keys", "enroll", "--esp", k.esp, "--mode", "manual")).stdout.decode()
        assert "not in Setup Mode" not in out and "next: at the next boot in Setup Mode" in out, out
        assert "menu entry" in out, out
        out = t.ok(k.h("keys", "enroll", "--esp", k.esp, "--mode", "off")).stdout.decode()
        assert open(os.path.join(k.esp, "loader/loader.conf")).read().endswith("secure-boot-enroll off\n")


def enrolled_efivars(k, tmp, v, secure_boot=1):
    """efivarfs as firmware has it after enrolling k's .auth files: PK, KEK and db hold their lists."""
    d = os.path.join(tmp, "efivars-enrolled")
    out = {("SecureBoot", varstore.GLOBAL): (6, bytes([secure_boot])), ("SetupMode", varstore.GLOBAL): (6, b"\0"),
           ("AuditMode", varstore.GLOBAL): (6, b"\0"), ("DeployedMode", varstore.GLOBAL): (6, b"\0")}
    for var, vendor in (("PK", varstore.GLOBAL), ("KEK", varstore.GLOBAL), ("db", varstore.IMAGE_SECURITY)):
        out[(var, vendor)] = (0x27, auth_parts(k.read(var + ".auth"))[1])
    varstore.write_efivars(d, out)
    return d


@t.test
def status_shows_whose_keys_are_enrolled_and_how_images_are_signed():
    with t.Tmp() as tmp:
        v, efivars = ms_efivars(tmp)
        k = Keys(tmp, efivars)
        installed(k, tmp)
        t.ok(k.h("keys", "create", "--microsoft"))
        k.env["HANDOFF_EFIVARS_DIR"] = enrolled_efivars(k, tmp, v)
        t.ok(k.h("keys", "enroll", "--esp", k.esp))
        shutil.copy(t.SDBOOT, os.path.join(k.esp, "EFI/Linux/other.efi"))  # unsigned
        okey, ocert = os.path.join(tmp, "o.key"), os.path.join(tmp, "o.crt")
        subprocess.run(["openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", okey, "-out",
                        ocert, "-subj", "/CN=someone else/", "-days", "3"], check=True, capture_output=True)
        subprocess.run(["sbsign", "--key", okey, "--cert", ocert, "--output",
                        os.path.join(k.esp, "EFI/Linux/theirs.efi"), t.SDBOOT], check=True, capture_output=True)
        j = json.loads(t.ok(k.h("status", "--json", "--esp", k.esp)).stdout)
        assert (j["secure_boot"], j["setup_mode"], j["audit_mode"], j["deployed_mode"]) == (True, False, False, False)
        host = [e for e in j["keys"]["PK"]["entries"]]
        assert [e["kind"] for e in host] == ["yours"] and host[0]["name"].endswith(" Platform Key"), host
        assert [(e["kind"], e["name"]) for e in j["keys"]["KEK"]["entries"]][1:] == \
            [("Microsoft", "Microsoft Corporation KEK CA 2011")], j["keys"]["KEK"]
        assert [e["kind"] for e in j["keys"]["db"]["entries"]] == ["yours", "Microsoft", "Microsoft"], j["keys"]["db"]
        assert j["keys"]["db"]["entries"][0]["owner"] == open(k.file("GUID")).read().strip()
        sigs = {s["path"]: (s["state"], s["yours"]) for s in j["signatures"]}
        assert sigs == {"EFI/handoff/handoffx64.efi": ("trusted", True), "EFI/BOOT/BOOTX64.EFI": ("trusted", True),
                        "EFI/Linux/mine.efi": ("trusted", True), "EFI/Linux/other.efi": ("unsigned", False),
                        "EFI/Linux/theirs.efi": ("signed", False)}, sigs
        text = t.ok(k.h("status", "--esp", k.esp)).stdout.decode()
        for want in ("Secure Boot: enabled (user mode)", "KEK: yours (", "handoff: installed, this version",
                     "; Microsoft (Microsoft Corporation KEK CA 2011)",
                     "EFI/handoff/handoffx64.efi: signed by your db key", "EFI/Linux/other.efi: unsigned",
                     "EFI/Linux/theirs.efi: signed by someone else, no key in db: Secure Boot refuses it"):
            assert want in text, (want, text)


@t.test
def status_shows_a_malformed_key_variable_and_setup_mode():
    with t.Tmp() as tmp:
        efivars = os.path.join(tmp, "efivars")
        varstore.write_efivars(efivars, {("SecureBoot", varstore.GLOBAL): (6, b"\0"),
                                         ("SetupMode", varstore.GLOBAL): (6, b"\1"),
                                         ("db", varstore.IMAGE_SECURITY): (0x27, b"\x01" * 40)})
        k = Keys(tmp, efivars)
        r = t.ok(k.h("status", "--esp", k.esp))
        text = r.stdout.decode()
        assert "Secure Boot: disabled (setup mode)" in text and "PK: none" in text, text
        assert "db: none\n" in text and "db: list at 0: SignatureListSize 16843009 outside" in text, text
        j = json.loads(t.ok(k.h("status", "--json", "--esp", k.esp)).stdout)
        assert j["keys"]["db"]["entries"] == [] and "SignatureListSize" in j["keys"]["db"]["problem"], j["keys"]
        assert j["audit_mode"] is None and j["signatures"] == []
