"""Self-tests of the boot harness that do not need handoff.

They boot Debian's kernel + the test initramfs through known-good loaders
(systemd-boot, OVMF's own -kernel path) and check the HANDOFF-INIT report,
so a failure here means the harness/environment is broken, not handoff.
"""
import os
import shutil

import qemu

SDBOOT = "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"
KERNEL = "build/boot-cache/vmlinuz"
INITRD = "build/boot-cache/initramfs.cpio.gz"
TIMEOUT = 240  # TCG boots take ~15-25 s on an idle core; leave room for a loaded CI


def expected_sha():
    with open(qemu.root_path(INITRD + ".sha256")) as f:
        return f.read().split()[0]


def check_init(res, options, marker):
    """The common assertions on a HANDOFF-INIT report."""
    init = qemu.expect_init(res)
    cmdline = init.get("cmdline", "")
    qemu.expect_in("handoff.marker=" + marker, cmdline.split(), "marker in cmdline", res)
    qemu.expect_in(options, cmdline, "options in cmdline", res)
    qemu.expect_eq(init.get("efi"), True, "efi", res)
    qemu.expect(isinstance(init.get("efivars"), int) and init["efivars"] > 0,
                "efivars: expected > 0, got %r" % init.get("efivars"), res)
    qemu.expect_eq(init.get("payload_sha256"), expected_sha(), "payload_sha256", res)
    qemu.note("HANDOFF-INIT at %.1fs, qemu done at %.1fs" % (res.init_time, res.duration))
    return init


def sdboot_esp(entries, loader_conf):
    """ESP tree with systemd-boot as the fallback loader, kernel and initrd.

    entries: {"name.conf": text}. Returns the tree's directory.
    """
    if not os.path.isfile(SDBOOT):
        raise qemu.HarnessError("%s missing: install the Debian package 'systemd-boot-efi'"
                                % SDBOOT)
    tree = os.path.join(qemu.workdir(), "esp")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "EFI", "BOOT"))
    os.makedirs(os.path.join(tree, "loader", "entries"))
    shutil.copyfile(SDBOOT, os.path.join(tree, "EFI", "BOOT", "BOOTX64.EFI"))
    shutil.copyfile(qemu.root_path(KERNEL), os.path.join(tree, "vmlinuz"))
    shutil.copyfile(qemu.root_path(INITRD), os.path.join(tree, "initramfs.cpio.gz"))
    with open(os.path.join(tree, "loader", "loader.conf"), "w") as f:
        f.write(loader_conf)
    for name, text in entries.items():
        with open(os.path.join(tree, "loader", "entries", name), "w") as f:
            f.write(text)
    return tree


def entry(title, options):
    return ("title %s\nlinux /vmlinuz\ninitrd /initramfs.cpio.gz\noptions %s\n"
            % (title, options))


@qemu.needs(KERNEL, INITRD)
def test_sdboot_entry():
    """systemd-boot as \\EFI\\BOOT\\BOOTX64.EFI on a bare FAT image, timeout 0."""
    options = "console=ttyS0 handoff.marker=sdboot-1 panic=-1"
    tree = sdboot_esp({"sdboot-1.conf": entry("Harness sdboot-1", options)},
                      "timeout 0\ndefault sdboot-1.conf\n")
    img = qemu.make_esp(tree, os.path.join(qemu.workdir(), "esp.img"))
    res = qemu.run_qemu(img, TIMEOUT)
    init = check_init(res, options, "sdboot-1")
    qemu.expect(init.get("fb", "") != "", "fb: expected a framebuffer (GOP via EFI stub), got ''",
                res)
    qemu.expect_eq(res.exit_code, 0, "qemu exit code (poweroff)", res)


@qemu.needs(KERNEL, INITRD)
def test_qemu_direct_kernel():
    """QEMU -kernel/-initrd/-append through OVMF, no disk; exits via isa-debug-exit."""
    options = "console=ttyS0 handoff.marker=direct-1 panic=-1 handoff.debug_exit=3"
    res = qemu.run_qemu(None, TIMEOUT, kernel=qemu.root_path(KERNEL),
                        initrd=qemu.root_path(INITRD), append=options)
    check_init(res, options, "direct-1")
    qemu.expect_eq(res.debug_exit, 3, "isa-debug-exit value (qemu exit %s)" % res.exit_code, res)


@qemu.needs(KERNEL, INITRD)
def test_sdboot_menu_keys_gpt():
    """Drive systemd-boot's menu over serial (ESC [ B, then CR) on a GPT disk.

    systemd-boot lists these two entries as "top" then "lower" (it sorts file
    names in reverse); "top" is the default, so booting "lower" proves the
    arrow key moved the selection and Enter started it.
    """
    opt_top = "console=ttyS0 handoff.marker=menu-top panic=-1"
    opt_low = "console=ttyS0 handoff.marker=menu-lower panic=-1"
    tree = sdboot_esp({"b-top.conf": entry("Harness top entry", opt_top),
                       "a-lower.conf": entry("Harness lower entry", opt_low)},
                      "timeout 30\ndefault b-top.conf\n")
    esp = qemu.make_esp(tree, os.path.join(qemu.workdir(), "esp.img"))
    disk = qemu.wrap_gpt(esp, os.path.join(qemu.workdir(), "disk.img"))
    res = qemu.run_qemu(disk, 120, keys=[
        (r"Harness lower entry", b"\x1b[B"),     # menu drawn: move down
        (r"Harness lower entry", b"\r", 0.5),    # redrawn highlighted: boot it
    ])
    qemu.expect_eq(res.keys_pending, [], "menu keys not all sent", res)
    check_init(res, opt_low, "menu-lower")
