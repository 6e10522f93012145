"""Secure Boot on the ESP without shim: install and update sign the loader
with the keys of handoff.conf (sbsign), take the shipped FILE.signed when it
is there, and never replace a signed loader with an unsigned one; with
layout=uki the kernel hooks (entry add --kernel-version) write one signed
UKI per kernel, counted with /etc/kernel/tries. Signatures are checked with
sbverify against the test's own certificate and with struct over the PE
certificate table (common.read_pe), never with the tool under test."""
import os
import shutil
import struct
import subprocess

import common as t
from cmd_system import KV, System

LINUX_DIR = "EFI/Linux"


def make_keys(tmp, name="db"):
    """A key and its certificate (CN=handoff test @name) in @tmp/@name.{key,crt}."""
    key, cert = os.path.join(tmp, name + ".key"), os.path.join(tmp, name + ".crt")
    subprocess.run(["openssl", "req", "-new", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-subj", "/CN=handoff test %s/" % name, "-days", "30"], check=True, capture_output=True)
    return key, cert


def esp_and_conf(tmp):
    """@tmp/esp (made) and @tmp/conf (for HANDOFF_CONF_DIR)."""
    esp = os.path.join(tmp, "esp")
    os.makedirs(esp)
    return esp, os.path.join(tmp, "conf")


def conf(d, **kv):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "handoff.conf"), "w") as f:
        f.write("# test\n" + "".join("%s=%s\n" % (k.replace("_", "-"), v) for k, v in kv.items()))


def signed_by(path, cert):
    """sbverify accepts @path's signature against @cert, and the table holds a PKCS signature."""
    r = subprocess.run(["sbverify", "--cert", cert, path], capture_output=True)
    return r.returncode == 0 and t.read_pe(open(path, "rb").read())["signed"]


def is_signed(path):
    return t.read_pe(open(path, "rb").read())["signed"]


def sign(key, cert, src, out):
    subprocess.run(["sbsign", "--key", key, "--cert", cert, "--output", out, src], check=True, capture_output=True)


LOADERS = ("EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI")


@t.test
def install_and_update_sign_with_handoff_conf():
    t.need(t.LOADER)
    with t.Tmp() as tmp:
        esp, cdir = esp_and_conf(tmp)
        key, cert = make_keys(tmp)
        conf(cdir, sign_key=key, sign_cert=cert)
        env = {"HANDOFF_CONF_DIR": cdir}
        t.ok(t.h("install", "--esp", esp, "--loader", t.LOADER, env=env))
        for p in LOADERS:
            assert signed_by(os.path.join(esp, p), cert), p
        before = t.tree_state(esp)
        r = t.ok(t.h("update", "--esp", esp, "--loader", t.LOADER, env=env))
        assert t.tree_state(esp) == before and r.stdout == b"", "the same loader signed again was rewritten"
        t.ok(t.h("update", "--esp", esp, "--loader", t.SDBOOT, env=env))  # "the next version"
        for p in LOADERS:
            assert signed_by(os.path.join(esp, p), cert), p
        conf(cdir, sign_key=key)
        t.fails(t.h("update", "--esp", esp, "--loader", t.LOADER, env=env), 1,
                "sign-key and sign-cert go together (sign-cert is missing)")
        conf(cdir, sign_key=key, sign_cert=cert)
        r = t.h("update", "--esp", esp, "--loader", t.LOADER, env=dict(env, PATH="/nonexistent"))
        t.fails(r, 1, "sbsign is not installed (Debian package sbsigntool)")


@t.test
def update_never_replaces_a_signed_loader_with_an_unsigned_one():
    t.need(t.LOADER)
    with t.Tmp() as tmp:
        esp, cdir = esp_and_conf(tmp)
        key, cert = make_keys(tmp)
        conf(cdir, sign_key=key, sign_cert=cert)
        env = {"HANDOFF_CONF_DIR": cdir}
        t.ok(t.h("install", "--esp", esp, "--loader", t.LOADER, env=env))
        os.unlink(os.path.join(cdir, "handoff.conf"))  # the keys forgotten
        before = t.tree_state(esp)
        for extra in ((), ("--graceful",)):
            line = t.fails(t.h("update", "--esp", esp, "--loader", t.SDBOOT, *extra, env=env), 1,
                           "is signed for Secure Boot and %s is not: not replaced" % t.SDBOOT)
            assert "set sign-key= and sign-cert= in %s/handoff.conf" % cdir in line, line
            assert t.tree_state(esp) == before
        t.fails(t.h("install", "--esp", esp, "--loader", t.SDBOOT, env=env), 1, "not replaced")
        r = t.ok(t.h("update", "--esp", esp, "--loader", t.LOADER, env=env))  # the same version: kept signed
        assert t.tree_state(esp) == before and r.stdout == b""


