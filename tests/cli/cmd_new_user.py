"""A new user's path, end to end: install, entry add, disk, run with handoff's
own loader, checking what the booted Linux reported; run KERNEL by each protocol."""
import os

from cmd_entry import MID, fake_root
from cmd_run import init_report, payload_sha
from common import BOOT_TIMEOUT, INITRD, KERNEL, LOADER, Tmp, h, need, ok, test


@test
def new_user_end_to_end():
    """install, entry add, disk, run with handoff's own loader; check what Linux saw."""
    need(LOADER)
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        ok(h("install", "--esp", esp, "--loader", LOADER))
        with open(os.path.join(esp, "loader/loader.conf"), "w") as f:
            f.write("timeout 0\n")
        root = fake_root(tmp, {"etc/machine-id": MID + "\n"})
        ok(h("entry", "add", "--esp", esp, "--root", root, "--linux", KERNEL, "--initrd", INITRD,
             "--options", "console=ttyS0 rdinit=/init"))
        img = os.path.join(tmp, "disk.img")
        ok(h("disk", "-o", img, "--esp", esp))
        r = h("run", img, "--timeout", str(BOOT_TIMEOUT), timeout=BOOT_TIMEOUT + 30)
        rep = init_report(r.stdout)
        assert rep, f"no HANDOFF-INIT line (exit {r.returncode}): {r.stdout[-3000:]!r} {r.stderr!r}"
        assert r.returncode == 0, f"exit {r.returncode}: {r.stderr!r}"
        assert "console=ttyS0 rdinit=/init" in rep["cmdline"], rep["cmdline"]
        assert rep["efi"] is True
        assert rep["payload_sha256"] == payload_sha()


@test
def run_kernel_by_each_protocol():
    """run KERNEL --protocol P with handoff's loader: the entry it writes pins the scheme."""
    need(LOADER)
    for proto, code in (("handover", 3), ("legacy", 4)):
        r = h("run", KERNEL, "--protocol", proto, "--initrd", INITRD,
              "--options", f"console=ttyS0 handoff.debug_exit={code}", "--timeout", str(BOOT_TIMEOUT),
              timeout=BOOT_TIMEOUT + 30)
        out = r.stdout.decode(errors="replace")
        rep = init_report(r.stdout)
        assert rep and r.returncode == code, f"{proto}: exit {r.returncode} {r.stderr!r} {out[-2000:]}"
        assert f"by {proto}" in out, f"{proto}: the loader did not say it used {proto}"
        assert rep["payload_sha256"] == payload_sha()
