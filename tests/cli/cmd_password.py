"""handoff set-editor-password: the editor-password line in ESP/loader/loader.conf,
checked against Python's own PBKDF2 (hashlib.pbkdf2_hmac, OpenSSL's), the file's
other lines and mode kept, --remove, the password read without echo from a
terminal (a pseudo-terminal here) or from standard input, and what status says."""
import hashlib
import json
import os
import pty
import re
import select
import stat
import subprocess
import time

from common import TOOL, Tmp, fails, ok, test

LINE = re.compile(r"^editor-password pbkdf2-sha256:(\d+):([0-9a-f]+):([0-9a-f]{64})\r?$")
CONF = "loader/loader.conf"


def setpw(esp, password, *args):
    return subprocess.run([TOOL, "set-editor-password", "--esp", esp, *args], input=password,
                          capture_output=True, timeout=120)


def esp_with(tmp, text, mode=0o644):
    esp = os.path.join(tmp, "esp")
    os.makedirs(os.path.join(esp, "loader"))
    path = os.path.join(esp, CONF)
    with open(path, "wb") as f:
        f.write(text)
    os.chmod(path, mode)
    return esp


def read_conf(esp):
    with open(os.path.join(esp, CONF), "rb") as f:
        return f.read()


def password_lines(text):
    return [m for m in (LINE.match(l) for l in text.decode().split("\n")) if m]


def expect_hash(m, password, iterations):
    """The written line, recomputed independently."""
    assert int(m.group(1)) == iterations, m.group(0)
    salt = bytes.fromhex(m.group(2))
    assert len(salt) == 16, m.group(2)
    want = hashlib.pbkdf2_hmac("sha256", password, salt, iterations).hex()
    assert m.group(3) == want, f"hash {m.group(3)} != PBKDF2 {want}"


@test
def set_editor_password_writes_what_pbkdf2_gives_and_keeps_the_rest():
    with Tmp() as tmp:
        before = b"# mine\r\ntimeout 5\r\neditor yes\r\ndefault deb*\r\n"
        esp = esp_with(tmp, before, 0o640)
        r = ok(setpw(esp, b"s3cret pass\n"))
        assert b"editor-password set (pbkdf2-sha256, 1000000 iterations)" in r.stdout, r.stdout
        text = read_conf(esp)
        assert text.startswith(before), text
        lines = password_lines(text)
        assert len(lines) == 1 and text.endswith(b"\r\n"), text
        expect_hash(lines[0], b"s3cret pass", 1000000)  # the default
        assert stat.S_IMODE(os.stat(os.path.join(esp, CONF)).st_mode) == 0o640
        # again, with other rounds: the one line replaced, a new salt
        ok(setpw(esp, b"other one\r\n", "--iterations", "1000"))
        again = read_conf(esp)
        assert again.startswith(before) and len(password_lines(again)) == 1, again
        expect_hash(password_lines(again)[0], b"other one", 1000)
        assert password_lines(again)[0].group(2) != lines[0].group(2), "a fresh salt"
        assert stat.S_IMODE(os.stat(os.path.join(esp, CONF)).st_mode) == 0o640


@test
def set_editor_password_replaces_every_line_at_the_first_ones_place():
    with Tmp() as tmp:
        esp = esp_with(tmp, b"timeout 3\neditor-password pbkdf2-sha256:1000:00:00\neditor yes\n"
                            b"  editor-password old\n# editor-password kept, a comment\n")
        ok(setpw(esp, b"pw\n", "--iterations", "2000"))
        lines = read_conf(esp).decode().split("\n")
        assert lines[0] == "timeout 3" and lines[2:] == ["editor yes", "# editor-password kept, a comment", ""], lines
        expect_hash(LINE.match(lines[1]), b"pw", 2000)


@test
def set_editor_password_remove_and_a_new_file():
    with Tmp() as tmp:
        esp = esp_with(tmp, b"timeout 3\neditor-password pbkdf2-sha256:1000:00:00\n", 0o600)
        r = ok(setpw(esp, b"", "--remove"))
        assert b"editor-password removed" in r.stdout, r.stdout
        assert read_conf(esp) == b"timeout 3\n"
        r = ok(setpw(esp, b"", "--remove"))
        assert b"no editor-password" in r.stdout and read_conf(esp) == b"timeout 3\n"
        bare = os.path.join(tmp, "bare")
        os.makedirs(bare)
        ok(setpw(bare, b"", "--remove"))
        assert os.listdir(bare) == [], "nothing to remove: nothing written"
        ok(setpw(bare, b"pw\n", "--iterations", "1000"))
        path = os.path.join(bare, CONF)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, "a new loader.conf holding a hash: owner only"
        expect_hash(password_lines(read_conf(bare))[0], b"pw", 1000)