@t.test
def install_and_update_take_the_shipped_signed_loader():
    """FILE.signed beside the shipped loader (systemd-boot's convention) wins."""
    t.need(t.LOADER)
    with t.Tmp() as tmp:
        bindir, esp = os.path.join(tmp, "bin"), os.path.join(tmp, "esp")
        os.makedirs(bindir)
        os.makedirs(esp)
        shutil.copy(t.TOOL, bindir)
        shutil.copy(t.LOADER, os.path.join(bindir, "handoff.efi"))
        key, cert = make_keys(tmp)
        sign(key, cert, t.LOADER, os.path.join(bindir, "handoff.efi.signed"))
        tool = os.path.join(bindir, "handoff")
        env = dict(os.environ, HANDOFF_CONF_DIR=os.path.join(tmp, "conf"))
        subprocess.run([tool, "install", "--esp", esp], check=True, capture_output=True, env=env)
        for p in LOADERS:
            assert t.sha256(os.path.join(esp, p)) == t.sha256(os.path.join(bindir, "handoff.efi.signed")), p
        os.unlink(os.path.join(bindir, "handoff.efi.signed"))
        r = subprocess.run([tool, "update", "--esp", esp], capture_output=True, env=env)
        assert r.returncode == 0 and all(signed_by(os.path.join(esp, p), cert) for p in LOADERS), r.stderr


def uki_names(s):
    d = os.path.join(s.esp, LINUX_DIR)
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


def section(path, name, tmp):
    out = os.path.join(tmp, "section.bin")
    subprocess.run(["objcopy", "--dump-section", "%s=%s" % (name, out), path, os.path.join(tmp, "junk")],
                   check=True, capture_output=True)
    return open(out, "rb").read()


@t.test
def layout_uki_hooks_write_one_signed_uki_per_kernel():
    with t.Tmp() as tmp:
        s = System(tmp, tries=3)
        key, cert = make_keys(tmp)
        conf(s.conf, layout="uki", sign_key=key, sign_cert=cert)
        # what /etc/kernel/postinst.d/zz-handoff runs; MALLOC_PERTURB_ fills new memory, so text read
        # without its NUL shows (os-release once got garbage lines)
        r = t.ok(t.h("entry", "add", "--kernel-version", KV, "--boot", s.boot, "--entry-token", "tok",
                     env=dict(s.env, MALLOC_PERTURB_="165")))
        assert r.stderr == b"", r.stderr
        name = "tok-%s+3.efi" % KV
        assert uki_names(s) == [name], uki_names(s)
        uki = os.path.join(s.esp, LINUX_DIR, name)
        assert signed_by(uki, cert)
        assert section(uki, ".linux", tmp) == open(t.KERNEL, "rb").read()
        initrd = open(t.INITRD, "rb").read()
        assert section(uki, ".initrd", tmp) == initrd + b"\0" * (-len(initrd) % 4)  # each initrd 4-byte aligned
        assert section(uki, ".cmdline", tmp).rstrip(b"\0") == b"root=UUID=1234 ro quiet"
        osrel = "/etc/os-release" if os.path.exists("/etc/os-release") else "/usr/lib/os-release"
        assert section(uki, ".osrel", tmp).rstrip(b"\0") == open(osrel, "rb").read().rstrip(b"\0"), "os-release"
        assert s.entries("esp") == [] and s.entries("boot") == []
        before = t.tree_state(s.esp)
        t.ok(s.add())
        assert t.tree_state(s.esp) == before, "the same kernel again rewrote its UKI"
        os.rename(uki, uki.replace("+3.efi", "+2-1.efi"))  # one boot
        t.ok(s.add())
        assert uki_names(s) == ["tok-%s+2-1.efi" % KV], "the same UKI again reset its counter"
        with open(os.path.join(s.boot, "initrd.img-" + KV), "ab") as f:  # update-initramfs: a new initrd
            f.write(b"\0" * 4)
        t.ok(s.h("entry", "add", "--kernel-version", KV, "--boot", s.boot, "--entry-token", "tok",
                 "--initrd", os.path.join(s.boot, "initrd.img-" + KV)))  # the initramfs hook
        assert uki_names(s) == [name], uki_names(s)
        assert section(os.path.join(s.esp, LINUX_DIR, name), ".initrd", tmp).endswith(b"\0" * 4)
        t.ok(s.h("entry", "remove", "--kernel-version", KV, "--boot", s.boot, "--entry-token", "tok"))
        assert uki_names(s) == []


