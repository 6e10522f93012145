"""The checks of the system test's last two boots (tests/system/run.py):
the good kernel blessed by handoff's own unit (no systemd-boot installed),
the loader signed with handoff.conf's keys and kept signed across a package
upgrade, a downgrade without the keys refused without failing the package,
layout=uki making a signed counted UKI, and the boot under Secure Boot
(OVMF's snakeoil key in db) that the signed loader and UKI make, blessed.
What the guest saw comes from its facts; the ESP is read here with mtools,
signatures with sbverify and struct (never the tool under test)."""
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess

from harness import disk
from harness.paths import ROOT


def next_deb(deb, work):
    """The next version of the package, as an upgrade brings it: VERSION+systest1,
    its loader another image (the version in its .sbat changed, same length)."""
    version = open(os.path.join(ROOT, "VERSION")).read().strip()
    tree, out = os.path.join(work, "deb-next"), os.path.join(work, "handoff_%s+systest1_amd64.deb" % version)
    shutil.rmtree(tree, ignore_errors=True)
    subprocess.run(["dpkg-deb", "-R", deb, tree], check=True)
    loader = os.path.join(tree, "usr/lib/handoff/handoffx64.efi")
    data = open(loader, "rb").read()
    old, new = ",%s," % version, ",%s%s," % (version[:-1], "2" if version[-1] == "1" else "1")
    assert data.count(old.encode()) == 1, "the loader's .sbat line names %s once" % version
    open(loader, "wb").write(data.replace(old.encode(), new.encode()))
    ctl = os.path.join(tree, "DEBIAN/control")
    text = open(ctl).read()
    open(ctl, "w").write(re.sub(r"(?m)^Version: .*$", "Version: %s+systest1" % version, text))
    sums = os.path.join(tree, "DEBIAN/md5sums")
    md5 = hashlib.md5(open(loader, "rb").read()).hexdigest()
    lines = [("%s  %s" % (md5, l.split(None, 1)[1]) if l.endswith("usr/lib/handoff/handoffx64.efi") else l)
             for l in open(sums).read().splitlines()]
    open(sums, "w").write("\n".join(lines) + "\n")
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", tree, out], check=True, capture_output=True)
    shutil.rmtree(tree)
    return out, new.strip(",")


