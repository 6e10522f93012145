#!/usr/bin/python3
"""The Debian package (make deb, scripts/mkdeb.sh), checked without
installing it: control fields, the exact file list with owners and modes,
conffiles, the maintainer scripts and hooks parse as sh, the binaries are
the build's, and lintian reports no error and no warning. What the package
does once installed is `make system-test` (tests/system/run.py)."""
import os
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
}
FILES.update({h: "-rwxr-xr-x" for h in HOOKS})
if os.path.exists(os.path.join(ROOT, "build", "handoffia32.efi")):
    FILES["usr/lib/handoff/handoffia32.efi"] = "-rw-r--r--"

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + name + ("" if ok or not detail else "\n    " + str(detail)[:1500]),
          flush=True)
    passed, failed = passed + bool(ok), failed + (not ok)


def out(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


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
        check("conffiles: the three hooks in /etc", sorted(conffiles) == sorted("/" + h for h in HOOKS), conffiles)
        scripts = [os.path.join(tmp, "DEBIAN", s) for s in ("postinst", "postrm")] + \
            [os.path.join(tmp, h) for h in HOOKS + ("usr/lib/kernel/install.d/90-handoff.install",)]
        bad = [s for s in scripts if out("sh", "-n", s).returncode != 0]
        check("maintainer scripts and hooks parse as sh", not bad, bad)
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