@t.test
def layout_uki_from_install_conf_replaces_the_type1_entry():
    with t.Tmp() as tmp:
        s = System(tmp)
        t.ok(s.add("--in-place", "no"))
        assert s.entries("esp") == ["tok-%s.conf" % KV]
        s.write(s.kconf, "install.conf", "layout=uki\n")  # kernel-install's setting, no keys: unsigned
        t.ok(s.add())
        assert uki_names(s) == ["tok-%s.efi" % KV] and s.entries("esp") == [], (uki_names(s), s.entries("esp"))
        assert not os.path.exists(os.path.join(s.esp, "tok")), "the Type #1 entry's copies stayed"
        assert not is_signed(os.path.join(s.esp, LINUX_DIR, "tok-%s.efi" % KV))
        listed = t.ok(s.h("entry", "list")).stdout.decode()
        assert "tok-%s" % KV in listed, listed
        conf(s.conf, layout="uki", sign_key="relative.key", sign_cert="/x.crt")
        t.fails(s.add(), 1, "handoff.conf:3: sign-key 'relative.key': give an absolute path")


def graft_signature(signed, target, out):
    """@target with the certificate table of @signed appended: a valid signature, of another image."""
    s, d = open(signed, "rb").read(), bytearray(open(target, "rb").read())
    entry = lambda b: struct.unpack_from("<I", b, 0x3c)[0] + 24 + 112 + 4 * 8  # PE32+ data directory 4
    off, size = struct.unpack_from("<II", s, entry(s))
    d += b"\0" * (-len(d) % 8)
    struct.pack_into("<II", d, entry(d), len(d), size)
    with open(out, "wb") as f:
        f.write(bytes(d) + s[off:off + size])
    assert t.read_pe(open(out, "rb").read())["signed"]


def shipped(tmp, signed_src):
    """A tool beside handoff.efi (the build's loader) and handoff.efi.signed (@signed_src)."""
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    shutil.copy(t.TOOL, bindir)
    shutil.copy(t.LOADER, os.path.join(bindir, "handoff.efi"))
    shutil.copy(signed_src, os.path.join(bindir, "handoff.efi.signed"))
    return os.path.join(bindir, "handoff")


def run(tool, *args, env):
    return subprocess.run([tool, *args], capture_output=True, env=dict(os.environ, **env))


@t.test
def the_owners_key_wins_over_a_distributions_signed_loader():
    """sign-key= set: a shipped FILE.signed by another key (a distribution's) is not what the owner's db trusts."""
    t.need(t.LOADER)
    with t.Tmp() as tmp:
        esp, cdir = esp_and_conf(tmp)
        dkey, dcert = make_keys(tmp, "distribution")
        okey, ocert = make_keys(tmp, "owner")
        sign(dkey, dcert, t.LOADER, os.path.join(tmp, "distro.efi"))
        tool = shipped(tmp, os.path.join(tmp, "distro.efi"))
        conf(cdir, sign_key=okey, sign_cert=ocert)
        r = run(tool, "install", "--esp", esp, env={"HANDOFF_CONF_DIR": cdir})
        assert r.returncode == 0, r.stderr
        for p in LOADERS:
            assert signed_by(os.path.join(esp, p), ocert) and not signed_by(os.path.join(esp, p), dcert), p
        assert b"handoff.efi.signed: signed by handoff test distribution, not by sign-cert=" in r.stderr, r.stderr
        r = run(tool, "update", "--esp", esp, env={"HANDOFF_CONF_DIR": cdir})
        assert r.returncode == 0 and all(signed_by(os.path.join(esp, p), ocert) for p in LOADERS), r.stderr


@t.test
def update_signs_again_a_loader_signed_by_a_rotated_out_key():
    t.need(t.LOADER)
    with t.Tmp() as tmp:
        esp, cdir = esp_and_conf(tmp)
        old_key, old_cert = make_keys(tmp, "old")
        new_key, new_cert = make_keys(tmp, "new")
        env = {"HANDOFF_CONF_DIR": cdir}
        conf(cdir, sign_key=old_key, sign_cert=old_cert)
        t.ok(t.h("install", "--esp", esp, "--loader", t.LOADER, env=env))
        conf(cdir, sign_key=new_key, sign_cert=new_cert)  # the owner's key rotated
        r = t.ok(t.h("update", "--esp", esp, "--loader", t.LOADER, env=env))
        for p in LOADERS:
            assert signed_by(os.path.join(esp, p), new_cert) and not signed_by(os.path.join(esp, p), old_cert), p
            assert ("updated %s" % os.path.join(esp, p)).encode() in r.stdout, r.stdout
        before = t.tree_state(esp)
        t.ok(t.h("update", "--esp", esp, "--loader", t.LOADER, env=env))
        assert t.tree_state(esp) == before, "signed by the current key: kept"


