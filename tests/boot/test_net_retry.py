"""loader.conf's retry-on-error on a network boot (issue 35): a fleet machine
whose default entry cannot be fetched tries it again after waits of 1, 2, 4
... s, each counted down on the console, fetching anew each time, and boots
once the server answers; when the waits add up to the key's seconds it
resets (the firmware starts over) or, with "next", boots the next entry.
Any key stops it for the menu; what a person chose is never tried again.
Without the key a failed default brings the menu back at once
(test_loader_failed_default_menu_comes_back_by_itself).

Every test counts what the server was asked for (httpserve.py logs each
request; a list of faults answers a path's requests in turn) and what the
console said; none measures time."""
import re

from harness import case, net, qemu
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER
from test_netboot import FIRMWARE_GET, MENU, SHORT, TIMEOUT, URL, net_tree

KERNEL_PATH = "/debian/vmlinuz"


def waits(res, entry_id):
    """The countdowns before the retries of @entry_id, as the console showed
    them: each is one line ('in 2 s ... in 1 s', the carriage returns
    dropped); its first number is the wait."""
    rx = re.compile(r"handoff: retrying %s in (\d+) s, any key aborts" % re.escape(entry_id))
    return [int(rx.search(l).group(1)) for _, l in res.lines if rx.search(l)]


