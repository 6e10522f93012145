"""Your own Secure Boot keys (issue 31), as a user sets them up: `handoff
install` on the ESP, `handoff keys create` (PK, KEK, db and their .auth files,
HANDOFF_CONF_DIR standing for /etc/handoff) and `handoff keys enroll` (the
.auth files in \\loader\\keys\\auto, secure-boot-enroll in loader.conf, the
loader and the UKIs signed with the db key); then the loader enrolls them
(loader.conf(5) secure-boot-enroll, as systemd-boot) in a machine in Setup
Mode: Debian's Secure Boot OVMF (SMM) with Debian's empty variable store,
OVMF_VARS_4M.fd.

The ESP holds the loader, a UKI (both signed by `keys enroll`) and a Type #1
entry of Debian's kernel without its signature. QEMU is a virtual machine,
so "if-safe" enrolls by itself: a countdown, then db, KEK and PK and a reset
(-no-reboot: QEMU exits). The next boot, with that variable store: Secure
Boot is on (Linux reads SecureBoot 1, SetupMode 0, and PK, KEK and db are the
owner's lists), the unsigned kernel is refused with its reason, the signed UKI
boots and its kernel is locked down. A key during the countdown leaves the
machine in Setup Mode with the menu; "off" never enrolls; "manual" offers
systemd-boot's entry; a malformed file writes nothing.
"""
import hashlib
import os
import re
import shutil
import subprocess

from harness import case, esp, firmware, qemu, tool, varstore
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, LOADER32, STUB, TOOL, root_path

TIMEOUT = 300
MENU = r"handoff [0-9.]+ boot menu"
COUNTDOWN = r"Enrolling Secure Boot keys from \\loader\\keys\\auto in (\d+) s, any key aborts"
UNSIGNED = "console=ttyS0 handoff.marker=keys-unsigned panic=-1"
UKI = "console=ttyS0 handoff.marker=keys-uki panic=-1"
ENTRY_ID = "secure-boot-keys-auto"
VARS = ("PK", "KEK", "db")


def esl(auth):
    """What an .auth file sets: the data after its EFI_VARIABLE_AUTHENTICATION_2
    (16 bytes of EFI_TIME, then WIN_CERTIFICATE.dwLength bytes)."""
    return auth[16 + int.from_bytes(auth[16:20], "little"):]


def staged_esp(mode, conf="timeout menu-force\n", mangle=None, edit_mode=None, arch="x64"):
    """The ESP as `handoff install`, the user's loader.conf (@conf), a UKI and
    an entry of the unsigned kernel (first in the menu), then `handoff keys
    create` and `handoff keys enroll --mode @mode` leave it, the .auth files
    in loader/keys/auto (checked); @mangle: {staged file: function of its
    bytes}; @edit_mode: the secure-boot-enroll line then changed by hand to
    this (`keys enroll --mode off` stages nothing); @arch: the loader
    installed (x64, ia32). Returns (the FAT image,
    {PK|KEK|db: the .auth file's bytes})."""
    wd = case.workdir()
    conf_dir, tree = os.path.join(wd, "conf"), os.path.join(wd, "esp")
    for d in (conf_dir, tree):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(tree)
    env = {"HANDOFF_CONF_DIR": conf_dir, "HANDOFF_EFIVARS_DIR": os.path.join(wd, "no-efivars")}
    tool.handoff("install", "--esp", tree, "--arch", arch, "--loader", root_path(LOADER if arch == "x64" else LOADER32),
                 env=env)
    unsigned = os.path.join(tree, "debian", "vmlinuz")
    esp.write(tree, {"EFI/Linux/": None, "debian/vmlinuz": KERNEL, "debian/initrd.img": INITRD,
                     "loader/loader.conf": conf.encode(),
                     "loader/entries/unsigned.conf": entry("Unsigned", UNSIGNED, sort_key="a").encode()})
    subprocess.run(["sbattach", "--remove", unsigned], check=True, capture_output=True)
    tool.uki(os.path.join(tree, "EFI/Linux/signed.efi"), KERNEL, INITRD, UKI, 'PRETTY_NAME="Signed UKI"', stub=None)
    tool.handoff("keys", "create", env=env)
    tool.handoff("keys", "enroll", "--esp", tree, "--mode", mode, env=env)
    staged = os.path.join(tree, "loader/keys/auto")
    qemu.expect(sorted(os.listdir(staged)) == ["KEK.auth", "PK.auth", "db.auth"], "keys enroll staged PK, KEK, db")
    if edit_mode:
        conf_path = os.path.join(tree, "loader/loader.conf")
        text = open(conf_path).read()
        qemu.expect("secure-boot-enroll %s\n" % mode in text, "keys enroll set secure-boot-enroll %s" % mode)
        with open(conf_path, "w") as f:
            f.write(text.replace("secure-boot-enroll %s\n" % mode, "secure-boot-enroll %s\n" % edit_mode))
    for name, fn in (mangle or {}).items():
        path = os.path.join(staged, name)
        data = fn(open(path, "rb").read())
        with open(path, "wb") as f:
            f.write(data)
    auth = {v: open(os.path.join(conf_dir, "keys", v + ".auth"), "rb").read() for v in VARS}
    return esp.image(tree), auth


