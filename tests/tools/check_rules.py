#!/usr/bin/python3
"""Rules of the code base that a grep can keep (style.md):
- only src/core/bootparams.c writes a struct boot_params;
- src/core never calls the firmware (no BS->, RT->, ST->, gBS);
- no source file in src/ passes 500 lines."""
import glob
import re
import sys

passed = failed = 0


def check(name, bad):
    global passed, failed
    print(("FAIL " if bad else "PASS ") + name + ("".join("\n    " + b for b in bad[:10])))
    passed, failed = passed + (not bad), failed + bool(bad)


def lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


srcs = sorted(glob.glob("src/**/*.c", recursive=True) + glob.glob("src/**/*.h", recursive=True))
write = re.compile(r"\b(bp|boot_params|params)\s*->\s*(hdr\.|screen_info|efi_info|e820|ext_|setup_data|sentinel)\w*[\w.\[\]]*\s*(=[^=]|\|=|&=|\+=)")
bad = [f"{p}:{i}: {l.strip()}" for p in srcs if not p.endswith("core/bootparams.c") and not p.startswith("src/probe/")
       for i, l in enumerate(lines(p), 1) if write.search(l)]
check("struct boot_params is written only in src/core/bootparams.c", bad)

fw = re.compile(r"\b(BS|RT|ST|gBS|gRT|gST)\s*->")
bad = [f"{p}:{i}: {l.strip()}" for p in srcs if p.startswith("src/core/")
       for i, l in enumerate(lines(p), 1) if fw.search(l)]
check("src/core makes no firmware calls", bad)

bad = [f"{p}: {len(lines(p))} lines" for p in srcs if len(lines(p)) > 500]
check("no file in src/ is longer than 500 lines", bad)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