def loads(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def check_second(check, res, facts, token, newest):
    check("fourth boot ended by itself", not res.timed_out, res.tail())
    check("fourth boot: the good kernel booted (the bad entry sorts last)",
          facts.get("LoaderEntrySelected") == "%s-%s" % (token, newest) and facts.get("uname") == newest,
          (facts.get("LoaderEntrySelected"), facts.get("uname")))
    check("fourth boot: multi-user.target reached", facts.get("multi_user") == "active", facts.get("failed"))
    check("fourth boot: LoaderBootCountPath names the renamed good entry",
          facts.get("LoaderBootCountPath") == "\\loader\\entries\\%s-%s+2-1.conf" % (token, newest),
          facts.get("LoaderBootCountPath"))
    check("handoff-bless-boot.service marked the boot good, after handoff-boot-check-no-failures.service",
          facts.get("bless") == "good" and "ActiveState=active" in facts.get("bless-unit", "") and
          "ActiveState=active" in facts.get("check-unit", ""),
          (facts.get("bless"), facts.get("bless-unit"), facts.get("check-unit"), facts.get("failed")))
    want = sorted(["%s-%s.conf" % (token, newest), "%s-99-panic+0-2.conf" % token])
    check("on the ESP: the good entry without a counter, the bad one at +0-2",
          sorted(facts.get("esp-entries", "").split()) == want, "%s != %s" % (facts.get("esp-entries"), want))
    st = loads(facts.get("status.json", ""))
    es = st.get("entries", {}).get("entries", [])
    check("handoff status: the good entry first, the bad one last with 0 tries left",
          [(e.get("id"), e.get("tries_left")) for e in es] == [("%s-%s" % (token, newest), None),
                                                               ("%s-99-panic" % token, 0)],
          json.dumps(es)[:1500])



def check_signing(check, facts):
    """The second boot's actions: handoff update signs, the upgrade keeps it signed, a downgrade is refused."""
    check("with sign-key= and sign-cert= in handoff.conf, handoff update signed the loader (sbverify: snakeoil)",
          facts.get("sign_update_rc") == "0" and facts.get("signed_after_update") == "0 0",
          (facts.get("sign-update.log"), facts.get("signed_after_update")))
    check("the package upgraded to the next version (another loader): the new loader, signed",
          facts.get("upgrade_rc") == "0" and facts.get("signed_after_upgrade") == "0 0" and
          facts.get("loader_after_upgrade") != facts.get("loader_after_update"),
          (facts.get("upgrade.log", "")[-1500:], facts.get("signed_after_upgrade")))
    log = facts.get("downgrade.log", "")
    check("without the keys, a different loader is refused: the postinst says so, dpkg succeeds, the loader stays",
          facts.get("downgrade_rc") == "0" and "is signed for Secure Boot" in log and "was not updated" in log and
          facts.get("loader_after_downgrade") == facts.get("loader_after_upgrade"), log[-1500:])


def check_loader_on_esp(check, img, work, version_next, cert):
    """After the last boot, read here: the loader is the next version's and signed by the snakeoil key."""
    path = os.path.join(work, "BOOTX64.EFI")
    if os.path.exists(path):
        os.unlink(path)
    disk.mtools("mcopy", img, "-n", "::/EFI/BOOT/BOOTX64.EFI", path, partition=1, check=False)
    fb = open(path, "rb").read() if os.path.exists(path) else b""
    check("on the ESP: BOOTX64.EFI is the next version's loader (.sbat %s), signed (struct, sbverify)" % version_next,
          b",%s," % version_next.encode() in fb and pe_signed(fb) and sbverify(path, cert), len(fb))


def check_uki(check, facts, token, newest):
    want = "%s-%s+3.efi" % (token, newest)
    check("layout=uki: the kernel hook wrote %s (counted, /etc/kernel/tries), signed; its Type #1 entry went" % want,
          facts.get("uki_hook_rc") == "0" and facts.get("esp-ukis", "").split() == [want] and
          facts.get("uki_signed") == "0" and
          facts.get("esp-entries-uki", "").split() == ["%s-99-panic+0-2.conf" % token],
          (facts.get("uki-hook.log"), facts.get("esp-ukis"), facts.get("esp-entries-uki")))


def check_secure(check, res, facts, img, token, newest):
    check("Secure Boot boot ended by itself", not res.timed_out, res.tail())
    check("Secure Boot boot: SecureBoot is 1 and the kernel is locked down (integrity)",
          facts.get("SecureBoot") == "1" and "[integrity]" in facts.get("lockdown", ""),
          (facts.get("SecureBoot"), facts.get("lockdown")))
    check("Secure Boot boot: handoff (the signed fallback loader) booted the signed UKI of %s" % newest,
          facts.get("LoaderImageIdentifier", "").upper() == "\\EFI\\BOOT\\BOOTX64.EFI" and
          facts.get("LoaderEntrySelected") == "%s-%s.efi" % (token, newest) and facts.get("uname") == newest,
          (facts.get("LoaderImageIdentifier"), facts.get("LoaderEntrySelected"), facts.get("uname")))
    check("Secure Boot boot: LoaderBootCountPath names the UKI renamed +2-1",
          facts.get("LoaderBootCountPath") == "\\EFI\\Linux\\%s-%s+2-1.efi" % (token, newest),
          facts.get("LoaderBootCountPath"))
    check("Secure Boot boot: handoff-bless-boot.service marked it good; on the ESP the UKI lost its counter",
          facts.get("bless") == "good" and "ActiveState=active" in facts.get("bless-unit", "") and
          disk.fat_names(img, "/EFI/Linux", partition=1, check=False) == ["%s-%s.efi" % (token, newest)],
          (facts.get("bless"), facts.get("bless-unit"), disk.fat_names(img, "/EFI/Linux", partition=1, check=False)))


def pe_signed(data):
    """PE/COFF spec §4.7: a WIN_CERT_TYPE_PKCS_SIGNED_DATA entry in the certificate table."""
    if len(data) < 0x40:
        return False
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        return False
    opt = pe + 24
    dirs = opt + (112 if struct.unpack_from("<H", data, opt)[0] == 0x20b else 96)
    off, size = struct.unpack_from("<II", data, dirs + 4 * 8)
    end = off + size
    while size and off + 8 <= end <= len(data):
        length, _rev, ctype = struct.unpack_from("<IHH", data, off)
        if ctype == 2:
            return True
        if length < 8:
            break
        off += (length + 7) & ~7
    return False


def sbverify(path, cert):
    return subprocess.run(["sbverify", "--cert", cert, path], capture_output=True).returncode == 0
