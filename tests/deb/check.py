#!/usr/bin/python3
"""The Debian package (make deb, scripts/mkdeb.sh), checked without
installing it: control fields, the exact file list with owners and modes,
conffiles, the maintainer scripts, hooks and the generator parse as sh and
pass shellcheck, each hook hands every value to handoff as one argument (a
stand-in handoff records its argv), the boot-counting units are ordered as
systemd's, handoff.conf sets nothing, the binaries are the build's, and
lintian reports no error and no warning. What the package does once installed is `make
system-test` (tests/system/run.py)."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VERSION = open(os.path.join(ROOT, "VERSION")).read().strip()
DEB = os.path.join(ROOT, "build", "handoff_%s_amd64.deb" % VERSION)
HOOKS = ("etc/initramfs/post-update.d/zz-handoff", "etc/kernel/postinst.d/zz-handoff",
         "etc/kernel/postrm.d/zz-handoff")
FILES = {  # path -> mode
    "usr/bin/handoff": "-rwxr-xr-x", "usr/lib/handoff/handoffx64.efi": "-rw-r--r--",
    "usr/lib/handoff/handoff-stub.efi": "-rw-r--r--", "usr/share/man/man1/handoff.1.gz": "-rw-r--r--",
    "usr/share/doc/handoff/copyright": "-rw-r--r--", "usr/share/doc/handoff/changelog.gz": "-rw-r--r--",
    "usr/lib/kernel/install.d/90-handoff.install": "-rwxr-xr-x",
    "etc/handoff/handoff.conf": "-rw-r--r--", "usr/share/lintian/overrides/handoff": "-rw-r--r--",
    "lib/systemd/system/handoff-bless-boot.service": "-rw-r--r--",
    "lib/systemd/system/handoff-boot-check-no-failures.service": "-rw-r--r--",
    "lib/systemd/system-generators/handoff-bless-boot-generator": "-rwxr-xr-x",
}
GENERATOR = "lib/systemd/system-generators/handoff-bless-boot-generator"
LOADER_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
FILES.update({h: "-rwxr-xr-x" for h in HOOKS})
for _efi in ("handoffia32.efi", "handoffaa64.efi", "handoff-stubaa64.efi"):
    if os.path.exists(os.path.join(ROOT, "build", _efi)):
        FILES["usr/lib/handoff/" + _efi] = "-rw-r--r--"

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + name + ("" if ok or not detail else "\n    " + str(detail)[:1500]),
          flush=True)
    passed, failed = passed + bool(ok), failed + (not ok)


def out(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# A stand-in for /usr/bin/handoff: its arguments, NUL-terminated, to $ARGV_OUT.
FAKE_HANDOFF = '#!/bin/sh\nfor a do printf "%s\\0" "$a"; done > "$ARGV_OUT"\n'
# Values with blanks and glob characters, run where the globs would match.
TOKEN, VERSION_ODD, IMAGE, INITRDS = "tok en*", "6.1.0-9 x", "/b o/vmlinuz-*", ("/b o/initrd one", "*")


def hook_argv(script, args, env_extra):
    """What @script (run by /bin/sh with @args) passed to handoff: a list, or None when it did not run it."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "bin"))
        fake = os.path.join(tmp, "bin", "handoff")
        with open(fake, "w") as f:
            f.write(FAKE_HANDOFF)
        os.chmod(fake, 0o755)
        for name in ("tok", "en", "a", "b"):  # for a glob to match, were one expanded
            open(os.path.join(tmp, name + "x"), "w").close()
        argv_out = os.path.join(tmp, "argv")
        env = dict(os.environ, PATH=os.path.join(tmp, "bin") + ":/usr/bin:/bin", ARGV_OUT=argv_out, **env_extra)
        r = subprocess.run(["sh", script, *args], cwd=tmp, env=env, capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(argv_out):
            return None
        return joined(open(argv_out).read().split("\0")[:-1])


def joined(argv):
    """@argv with "--key value" spelled "--key=value" (both are one option to getopt_long)."""
    out = []
    for a in argv:
        if out and out[-1] in ("--kernel-version", "--linux", "--initrd", "--entry-token"):
            out[-1] += "=" + a
        else:
            out.append(a)
    return out


def check_hooks(tmp):
    """Each hook quotes what it passes on (issue 21: the plugin's entry token was split and globbed).
    The initramfs hook acts only for a kernel in the real /boot: shellcheck alone checks it."""
    plugin = os.path.join(tmp, "usr/lib/kernel/install.d/90-handoff.install")
    postinst, postrm = (os.path.join(tmp, "etc/kernel/%s.d/zz-handoff" % d) for d in ("postinst", "postrm"))
    k = "--kernel-version=" + VERSION_ODD
    cases = [
        ("kernel-install add", plugin, ["add", VERSION_ODD, "/efi/x", IMAGE, *INITRDS],
         {"KERNEL_INSTALL_ENTRY_TOKEN": TOKEN},
         ["entry", "add", k, "--linux=" + IMAGE, "--entry-token=" + TOKEN] + ["--initrd=" + i for i in INITRDS]),
        ("kernel-install add, no token, no initrd", plugin, ["add", VERSION_ODD, "/efi/x", IMAGE], {},
         ["entry", "add", k, "--linux=" + IMAGE]),
        ("kernel-install remove", plugin, ["remove", VERSION_ODD, "/efi/x"], {"KERNEL_INSTALL_ENTRY_TOKEN": TOKEN},
         ["entry", "remove", k, "--entry-token=" + TOKEN]),
        ("kernel-install add, bls layout (systemd's plugin writes it)", plugin, ["add", VERSION_ODD, "/e", IMAGE],
         {"KERNEL_INSTALL_LAYOUT": "bls"}, None),
        ("postinst.d", postinst, [VERSION_ODD, IMAGE], {}, ["entry", "add", k, "--linux=" + IMAGE]),
        ("postrm.d", postrm, [VERSION_ODD, IMAGE], {}, ["entry", "remove", k]),
    ]
    for name, script, args, env, want in cases:
        got = hook_argv(script, args, env)
        check("hook %s: handoff gets %r" % (name, want), got == want, got)
    lint = out("shellcheck", "-s", "sh", plugin, *(os.path.join(tmp, h) for h in HOOKS))
    check("shellcheck finds nothing in the hooks", lint.returncode == 0, lint.stdout[-1500:])


def unit(path):
    """{key: [values]} of a unit file's [Unit] and [Service] sections."""
    keys = {}
    for line in open(path).read().splitlines():
        if "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            keys.setdefault(k, []).append(v)
    return keys


def check_units(tmp):
    """Ordered as Debian 12's systemd-bless-boot.service and systemd-boot-check-no-failures.service,
    only on a counted boot (the generator decides, check_generator())."""
    counted = "/sys/firmware/efi/efivars/LoaderBootCountPath-" + LOADER_GUID
    bless = unit(os.path.join(tmp, "lib/systemd/system/handoff-bless-boot.service"))
    check("handoff-bless-boot.service: after boot-complete.target (required), runs handoff bless, only when "
          "counted",
          bless.get("Requires") == ["boot-complete.target"] and
          bless.get("After") == ["local-fs.target boot-complete.target"] and
          bless.get("DefaultDependencies") == ["no"] and bless.get("ExecStart") == ["/usr/bin/handoff bless"] and
          bless.get("ConditionPathExists") == [counted], bless)
    chk = unit(os.path.join(tmp, "lib/systemd/system/handoff-boot-check-no-failures.service"))
    check("handoff-boot-check-no-failures.service: after the default target, before boot-complete.target",
          chk.get("After") == ["default.target graphical.target multi-user.target"] and
          "boot-complete.target" in chk.get("Before", []) and chk.get("ConditionPathExists") == [counted] and
          chk.get("ExecStart") == ["/usr/bin/handoff bless --check-no-failures"], chk)
    check_generator(tmp)


# What systemd-boot's package installs (path -> contents; "#!" makes it executable), and what the
# generator links on a counted boot.
SYSTEMD_BOOT = {"usr/lib/systemd/systemd-bless-boot": "#!/bin/sh\n",
                "usr/lib/systemd/system-generators/systemd-bless-boot-generator": "#!/bin/sh\n",
                "usr/lib/systemd/system/systemd-bless-boot.service": "[Unit]\n"}
OURS = {"basic.target.wants/handoff-bless-boot.service": "/lib/systemd/system/handoff-bless-boot.service",
        "boot-complete.target.requires/handoff-boot-check-no-failures.service":
        "/lib/systemd/system/handoff-boot-check-no-failures.service"}


def fake_root(root, pkg, files, links):
    """A merged-/usr root (as Debian 12's) with sh, mkdir and ln and their libraries, the package's
    generator, @files (path -> contents) and @links (path -> target)."""
    for d in ("bin", "lib", "lib64", "sbin"):
        os.makedirs(os.path.join(root, "usr", d))
        os.symlink("usr/" + d, os.path.join(root, d))
    for prog in ("sh", "mkdir", "ln"):
        real = os.path.realpath("/bin/" + prog)
        shutil.copy(real, os.path.join(root, "usr/bin", prog))
        for lib in (w for l in out("ldd", real).stdout.splitlines() for w in l.split() if w.startswith("/")):
            os.makedirs(os.path.dirname(root + lib), exist_ok=True)
            shutil.copy(lib, root + lib)
    # /dev/null as an empty file (a device needs privileges): existing and empty, as the generator tests it
    files = dict(files, **{"usr/" + GENERATOR: open(os.path.join(pkg, GENERATOR)).read(), "dev/null": ""})
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
        os.chmod(os.path.join(root, path), 0o755 if text.startswith("#!") else 0o644)
    for path, target in links.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        os.symlink(target, os.path.join(root, path))


def run_generator(pkg, files, links, counted=True, initrd=False):
    """The generator as systemd runs it (three directories, a clean environment), in a chroot of a
    fake tree: {path: target} of the links it made (relative to the normal directory), or its error."""
    files = dict(files)
    if counted:
        files["sys/firmware/efi/efivars/LoaderBootCountPath-" + LOADER_GUID] = "\x06\0\0\0"
    if initrd:
        files["etc/initrd-release"] = "NAME=initrd\n"
    gen = ["/run/systemd/generator", "/run/systemd/generator.early", "/run/systemd/generator.late"]
    with tempfile.TemporaryDirectory() as root:
        fake_root(root, pkg, files, links)
        for d in gen:
            os.makedirs(root + d)
        chroot = [shutil.which("chroot") or "/usr/sbin/chroot"]
        if os.geteuid() != 0:  # a user namespace in which chroot() is allowed
            chroot[:0] = [shutil.which("unshare") or "/usr/bin/unshare", "--user", "--map-root-user"]
        r = out(*chroot, root, "/" + GENERATOR, *gen,
                env={"PATH": "/usr/bin", "SYSTEMD_SCOPE": "system", "SYSTEMD_IN_INITRD": str(int(initrd))})
        if r.returncode != 0:
            return "exit %d: %s" % (r.returncode, r.stderr)
        made = {}
        for d in gen:
            for dirpath, _dirs, names in os.walk(root + d):
                for n in names:
                    made[os.path.relpath(os.path.join(dirpath, n), root + gen[0])] = \
                        os.readlink(os.path.join(dirpath, n))
        return made


def check_generator(pkg):
    """Both units on a counted boot; nothing in the initrd, on an uncounted boot, or where
    systemd-bless-boot marks the boot: whenever systemd-boot's package is installed, in use or not
    (its generator pulls its static unit in on every counted boot, whoever the loader), unless the
    unit or that generator is masked."""
    sd = SYSTEMD_BOOT
    cases = [
        ("a counted boot", {}, {}, True, False, OURS),
        ("a counted boot, systemd-boot's package installed", sd, {}, True, False, {}),
        ("an uncounted boot", {}, {}, False, False, {}),
        ("the initrd", {}, {}, True, True, {}),
        ("a counted boot, systemd-bless-boot.service masked in /etc", sd,
         {"etc/systemd/system/systemd-bless-boot.service": "/dev/null"}, True, False, OURS),
        ("a counted boot, systemd-bless-boot-generator masked in /run (an empty file)",
         dict(sd, **{"run/systemd/system-generators/systemd-bless-boot-generator": ""}), {}, True, False, OURS),
        ("a counted boot, systemd-bless-boot.service overridden in /etc (not masked)",
         dict(sd, **{"etc/systemd/system/systemd-bless-boot.service": "[Unit]\n"}), {}, True, False, {}),
    ]
    for name, files, links, counted, initrd, want in cases:
        got = run_generator(pkg, files, links, counted, initrd)
        check("generator, %s: %s" % (name, "links both units" if want else "links nothing"), got == want, got)


def main():
    r = out(os.path.join(ROOT, "scripts", "mkdeb.sh"), cwd=ROOT)
    check("make deb builds %s" % os.path.relpath(DEB, ROOT), r.returncode == 0 and os.path.exists(DEB), r.stderr)
    if not os.path.exists(DEB):
        print("%d passed, %d failed" % (passed, failed))
        return 1
    fields = {f: out("dpkg-deb", "-f", DEB, f).stdout.strip()
              for f in ("Package", "Version", "Architecture", "Depends")}
    check("control: handoff %s amd64" % VERSION, (fields["Package"], fields["Version"], fields["Architecture"]) ==
          ("handoff", VERSION, "amd64"), fields)
    deps = sorted(d.strip() for d in fields["Depends"].split(","))
    check("Depends: the C library and libcrypto's package (the tool links libc and libcrypto alone)",
          len(deps) == 2 and deps[0].startswith("libc6 (>= ") and deps[1].startswith("libssl3 (>= "),
          fields["Depends"])
    listing = {}
    for line in out("dpkg-deb", "-c", DEB).stdout.splitlines():
        mode, owner, _size, _date, _time, path = line.split(None, 5)
        if not mode.startswith("d"):
            listing[path[2:]] = (mode, owner)
    check("the file list, modes and owners", listing == {p: (m, "root/root") for p, m in FILES.items()},
          sorted(set(listing.items()) ^ set((p, (m, "root/root")) for p, m in FILES.items())))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["dpkg-deb", "-R", DEB, tmp], check=True)
        conffiles = open(os.path.join(tmp, "DEBIAN/conffiles")).read().split()
        check("conffiles: the three hooks and handoff.conf in /etc",
              sorted(conffiles) == sorted("/" + h for h in HOOKS + ("etc/handoff/handoff.conf",)), conffiles)
        scripts = [os.path.join(tmp, "DEBIAN", s) for s in ("postinst", "postrm")] + \
            [os.path.join(tmp, h) for h in HOOKS + ("usr/lib/kernel/install.d/90-handoff.install", GENERATOR)]
        bad = [s for s in scripts if out("sh", "-n", s).returncode != 0]
        check("maintainer scripts and hooks parse as sh", not bad, bad)
        check_hooks(tmp)
        check_units(tmp)
        lint = out("shellcheck", "-s", "sh", *scripts[:2], os.path.join(tmp, GENERATOR))
        check("shellcheck finds nothing in postinst, postrm and the generator", lint.returncode == 0,
              lint.stdout[-1500:])
        conf = open(os.path.join(tmp, "etc/handoff/handoff.conf")).read().splitlines()
        check("handoff.conf sets nothing (every setting commented out, each documented)",
              all(not l or l.startswith("#") for l in conf) and
              all("#%s=" % k in "\n".join(conf) for k in ("layout", "sign-key", "sign-cert", "pcr-private-key",
                                                             "pcr-public-key")), conf)
        for built, packaged in (("build/handoff.efi", "usr/lib/handoff/handoffx64.efi"),
                                ("build/handoff-stub.efi", "usr/lib/handoff/handoff-stub.efi")):
            same = open(os.path.join(ROOT, built), "rb").read() == open(os.path.join(tmp, packaged), "rb").read()
            check("%s is %s" % (packaged, built), same)
        v = out(os.path.join(tmp, "usr/bin/handoff"), "--version")
        check("the packaged tool runs: handoff --version", v.stdout == "handoff %s\n" % VERSION, v.stdout + v.stderr)
        md5 = out("md5sum", "-c", os.path.join(tmp, "DEBIAN/md5sums"), cwd=tmp)
        check("md5sums match the files", md5.returncode == 0, md5.stdout + md5.stderr)
    lint = out("lintian", "--no-tag-display-limit", DEB)
    tags = [l for l in lint.stdout.splitlines() if l[:2] in ("E:", "W:")]
    check("lintian: no errors, no warnings", lint.returncode == 0 and not tags, (tags, lint.stderr[-500:]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