@t.test
def a_signature_of_another_image_is_no_signature():
    """No keys configured: a shipped .signed whose table signs another image is not used, and an
    installed loader with such a table is replaced like an unsigned one."""
    t.need(t.LOADER, t.SDBOOT)
    with t.Tmp() as tmp:
        esp, cdir = esp_and_conf(tmp)
        key, cert = make_keys(tmp)
        sign(key, cert, t.SDBOOT, os.path.join(tmp, "sd.signed"))
        graft_signature(os.path.join(tmp, "sd.signed"), t.LOADER, os.path.join(tmp, "grafted.efi"))
        tool = shipped(tmp, os.path.join(tmp, "grafted.efi"))
        r = run(tool, "install", "--esp", esp, env={"HANDOFF_CONF_DIR": cdir})
        assert r.returncode == 0, r.stderr
        for p in LOADERS:
            assert t.sha256(os.path.join(esp, p)) == t.sha256(t.LOADER), "the grafted signature was taken: " + p
        assert b"handoff.efi.signed: its signature does not verify" in r.stderr, r.stderr
        shutil.copy(os.path.join(tmp, "grafted.efi"), os.path.join(esp, LOADERS[0]))
        shutil.copy(os.path.join(tmp, "grafted.efi"), os.path.join(esp, LOADERS[1]))
        t.ok(t.h("update", "--esp", esp, "--loader", t.SDBOOT, env={"HANDOFF_CONF_DIR": cdir}))
        for p in LOADERS:
            assert t.sha256(os.path.join(esp, p)) == t.sha256(t.SDBOOT), p


def run_postinst(s, tool_dir):
    """pkg/debian/kernel-postinst as Debian's kernel packages run it: VERSION IMAGE, handoff in PATH."""
    hook = os.path.join(t.ROOT, "pkg/debian/kernel-postinst")
    env = dict(os.environ, PATH=tool_dir + ":/usr/bin:/bin", **s.env)
    env.pop("HANDOFF_LOG", None)
    return subprocess.run(["sh", hook, KV, os.path.join(s.boot, "vmlinuz-" + KV)], capture_output=True, env=env)


@t.test
def kernel_hook_signs_again_a_uki_signed_by_a_rotated_out_key():
    with t.Tmp() as tmp:
        s = System(tmp, tries=3)
        tool_dir = os.path.join(tmp, "bin")
        os.makedirs(tool_dir)
        os.symlink(t.TOOL, os.path.join(tool_dir, "handoff"))
        old_key, old_cert = make_keys(tmp, "old")
        new_key, new_cert = make_keys(tmp, "new")
        conf(s.conf, layout="uki", sign_key=old_key, sign_cert=old_cert)
        r = run_postinst(s, tool_dir)
        assert r.returncode == 0, r.stderr
        names = uki_names(s)  # the entry token is this machine's (/etc/machine-id)
        assert len(names) == 1 and names[0].endswith("-%s+3.efi" % KV), names
        name = names[0]
        assert signed_by(os.path.join(s.esp, LINUX_DIR, name), old_cert), name
        counted = name.replace("+3.efi", "+2-1.efi")
        os.rename(os.path.join(s.esp, LINUX_DIR, name), os.path.join(s.esp, LINUX_DIR, counted))  # one boot
        conf(s.conf, layout="uki", sign_key=new_key, sign_cert=new_cert)
        r = run_postinst(s, tool_dir)
        assert r.returncode == 0, r.stderr
        uki = os.path.join(s.esp, LINUX_DIR, counted)
        assert uki_names(s) == [counted], "the boot counter was reset: %r" % uki_names(s)
        assert signed_by(uki, new_cert) and not signed_by(uki, old_cert), "still signed by the old key"
        before = t.tree_state(s.esp)
        assert run_postinst(s, tool_dir).returncode == 0
        assert t.tree_state(s.esp) == before, "signed by the current key: kept"


