"""The editor locked by loader.conf's editor-password (README "Configuration").

The line is written by `handoff set-editor-password` itself (the password on
its standard input), so the loader checks what the tool wrote; Linux's
HANDOFF-INIT report says which command line it got.
"""
import os
import re
import subprocess

from harness import case, esp, qemu
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, TOOL, root_path

TIMEOUT = 240
PASSWORD = b"open sesame 42!"
MENU = r"Enter boot, e edit"


def locked_tree(options, loader_conf, iterations=None):
    """An ESP with one entry and @loader_conf, then the password line by the tool."""
    tree = esp.loader_tree({"m.conf": entry("Locked", options)}, loader_conf)
    args = [root_path(TOOL), "set-editor-password", "--esp", tree]
    if iterations:
        args += ["--iterations", str(iterations)]
    r = subprocess.run(args, input=PASSWORD + b"\n", capture_output=True, timeout=120)
    assert r.returncode == 0, "set-editor-password: %s" % r.stderr.decode(errors="replace")
    with open(os.path.join(tree, "loader", "loader.conf")) as f:
        assert "editor-password pbkdf2-sha256:" in f.read(), "the tool wrote the line"
    return tree


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_editor_password_refuses_a_wrong_one_and_opens_with_the_right_one():
    """'e' asks for the password: Esc goes back to the menu; a wrong one is
    refused with a wait that doubles (1 s, then 2 s) and the editor stays
    shut; the right one opens it, and the edited line is what Linux gets."""
    options = "console=ttyS0 handoff.marker=locked-editor panic=-1"
    # 20,000 rounds: the tool's default, 1,000,000, takes the loader 8-9 s per
    # try under TCG (three tries here); the rounds are the line's own field.
    tree = locked_tree(options, "timeout 20\neditor yes\n", iterations=20000)
    res = qemu.run_qemu(esp.image(tree), TIMEOUT, keys=[
        (r"Boot in \d+ s", b"e"),
        (r"Password: ", b"\x1b"),
        (MENU, b"e"),
        (r"Password: ", b"open sesame 41!\r"),
        (r"Wrong password, wait 1 s\.[\s\S]*" + MENU, b"e"),
        (r"Password: ", b"Open sesame 42!\r"),
        (r"Wrong password, wait 2 s\.[\s\S]*" + MENU, b"e"),
        (r"Password: ", PASSWORD + b"\r"),
        (r"options: .*locked-editor", b" handoff.edited=yes\r", 0.3),
    ])
    qemu.expect_eq(res.keys_pending, [], "every key sent: the prompts and refusals came as expected", res)
    text = res.serial_text
    wrong = [m.start() for m in re.finditer(r"Wrong password", text)]
    first_editor = text.find("options: ")
    qemu.expect_eq(len(wrong), 2, "two refusals", res)
    qemu.expect(first_editor > wrong[-1], "the editor opened only after the right password", res)
    qemu.expect_linux_saw(res, options + " handoff.edited=yes")


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_editor_password_malformed_keeps_the_editor_shut():
    """Fail closed: an editor-password line the loader cannot read leaves the
    editor shut (no password can open it), named with its file and line
    under the menu; the entry still boots as written."""
    options = "console=ttyS0 handoff.marker=sealed-editor panic=-1"
    tree = esp.loader_tree({"m.conf": entry("Sealed", options)},
                           "timeout 20\neditor yes\neditor-password pbkdf2-sha256:1000:00ff:00\n")
    res = qemu.run_qemu(esp.image(tree), TIMEOUT, keys=[
        (r"Boot in \d+ s", b"e"),
        (r"Up/Down select", b"\r", 1.0),
    ])
    qemu.expect_eq(res.keys_pending, [], "menu keys sent", res)
    qemu.expect(re.search(r"loader\\loader\.conf:3: editor-password is not pbkdf2-sha256", res.serial_text),
                "the malformed line named with file and line", res)
    qemu.expect("Enter boot, e edit" not in res.serial_text, "no 'e edit' in the menu's keys", res)
    qemu.expect("Enter boot, Esc exit" in res.serial_text, "the menu's keys without it", res)
    qemu.expect("Password:" not in res.serial_text and "options: " not in res.serial_text,
                "'e' neither asks for a password nor opens the editor", res)
    qemu.expect_linux_saw(res, options)