def setup_mode_boot(img, name, keys=(), vars_file=None, stop_on=None):
    """A boot of Secure Boot OVMF with Debian's empty variable store (Setup Mode), or @vars_file."""
    return qemu.run_qemu(img, TIMEOUT, name=name, keys=keys, secure_boot=True, stop_on=stop_on,
                         vars_file=vars_file or firmware.ovmf("x64")[1])


# A boot that should enroll and reset ends at once when the menu shows a problem instead.
FAILED = r"Problems: "


def loader_entries(init):
    """LoaderEntries as Linux read it: the ids, in menu order."""
    raw = bytes.fromhex((init.get("bli_hex") or {}).get("LoaderEntries", ""))
    return [e for e in raw.decode("utf-16-le").split("\0") if e]


def stored(vars_path):
    """PK, KEK and db as the variable store @vars_path holds them (their data; None when absent)."""
    v = varstore.variables(vars_path)
    return {n: v.get((n, varstore.IMAGE_SECURITY if n == "db" else varstore.GLOBAL), (0, None))[1] for n in VARS}


def expect_setup_mode_untouched(res, init):
    """Linux saw Setup Mode, Secure Boot off, and no PK, KEK or db."""
    qemu.expect_eq(init.get("setupmode"), "1", "SetupMode", res)
    qemu.expect_eq(init.get("secureboot"), "0", "SecureBoot", res)
    qemu.expect_eq(init.get("sb_db"), {"PK": "", "KEK": "", "db": ""}, "PK, KEK and db are not there", res)


