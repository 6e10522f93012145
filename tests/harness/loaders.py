"""The other loaders the tests and the benchmark boot beside handoff, from
Debian's packages: systemd-boot and its stub, shim, and standalone GRUB
images (grub-mkstandalone) with their configuration built in."""
import os

from . import host

SDBOOT = "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"
SDSTUB = "/usr/lib/systemd/boot/efi/linuxx64.efi.stub"
SHIM = "/usr/lib/shim/shimx64.efi"
PACKAGES = {SDBOOT: "systemd-boot-efi", SDSTUB: "systemd-boot-efi", SHIM: "shim-unsigned"}
GRUB_PACKAGES = {"x86_64-efi": "grub-efi-amd64-bin", "i386-efi": "grub-efi-ia32-bin"}


def need(path):
    """@path, one of the loaders above; HarnessError naming its package when missing."""
    return host.need_file(path, PACKAGES[path])


def grub_standalone(out, cfg, target="x86_64-efi", modules="", install_modules=None):
    """A standalone GRUB image @out for @target (x86_64-efi, i386-efi) whose
    built-in grub.cfg is @cfg (text), preloading @modules (space-separated
    names); @install_modules limits the modules it carries (default: all).
    Returns @out."""
    moddir = "/usr/lib/grub/" + target
    host.need_tool("grub-mkstandalone", "grub-common")
    if not os.path.isdir(moddir):
        raise host.HarnessError("%s missing: install the Debian package '%s' (scripts/deps.sh)"
                                % (moddir, GRUB_PACKAGES[target]))
    cfg_path = out + ".cfg"
    with open(cfg_path, "w") as f:
        f.write(cfg)
    cmd = ["grub-mkstandalone", "-O", target, "-d", moddir, "-o", out, "--modules=" + modules,
           "--locales=", "--fonts=", "--themes="]
    if install_modules:
        cmd.append("--install-modules=" + install_modules)
    host.run(cmd + ["boot/grub/grub.cfg=" + cfg_path])
    return out
