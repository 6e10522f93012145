"""The menu on any screen (README "Configuration": console-mode; "The menu on
large screens"): on a 3840x2160 framebuffer the loader draws the menu, the
editor and the problems under the menu itself, its 8x16 font scaled 3x, while
the serial console gets the same text; console-mode and the 'r'/'R' keys set
the firmware's text mode as systemd-boot does, kept in LoaderConfigConsoleMode.

The pictures are QEMU's own (QMP screendump); text is found in them by the
glyphs of the build's font (build/gen/font8x16.h, from console-setup's
Uni2-Fixed16) drawn at 1x to 4x, pixel for pixel, and its height measured in
the picture."""
import os
import re
import tempfile

from harness import case, esp, firmware, qemu, qmp, varstore
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, root_path

TIMEOUT = 300
MODE_TIMEOUT = 120  # the console-mode boots draw nothing themselves
FOUR_K = ["-vga", "none", "-device", "VGA,xres=3840,yres=2160,vgamem_mb=64"]
LOADER_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
# OVMF's own setting of the GOP resolution (OvmfPkg PlatformDxe: two UINT32s,
# width and height, in this non-volatile variable), which its video driver
# takes at the next start; QEMU's xres/yres only say what the display offers.
PLATFORM_CONFIG = ("PlatformConfig", "7235c51c-0c80-4cab-87ac-3b084a6304b1")
FONT = root_path("build/gen/font8x16.h")
MIN_GLYPH_PX = 24