def loads(res, title):
    return sum(1 for _, l in res.lines if "handoff: entry '%s': loading" % title in l)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_retry_until_the_server_answers():
    """retry-on-error 60 and timeout 0: the kernel's first request gets a 503,
    the second a redirect to bytes that are no kernel (unpinned, so fetched
    and then refused as no bzImage), the third the kernel: Linux boots after
    two retries, 1 then 2 s, each error logged. The kernel was asked for three
    times: the broken bytes of the second try, which the volume kept when the
    file was closed, are not what the third try reads."""
    options = "console=ttyS0 handoff.marker=net-retry panic=-1"
    tree = net_tree({"debian.conf": entry("Debian", options)}, "timeout 0\nretry-on-error 60\n",
                    {"k/garbage": b"this is no kernel\n" * 64})
    srv = net.Server(tree, faults={KERNEL_PATH: ["503", "302 /k/garbage"]})
    res = qemu.run_qemu(None, TIMEOUT, net=net.http_args(srv))
    qemu.expect_linux_saw(res, options)
    errors = [l.split("handoff: error: ", 1)[1] for _, l in res.lines if "handoff: error: " in l]
    want = [r"entry 'Debian': %s%s: HTTP status 503$" % (URL, KERNEL_PATH),
            r"entry 'Debian': %s: neither a bzImage" % KERNEL_PATH]
    qemu.expect_eq([w for w in want if any(re.search(w, e) for e in errors)], want, "each try's error", res)
    qemu.expect(re.search(want[0], errors[0] if errors else "") and re.search(want[1], errors[-1]),
                "in that order, got %r" % errors, res)
    qemu.expect_eq(waits(res, "debian"), [1, 2], "the waits counted down before each retry", res)
    qemu.expect_eq(loads(res, "Debian"), 3, "tries of the entry", res)
    gets = net.gets(srv)
    qemu.expect_eq(gets.count(KERNEL_PATH), 3, "the server's requests for the kernel", res)
    qemu.expect_eq(gets.count("/k/garbage"), 1, "the redirect's target, once", res)
    qemu.expect_eq(gets.count(FIRMWARE_GET), 1, "the loader, once (no reset)", res)
    qemu.expect(res.time_of(MENU) is None, "no menu drawn", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_retry_then_reset():
    """retry-on-error 5 reset with a kernel the server never sends (503 each
    time): tried, then again after 1, 2 and 2 s (the waits add up to 5), then
    'retried 5 s, reset' and a reset by ResetSystem (QEMU, under
    -no-reboot, exits by itself; no triple fault): the firmware would start
    over from DHCP. The kernel was asked for four times, the loader once; no
    menu was drawn, nothing booted."""
    tree = net_tree({"debian.conf": entry("Debian", "x")}, "timeout 0\nretry-on-error 5 reset\n")
    srv = net.Server(tree, faults={KERNEL_PATH: "503"})
    res = qemu.run_qemu(None, SHORT, net=net.http_args(srv), extra_args=qemu.CPU_LOG_ARGS)
    qemu.expect(not res.timed_out, "QEMU exited by itself (the reset, under -no-reboot)", res)
    qemu.expect(not qemu.first_exception(res)[1], "the reset was ResetSystem's, not a triple fault", res)
    qemu.expect_eq(res.exit_code, 0, "QEMU's exit status (a guest reset)", res)
    qemu.expect_eq(waits(res, "debian"), [1, 2, 2], "the waits counted down before each retry", res)
    qemu.expect(res.time_of(r"^handoff: debian: retried 5 s, reset$") is not None, "the reset is said", res)
    errors = [l for _, l in res.lines if "handoff: error: entry 'Debian': %s%s: HTTP status 503" % (URL, KERNEL_PATH)
              in l]
    qemu.expect_eq(len(errors), 4, "one error line per try", res)
    gets = net.gets(srv)
    qemu.expect_eq(gets.count(KERNEL_PATH), 4, "the server's requests for the kernel", res)
    qemu.expect_eq(gets.count(FIRMWARE_GET), 1, "the loader's (the firmware's, before the reset)", res)
    qemu.expect(res.time_of(MENU) is None and res.init is None, "no menu, nothing booted", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_retry_next_entry():
    """retry-on-error 1 next: the default (first) entry's kernel is never
    sent; tried, again after 1 s, then 'retried 1 s, next entry' and the
    next entry boots by itself, no menu drawn."""
    good = "console=ttyS0 handoff.marker=net-retry-next panic=-1"
    entries = {"a1.conf": entry("Broken", "x", linux="/k/broken", sort_key="a1"),
               "a2.conf": entry("Good", good, sort_key="a2")}
    srv = net.Server(net_tree(entries, "timeout 0\nretry-on-error 1 next\n"), faults={"/k/broken": "503"})
    res = qemu.run_qemu(None, TIMEOUT, net=net.http_args(srv))
    qemu.expect_linux_saw(res, good)
    qemu.expect_eq(waits(res, "a1"), [1], "one retry of the first entry", res)
    qemu.expect(res.time_of(r"^handoff: a1: retried 1 s, next entry$") is not None, "the move is said", res)
    qemu.expect_eq(waits(res, "a2"), [], "the next entry booted at its first try", res)
    qemu.expect_eq(net.gets(srv).count("/k/broken"), 2, "the server's requests for the broken kernel", res)
    qemu.expect(res.time_of(MENU) is None, "no menu drawn", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_net_retry_stopped_by_a_key_and_never_for_a_choice():
    """retry-on-error 60: the default's kernel is never sent; a key during a
    countdown stops the retries and the menu shows the error, no countdown;
    that entry chosen from the menu fails once and the menu is back at once,
    no retry (a person's choice); then the other entry boots. The kernel was
    asked for once per try: the first, one per completed countdown, and the
    person's."""
    good = "console=ttyS0 handoff.marker=net-retry-key panic=-1"
    entries = {"a1.conf": entry("Broken", "x", linux="/k/broken", sort_key="a1"),
               "a2.conf": entry("Good", good, sort_key="a2")}
    srv = net.Server(net_tree(entries, "timeout 0\nretry-on-error 60\n"), faults={"/k/broken": "503"})
    problem = r"Problems: entry 'Broken': %s/k/broken: HTTP status 503" % URL
    # the key at the third countdown (4 s); when it lands does not matter to the checks below
    res = qemu.run_qemu(None, TIMEOUT, net=net.http_args(srv),
                        keys=[(r"retrying a1 in 4 s", b" "), (problem, b"1", 0.5), (problem, b"2", 0.5)])
    qemu.expect_eq(res.keys_pending, [], "the menu came back after the key and after the choice", res)
    qemu.expect_linux_saw(res, good)
    counted = waits(res, "a1")
    qemu.expect(counted and counted == [1, 2, 4, 8, 16, 29][:len(counted)], "the waits: %r" % counted, res)
    menu = res.time_of(MENU)
    last_wait = max((t for t, l in res.lines if "handoff: retrying a1 in" in l), default=None)
    qemu.expect(menu is not None and last_wait is not None and last_wait < menu,
                "no countdown after the menu came", res)
    # the countdown the key stopped is one line too: len(counted) - 1 retries, the first try, the choice
    qemu.expect_eq(net.gets(srv).count("/k/broken"), len(counted) + 1, "the server's requests for /k/broken", res)
    qemu.expect_eq(loads(res, "Broken"), len(counted) + 1, "tries of the broken entry", res)
    qemu.expect("Boot in" not in res.serial_text, "no menu countdown", res)
