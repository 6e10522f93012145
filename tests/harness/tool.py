"""Running the project's host tool, build/handoff, to make what a test
boots. A failure is the tool's (it is under test too): AssertionError with
what it said."""
import os
import subprocess
import struct

from . import paths


def handoff(*args, check=True, env=None):
    """build/handoff ARGS (@env: variables added to the environment, e.g.
    HANDOFF_CONF_DIR); the completed process (text)."""
    r = subprocess.run([paths.root_path(paths.TOOL), *args], capture_output=True, text=True,
                       env=dict(os.environ, **env) if env else None)
    if check and r.returncode != 0:
        raise AssertionError("handoff %s failed (exit %d): %s"
                             % (args[0], r.returncode, (r.stderr or r.stdout).strip()[-2000:]))
    return r


def uki(out, linux=paths.KERNEL, initrd=None, cmdline=None, os_release=None, stub=paths.STUB, sign=None, extra=()):
    """`handoff uki`: @linux with the optional .initrd, .cmdline and .osrel
    (@os_release: its text); @stub None takes the tool's default stub; @sign:
    (key, certificate) to sign it with; @extra: more options. Returns @out."""
    args = ["uki", "--linux", paths.root_path(linux), "-o", out]
    if initrd:
        args += ["--initrd", paths.root_path(initrd)]
    if cmdline is not None:
        args += ["--cmdline", cmdline]
    if os_release:
        args += ["--os-release", "@" + os_release]
    if stub:
        args += ["--stub", paths.root_path(stub)]
    if sign:
        args += ["--sign-key", sign[0], "--sign-cert", sign[1]]
    handoff(*args, *extra)
    return out


def addon(out, cmdline, sign=None, extra=()):
    """`handoff addon`: an addon with @cmdline; @sign: (key, certificate). Returns @out."""
    args = ["addon", "--cmdline", cmdline, "-o", out]
    if sign:
        args += ["--sign-key", sign[0], "--sign-cert", sign[1]]
    handoff(*args, *extra)
    return out


def add_section(src, out, name, data, tmp):
    """@src (a PE image) with one more section @name holding @data, placed
    after its last one (objcopy), written to @out. Returns @out."""
    img = open(src, "rb").read()
    pe = struct.unpack_from("<I", img, 0x3C)[0]
    base = struct.unpack_from("<Q", img, pe + 24 + 24)[0]       # PE32+ ImageBase
    size_of_image = struct.unpack_from("<I", img, pe + 24 + 56)[0]
    blob = os.path.join(tmp, name.strip(".") + ".bin")
    with open(blob, "wb") as f:
        f.write(data)
    subprocess.run(["objcopy", "--add-section", f"{name}={blob}", "--change-section-vma",
                    f"{name}={base + size_of_image:#x}", "--set-section-flags", f"{name}=data,readonly", src, out],
                   check=True)
    return out
