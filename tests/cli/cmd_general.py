"""handoff --version, --help and the usage errors of every command (exit 2)."""
import os

from harness.paths import ROOT
from common import KERNEL, h, ok, test


@test
def version_and_help():
    with open(os.path.join(ROOT, "VERSION")) as f:
        version = f.read().strip()
    assert ok(h("--version")).stdout.decode() == f"handoff {version}\n"
    assert b"Commands:" in ok(h("--help")).stdout
    for cmd in ("inspect", "install", "update", "entry", "status", "set-default", "set-timeout", "disk", "run"):
        r = ok(h(cmd, "--help"), cmd)
        assert r.stdout.startswith(b"Usage: handoff " + cmd.encode()), r.stdout[:80]
        assert r.stderr == b""
    ok(h("entry", "add", "--help"))


@test
def usage_errors_exit_2():
    cases = [
        (), ("frobnicate",), ("inspect",), ("inspect", "a", "b"), ("inspect", "--bogus", KERNEL),
        ("disk", "--esp", "/tmp"), ("disk", "-o", "x.img", "--esp", "/tmp", "--size", "abc"),
        ("disk", "-o", "x.img", "--esp", "/tmp", "--xbootldr", "/tmp", "--xbootldr-fs", "btrfs"),
        ("disk", "-o", "x.img", "--esp", "/tmp", "--xbootldr-fs", "ext4"), ("disk", "-o"),
        ("entry",), ("entry", "frob"), ("entry", "add", "--esp", "/tmp"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--protocol", "pxe"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--version", "../x"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--options", "a\nb"),
        ("entry", "remove", "--esp", "/tmp"), ("entry", "remove", "--esp", "/tmp", "../x"),
        ("run",), ("run", KERNEL, "--timeout", "soon"), ("run", KERNEL, "--protocol", "bios"),
        ("run", "a", "b"), ("install", "--esp", "/tmp", "--variables", "maybe"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--tries", "x"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--in-place", "maybe"),
        ("entry", "add", "--kernel-version", "../1"), ("entry", "remove", "--kernel-version", "1", "extra"),
        ("update", "extra"), ("status", "extra"), ("set-default",), ("set-timeout", "soon"),
        ("set-oneshot", "@saved"), ("set-default", "@bogus"), ("set-default", "a\nb"),
    ]
    for args in cases:
        r = h(*args)
        assert r.returncode == 2, f"{args}: exit {r.returncode} {r.stderr!r}"
        assert r.stderr.startswith(b"handoff"), f"{args}: {r.stderr!r}"
        assert r.stdout == b"", f"{args}: stdout {r.stdout!r}"
