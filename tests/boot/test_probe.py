"""The probe's own entry points that no UEFI loader uses: entered in real mode
(QEMU -kernel under SeaBIOS runs the setup code), the image says so on COM1
and exits QEMU instead of hanging. The matrix (test_matrix.py) covers the rest.
"""
import qemu

PROBE_BARE = "build/probe/probe-bare.img"


@qemu.needs(PROBE_BARE)
def test_probe_real_mode_entry_reports_itself():
    res = qemu.run_qemu(None, 60, kernel=qemu.root_path(PROBE_BARE), append="console=ttyS0", firmware=False)
    p = res.probe
    if p is None:
        qemu.fail("no HANDOFF-PROBE line from the real-mode setup code", res)
    qemu.expect_eq(p.get("entry"), "real", "probe entry", res)
    qemu.expect_eq(p.get("errors"), ["real_mode_entry"], "probe errors", res)
    qemu.expect_eq(res.debug_exit, 1, "isa-debug-exit value (1: errors)", res)