def font():
    rows = [[int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", line)]
            for line in open(FONT) if line.startswith("\t")]
    assert len(rows) == 95 and all(len(r) == 16 for r in rows), "%s: 95 glyphs of 16 rows" % FONT
    return rows


def template(text, scale):
    """Rows of bytes (1: ink) of @text in the font at @scale."""
    glyphs = font()
    out = []
    for y in range(16 * scale):
        row = bytearray()
        for c in text:
            bits = glyphs[ord(c) - 0x20][y // scale]
            for x in range(8 * scale):
                row.append(bits >> (7 - x // scale) & 1)
        out.append(bytes(row))
    return out


class Picture:
    def __init__(self, path):
        self.w, self.h, px = qmp.read_ppm(path)
        n = self.w * self.h
        ink = (int.from_bytes(px[0::3], "big") | int.from_bytes(px[1::3], "big")
               | int.from_bytes(px[2::3], "big")).to_bytes(n, "big")
        self.mask = ink.translate(bytes([0] + [1] * 255))  # 1: not black

    def find(self, text):
        """(x, y, scale, ink height in the picture) where @text is drawn light on
        black at some scale, exactly to the pixel; None if nowhere."""
        for scale in (4, 3, 2, 1):
            t = template(text, scale)
            first = next(i for i, r in enumerate(t) if 1 in r)
            at = self.mask.find(t[first])
            while at >= 0:
                x, y = at % self.w, at // self.w - first
                if x + len(t[0]) <= self.w and 0 <= y and y + len(t) <= self.h and all(
                        self.mask[(y + k) * self.w + x:(y + k) * self.w + x + len(t[0])] == t[k]
                        for k in range(len(t))):
                    inked = [k for k in range(len(t))
                             if 1 in self.mask[(y + k) * self.w + x:(y + k) * self.w + x + len(t[0])]]
                    return x, y, scale, inked[-1] - inked[0] + 1
                at = self.mask.find(t[first], at + 1)
        return None


def four_k_vars():
    """A copy of OVMF's variable store that asks for 3840x2160."""
    out = os.path.join(case.workdir(), "OVMF_VARS-4k.fd")
    return varstore.with_variables(firmware.ovmf("x64")[1], out, {
        PLATFORM_CONFIG: (0x3, (3840).to_bytes(4, "little") + (2160).to_bytes(4, "little"))})


def qmp_socket():
    """A path for QMP's socket short enough for a Unix socket (108 bytes)."""
    return os.path.join(tempfile.mkdtemp(prefix="handoff-qmp-"), "qmp.sock")


def shot(sock, out):
    return lambda: qmp.screendump(sock, out)


def expect_drawn_large(res, path, texts):
    """Each of @texts is in the picture at @path, at least MIN_GLYPH_PX high."""
    qemu.expect(os.path.isfile(path), "QEMU wrote the screendump %s" % path, res)
    pic = Picture(path)
    qemu.expect_eq((pic.w, pic.h), (3840, 2160), "the framebuffer's size", res)
    for text in texts:
        found = pic.find(text)
        qemu.expect(found is not None, "%r drawn in %s (the build's font, any scale)" % (text, path), res)
        case.note("%s: %r at %s, scale %d, %d px of ink" % (os.path.basename(path), text, found[:2], found[2],
                                                             found[3]))
        qemu.expect(found[3] >= MIN_GLYPH_PX, "%r is %d px high, want >= %d" % (text, found[3], MIN_GLYPH_PX),
                    res)


@case.needs(LOADER, KERNEL, INITRD)
def test_console_menu_on_a_4k_screen_is_drawn_large():
    """The menu on 3840x2160: its title and keys in the picture in glyphs of
    at least 24 px (3x: 33 px of ink for "handoff"), the same lines on the
    serial console, and Enter boots the entry."""
    options = "console=ttyS0 handoff.marker=four-k panic=-1"
    tree = esp.loader_tree({"a.conf": entry("Debian GNU/Linux", options)}, "timeout 30\n")
    sock = qmp_socket()
    menu_png = os.path.join(case.workdir(), "menu.ppm")
    res = qemu.run_qemu(esp.image(tree), TIMEOUT, vars_file=four_k_vars(), extra_args=FOUR_K + qmp.args(sock), keys=[
        (r"Boot in 2\d s", shot(sock, menu_png), 2.0),
        (r"Boot in \d+ s", b"\r"),
    ])
    qemu.expect_eq(res.keys_pending, [], "the menu came and the keys were sent", res)
    qemu.expect(re.search(r"handoff \S+ boot menu", res.serial_text), "the menu's title on serial", res)
    expect_drawn_large(res, menu_png, ["handoff", "boot menu", "Enter boot"])
    qemu.expect_linux_saw(res, options)


@case.needs(LOADER, KERNEL, INITRD)
def test_console_problems_and_editor_on_a_4k_screen_are_drawn_large():
    """An entry that fails (its kernel missing) brings the menu back with the
    cause under it, and 'e' opens the editor: both in the picture as large as
    the menu; Esc, Down and Enter then boot the other entry."""
    options = "console=ttyS0 handoff.marker=four-k-good panic=-1"
    tree = esp.loader_tree({"a.conf": entry("Broken", "console=ttyS0 broken=1", linux="/nothing/here", sort_key="a"),
                            "b.conf": entry("Good", options, sort_key="b")}, "timeout 1\neditor yes\n")
    sock = qmp_socket()
    problems_png = os.path.join(case.workdir(), "problems.ppm")
    editor_png = os.path.join(case.workdir(), "editor.ppm")
    res = qemu.run_qemu(esp.image(tree), TIMEOUT, vars_file=four_k_vars(), extra_args=FOUR_K + qmp.args(sock), keys=[
        (r"Problems: .*nothing", shot(sock, problems_png), 2.0),
        (r"", b"e"),
        (r"options: console=ttyS0 broken=1", shot(sock, editor_png), 2.0),
        (r"", b"\x1b"),
        (r"Up/Down select", b"\x1b[B"),
        (r"Up/Down select", b"\r"),
    ])
    qemu.expect_eq(res.keys_pending, [], "the problem, the editor and the menu came, the keys were sent", res)
    expect_drawn_large(res, problems_png, ["Problems:", "nothing"])
    expect_drawn_large(res, editor_png, ["options: console=ttyS0 broken=1"])
    qemu.expect_linux_saw(res, options)


def console_mode_var(res):
    v = varstore.variables(os.path.join(res.run_dir, "OVMF_VARS.fd")).get(("LoaderConfigConsoleMode", LOADER_GUID))
    return v and v[1].decode("utf-16-le")


def mode_after_r(res):
    modes = re.findall(r"Console mode (\d+)\.", res.serial_text)
    qemu.expect(modes, "'r' said which mode it set", res)
    return modes[0]


@case.needs(LOADER, KERNEL, INITRD)
def test_console_mode_r_is_kept_and_R_resets():
    """console-mode 0; 'r' goes to the next mode the firmware offers (OVMF:
    not 1, 80x50 does not fit its screen) and LoaderConfigConsoleMode keeps
    it (systemd's decimal UTF-16 string); the next boot starts in that mode,
    so its 'r' goes on to another one, and 'R' goes back to loader.conf's 0
    and deletes the variable."""
    options = "console=ttyS0 handoff.marker=console-mode panic=-1"
    img = esp.image(esp.loader_tree({"a.conf": entry("Debian", options)}, "timeout 30\nconsole-mode 0\n"))
    res = qemu.run_qemu(img, MODE_TIMEOUT, name="1-r", keys=[
        (r"Boot in \d+ s", b"r"),
        (r"Console mode [1-9]\d*\.", b"\r"),
    ])
    qemu.expect_eq(res.keys_pending, [], "'r' left mode 0", res)
    qemu.expect_linux_saw(res, options)
    first = mode_after_r(res)
    qemu.expect_eq(console_mode_var(res), first + "\0", "LoaderConfigConsoleMode after 'r'", res)
    res = qemu.run_qemu(img, MODE_TIMEOUT, name="2-kept", vars_file=os.path.join(res.run_dir, "OVMF_VARS.fd"), keys=[
        (r"Boot in \d+ s", b"r"),
        (r"Console mode \d+\.", b"R"),
        (r"Console mode 0\.", b"\r"),
    ])
    qemu.expect_eq(res.keys_pending, [], "'r', then 'R' back to mode 0", res)
    qemu.expect(mode_after_r(res) != first,
                "the second boot started in mode %s: its 'r' went on from there" % first, res)
    qemu.expect_linux_saw(res, options)
    qemu.expect_eq(console_mode_var(res), None, "LoaderConfigConsoleMode deleted by 'R'", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_console_mode_max_takes_the_last_mode():
    """console-mode max sets the firmware's highest mode: 'r' from there wraps
    around to mode 0, and LoaderConfigConsoleMode keeps that."""
    options = "console=ttyS0 handoff.marker=console-max panic=-1"
    img = esp.image(esp.loader_tree({"a.conf": entry("Debian", options)}, "timeout 30\nconsole-mode max\n"))
    res = qemu.run_qemu(img, MODE_TIMEOUT, keys=[
        (r"Boot in \d+ s", b"r"),
        (r"Console mode 0\.", b"\r"),
    ])
    qemu.expect_eq(res.keys_pending, [], "'r' wrapped around to mode 0", res)
    qemu.expect_linux_saw(res, options)
    qemu.expect_eq(console_mode_var(res), "0\0", "LoaderConfigConsoleMode after 'r'", res)