@test
def set_editor_password_refuses_what_the_loader_could_not_take():
    with Tmp() as tmp:
        esp = esp_with(tmp, b"timeout 3\n")
        for pw, needle in [(b"", "no password given"), (b"\n", "empty"), (b"caf\xc3\xa9\n", "printable ASCII"),
                           (b"tab\there\n", "printable ASCII"), (b"x" * 128 + b"\n", "longer than 127"),
                           (b"x" * 500, "longer than 127")]:
            fails(setpw(esp, pw, "--iterations", "1000"), 1, needle)
        for bad in ("999", "5000001", "abc", "-5", "1e6", ""):
            fails(setpw(esp, b"pw\n", "--iterations", bad), 2, "--iterations")
        fails(setpw(esp, b"pw\n", "extra"), 2, "unexpected argument")
        assert read_conf(esp) == b"timeout 3\n", "nothing written"
        ok(setpw(esp, b"x" * 127 + b"\n", "--iterations", "1000"))  # the longest the loader takes
        r = ok(subprocess.run([TOOL, "set-editor-password", "--help"], capture_output=True))
        assert b"standard input" in r.stdout and b"without echo" in r.stdout, r.stdout


def on_terminal(esp, answers):
    """The tool on a pseudo-terminal: each answer typed after its prompt. Returns (exit, all it showed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([TOOL, "set-editor-password", "--esp", esp, "--iterations", "1000"], stdin=slave,
                         stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    shown, deadline = b"", time.monotonic() + 60
    for prompt, answer in answers:
        while prompt not in shown and time.monotonic() < deadline:
            if select.select([master], [], [], 1)[0]:
                shown += os.read(master, 4096)
        assert prompt in shown, f"no prompt {prompt!r}: {shown!r}"
        time.sleep(0.2)  # the echo is off once the prompt is out
        os.write(master, answer)
    p.wait(timeout=60)
    while select.select([master], [], [], 0.5)[0]:
        try:
            shown += os.read(master, 4096)
        except OSError:  # the other side closed
            break
    os.close(master)
    return p.returncode, shown


@test
def set_editor_password_on_a_terminal_asks_twice_without_echo():
    with Tmp() as tmp:
        esp = esp_with(tmp, b"editor yes\n")
        code, shown = on_terminal(esp, [(b"Editor password: ", b"Tty Secret 1\n"), (b"Again: ", b"Tty Secret 1\n")])
        assert code == 0, shown
        assert b"Tty Secret" not in shown, f"the password was echoed: {shown!r}"
        expect_hash(password_lines(read_conf(esp))[0], b"Tty Secret 1", 1000)
        code, shown = on_terminal(esp, [(b"Editor password: ", b"one\n"), (b"Again: ", b"two\n")])
        assert code == 1 and b"the two passwords differ" in shown, shown
        expect_hash(password_lines(read_conf(esp))[0], b"Tty Secret 1", 1000)  # unchanged


@test
def status_says_whether_the_editor_is_locked():
    with Tmp() as tmp:
        esp = esp_with(tmp, b"editor yes\n")
        env = dict(os.environ, HANDOFF_EFIVARS_DIR=os.path.join(tmp, "no-efivars"))

        def status():
            text = ok(subprocess.run([TOOL, "status", "--esp", esp], capture_output=True, env=env)).stdout.decode()
            js = json.loads(ok(subprocess.run([TOOL, "status", "--esp", esp, "--json"], capture_output=True,
                                              env=env)).stdout)["esp"]["editor"]
            return [l.strip() for l in text.split("\n") if l.strip().startswith("Editor:")], js

        assert status() == (["Editor: on, not locked (handoff set-editor-password locks it)"],
                            {"enabled": True, "locked": False, "password_malformed": False, "iterations": None})
        ok(setpw(esp, b"pw\n", "--iterations", "1234"))
        assert status() == (["Editor: locked by editor-password (pbkdf2-sha256, 1234 iterations)"],
                            {"enabled": True, "locked": True, "password_malformed": False, "iterations": 1234})
        with open(os.path.join(esp, CONF), "ab") as f:
            f.write(b"editor-password pbkdf2-sha256:1234:00:00\n")
        text, js = status()
        assert text[0].startswith("Editor: locked for good: the editor-password line is malformed"), text
        assert js == {"enabled": False, "locked": True, "password_malformed": True, "iterations": None}, js
        ok(setpw(esp, b"pw\n", "--iterations", "1000"))
        with open(os.path.join(esp, CONF), "ab") as f:
            f.write(b"editor no\n")
        assert status()[0] == ["Editor: off (editor no)"]