def expect_countdown(res, start):
    """The countdown, every second from @start down to 1, on one line (\\r between)."""
    seen = [int(n) for n in re.findall(COUNTDOWN, res.serial_text)]
    qemu.expect_eq(seen, list(range(start, 0, -1)), "the countdown's seconds", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_keys_enrolled_then_secure_boot():
    """if-safe in a virtual machine with the default countdown (15 s): the
    loader enrolls and resets; the next boot runs under Secure Boot with the
    owner's keys: the unsigned kernel is refused, the signed UKI boots locked down."""
    img, k = staged_esp("if-safe")
    res = setup_mode_boot(img, "enroll", stop_on=FAILED)
    expect_countdown(res, 15)
    qemu.expect(res.time_of(r"Secure Boot keys enrolled") is not None, "the loader says it enrolled the keys", res)
    qemu.expect(not res.timed_out and res.time_of(r"Linux version") is None,
                "the machine reset after enrolling (QEMU -no-reboot exits), before any kernel ran", res)
    vars_file = os.path.join(res.run_dir, "OVMF_VARS.fd")
    qemu.expect_eq(stored(vars_file), {v: esl(k[v]) for v in VARS}, "the variable store: the owner's PK, KEK, db", res)
    keys = [(MENU, b"1"), (r"Problems: [\s\S]*refused", b"2", 0.5)]
    res2 = setup_mode_boot(img, "secure-boot", keys, vars_file=vars_file)
    qemu.expect_eq(res2.keys_pending, [], "the menu came back after the refusal", res2)
    qemu.expect(res2.time_of(r"/debian/vmlinuz: refused.*not signed, and its hash is not in db") is not None,
                "the unsigned kernel is refused, with its reason", res2)
    init = qemu.expect_linux_saw(res2, UKI)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res2)
    qemu.expect_eq(init.get("setupmode"), "0", "Linux's SetupMode variable (User Mode)", res2)
    qemu.expect_eq(init.get("sb_db"), {v: hashlib.sha256(esl(k[v])).hexdigest() for v in VARS},
                   "PK, KEK and db hold the owner's signature lists", res2)
    qemu.expect_eq(init.get("lockdown"), "integrity", "the UKI's kernel is locked down", res2)
    qemu.expect_eq(init.get("bp_secure_boot"), 3, "boot_params.secure_boot: enabled", res2)
    qemu.expect(ENTRY_ID not in loader_entries(init), "no enrollment entry in User Mode", res2)
    starts = [t for t, line in res2.lines if "Linux version" in line]
    qemu.expect(len(starts) == 1 and starts[0] > res2.time_of(r"/debian/vmlinuz: refused"),
                "Linux started once, after the refusal", res2)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_keys_countdown_aborted_leaves_setup_mode():
    """A key during the countdown: nothing is enrolled, the menu comes (with
    systemd-boot's entry for the key set) and the default entry boots in Setup Mode."""
    img, _ = staged_esp("if-safe", "timeout 0\nsecure-boot-enroll-timeout-sec 5\n")
    res = setup_mode_boot(img, "abort", [(COUNTDOWN, b"x"), (MENU, b"\r")])
    qemu.expect_eq(res.keys_pending, [], "the countdown, then the menu", res)
    qemu.expect(res.time_of(r"\\loader\\keys\\auto: enrollment aborted") is not None, "the loader says so", res)
    qemu.expect(res.time_of(r"Enroll Secure Boot keys: auto") is not None, "the menu offers the key set", res)
    init = qemu.expect_linux_saw(res, UNSIGNED)
    expect_setup_mode_untouched(res, init)
    qemu.expect_eq(stored(os.path.join(res.run_dir, "OVMF_VARS.fd")), dict.fromkeys(VARS),
                   "the variable store holds no PK, KEK or db", res)
    qemu.expect_eq(loader_entries(init)[-1], ENTRY_ID, "LoaderEntries ends with the key set's id", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_keys_off_never_enrolls():
    """secure-boot-enroll off beside staged keys (`keys enroll`, then the line
    changed to off): no countdown, no entry, the default boots, Setup Mode stays."""
    img, _ = staged_esp("force", "timeout 0\n", edit_mode="off")
    res = setup_mode_boot(img, "off")
    init = qemu.expect_linux_saw(res, UNSIGNED)
    qemu.expect(res.time_of(r"Enrolling|Enroll Secure Boot keys") is None, "nothing about enrolling", res)
    expect_setup_mode_untouched(res, init)
    qemu.expect(ENTRY_ID not in loader_entries(init), "no entry for the key set", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_keys_manual_entry_enrolls():
    """secure-boot-enroll manual: no countdown before the menu; the entry
    "Enroll Secure Boot keys: auto" (after the others) enrolls on Enter after
    its countdown, then resets; the variable store holds the owner's lists."""
    img, k = staged_esp("manual", "timeout menu-force\nauto-firmware no\nsecure-boot-enroll-timeout-sec 2\n")
    res = setup_mode_boot(img, "manual", [(r"> Unsigned[\s\S]*Signed UKI[\s\S]*Enroll Secure Boot keys: auto", b"3")],
                          stop_on=FAILED)
    qemu.expect_eq(res.keys_pending, [], "the menu offered the key set third", res)
    menu, countdown = res.time_of(MENU), res.time_of(r"Enrolling Secure Boot keys from")
    qemu.expect(menu is not None and countdown is not None and countdown > menu,
                "the countdown comes only after the entry was chosen", res)
    expect_countdown(res, 2)
    qemu.expect(res.time_of(r"Secure Boot keys enrolled") is not None and res.time_of(r"Linux version") is None,
                "enrolled, then the reset", res)
    qemu.expect_eq(stored(os.path.join(res.run_dir, "OVMF_VARS.fd")), {v: esl(k[v]) for v in VARS},
                   "the variable store: the owner's PK, KEK, db", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_keys_bad_file_writes_nothing():
    """A PK.auth whose EFI_TIME has a Nanosecond: refused by name before
    anything is written (db and KEK were fine), the menu with the reason, and
    Linux finds Setup Mode, no db, no KEK."""
    bad = {"PK.auth": lambda b: b[:8] + b"\x01" + b[9:]}
    img, _ = staged_esp("force", "timeout 0\nsecure-boot-enroll-timeout-sec 1\n", mangle=bad)
    res = setup_mode_boot(img, "bad", [(r"Problems: [\s\S]*PK\.auth", b"\r", 0.5)])
    qemu.expect(res.time_of(r"\\loader\\keys\\auto\\PK\.auth: byte 8: not a valid EFI_VARIABLE_AUTHENTICATION_2")
                is not None, "the file and the byte are named", res)
    init = qemu.expect_linux_saw(res, UNSIGNED)
    expect_setup_mode_untouched(res, init)
    qemu.expect_eq(stored(os.path.join(res.run_dir, "OVMF_VARS.fd")), dict.fromkeys(VARS),
                   "the variable store holds no PK, KEK or db", res)


@case.needs(TOOL, STUB, LOADER32, KERNEL, INITRD)
def test_keys_ia32_enrolls():
    """handoffia32.efi on 32-bit firmware (Debian's OVMF32, its Secure Boot
    build, with its empty variable store): force enrolls after the countdown
    and resets; the store holds the owner's PK, KEK and db."""
    img, k = staged_esp("force", "timeout 0\nsecure-boot-enroll-timeout-sec 2\n", arch="ia32")
    res = qemu.run_qemu(img, TIMEOUT, name="ia32", ia32=True, stop_on=FAILED)
    expect_countdown(res, 2)
    qemu.expect(res.time_of(r"Secure Boot keys enrolled") is not None and res.time_of(r"Linux version") is None,
                "enrolled, then the reset", res)
    qemu.expect_eq(stored(os.path.join(res.run_dir, "OVMF_VARS.fd")), {v: esl(k[v]) for v in VARS},
                   "the variable store: the owner's PK, KEK, db", res)