# sbsign as the tool runs it, recording where its input and output are and that
# directory's mode, then the real one (found further down $PATH).
SBSIGN_SPY = """#!/bin/sh
out= in=
while [ $# -gt 0 ]; do
    case "$1" in --key|--cert) shift ;; --output) out=$2; shift ;; *) in=$1 ;; esac
    shift
done
printf '%s\\n%s\\n%s\\n' "$in" "$out" "$(stat -c %a "$(dirname "$in")")" > "$SPY_LOG"
exec /usr/bin/sbsign "$@" --key "$SPY_KEY" --cert "$SPY_CERT" --output "$out" "$in"
"""


@t.test
def signing_happens_in_a_private_directory_not_beside_the_output():
    """handoff addon/uki --sign-key: sbsign's input and output are in a directory of mode 0700 of their own."""
    with t.Tmp() as tmp:
        key, cert = make_keys(tmp)
        spy_dir = os.path.join(tmp, "spy")
        os.makedirs(spy_dir)
        with open(os.path.join(spy_dir, "sbsign"), "w") as f:
            f.write(SBSIGN_SPY)
        os.chmod(os.path.join(spy_dir, "sbsign"), 0o755)
        out_dir = os.path.join(tmp, "shared")
        os.makedirs(out_dir)
        out, log = os.path.join(out_dir, "debug.addon.efi"), os.path.join(tmp, "spy.log")
        env = {"PATH": spy_dir + ":" + os.environ["PATH"], "SPY_LOG": log, "SPY_KEY": key, "SPY_CERT": cert}
        t.ok(t.h("addon", "--cmdline", "debug", "--sign-key", key, "--sign-cert", cert, "-o", out, env=env))
        unsigned, signed, mode = open(log).read().split("\n")[:3]
        for p in (unsigned, signed):
            assert os.path.dirname(p) != out_dir, "a temporary beside the output: " + p
            assert not os.path.exists(p), "left behind: " + p
        assert os.path.dirname(unsigned) == os.path.dirname(signed) and mode == "700", (unsigned, signed, mode)
        assert os.listdir(out_dir) == ["debug.addon.efi"] and signed_by(out, cert)


def victim_and_output(tmp):
    """Keys, a file of root's that no link must lead the signer to, and where the addon goes."""
    key, cert = make_keys(tmp)
    victim = os.path.join(tmp, "victim")
    with open(victim, "w") as f:
        f.write("root's file\n")
    return key, cert, victim, os.path.join(tmp, "debug.addon.efi")


@t.test
def signing_follows_no_link_planted_beside_the_output():
    """A link planted where the signed temporary used to be (OUT.signed-tmp) is not written through."""
    with t.Tmp() as tmp:
        key, cert, victim, out = victim_and_output(tmp)
        for tmp_name in (".signed-tmp", ".unsigned-tmp"):
            os.symlink(victim, out + tmp_name)
        t.ok(t.h("addon", "--cmdline", "debug", "--sign-key", key, "--sign-cert", cert, "-o", out))
        assert open(victim, "rb").read() == b"root's file\n", "the signer wrote through a planted link"
        assert not os.path.islink(out) and signed_by(out, cert)


@t.test
def signing_refuses_a_link_at_the_output():
    with t.Tmp() as tmp:
        key, cert, victim, out = victim_and_output(tmp)
        os.symlink(victim, out)
        for sign_args in ((), ("--sign-key", key, "--sign-cert", cert)):
            t.fails(t.h("addon", "--cmdline", "debug", *sign_args, "-o", out), 1,
                    "%s: is a symbolic link: not written (name the file itself)" % out)
            assert os.path.islink(out) and open(victim, "rb").read() == b"root's file\n"


@t.test
def signing_with_a_key_others_can_read_warns():
    with t.Tmp() as tmp:
        key, cert = make_keys(tmp)
        out = os.path.join(tmp, "debug.addon.efi")
        for mode, who in ((0o644, "every user"), (0o640, "its group")):
            os.chmod(key, mode)
            r = t.ok(t.h("addon", "--cmdline", "debug", "--sign-key", key, "--sign-cert", cert, "-o", out))
            want = "handoff: addon: warning: %s: the private key is readable by %s (mode %04o): chmod 600 it" % (
                key, who, mode)
            assert r.stderr.decode().splitlines() == [want], r.stderr
            assert signed_by(out, cert)
        os.chmod(key, 0o600)
        assert t.ok(t.h("addon", "--cmdline", "debug", "--sign-key", key, "--sign-cert", cert, "-o", out)).stderr == b""
