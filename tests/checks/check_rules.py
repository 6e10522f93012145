#!/usr/bin/python3
"""Rules of the code base that a script can keep (docs/design.md "Layers", docs/style.md):
- only src/core/bootparams.c writes a struct boot_params;
- src/core never calls the firmware (no BS->, RT->, ST->, x->BootServices->F());
- what each layer may include, resolved as the compiler does (-Iinclude -Isrc):
  core no src/efi, src/tool or src/stub header; tool no src/efi or src/stub
  header; stub none of the loader's menu/config/entries/bls; probe none of the
  loader (src/efi, src/stub); the unpacker (src/pack) only src/core;
- OpenSSL headers only in the host tool's libcrypto files (signed PCR
  policies, certificates, Secure Boot keys, Authenticode verification; the
  loaders and the stub never link it);
- the host objects of src/core reference no firmware table (BS, RT, ST, IH);
- the stub's link map holds no function of the loader's menu, entries, config
  or BLS code;
- no source file in src/ passes 500 lines, no C line 120 columns, no Python
  line in tests/ or bench/ either.
Runs from any directory; a rule that finds nothing to check fails."""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(ROOT)
passed = failed = 0


def check(name, bad, checked):
    """@checked: how many things the rule looked at; none is a failure."""
    global passed, failed
    if not checked:
        bad = ["nothing to check (run from the source tree, after make)"]
    print(("FAIL " if bad else "PASS ") + name + ("".join("\n    " + b for b in bad[:10])))
    passed, failed = passed + (not bad), failed + bool(bad)


def lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


srcs = sorted(glob.glob("src/**/*.c", recursive=True) + glob.glob("src/**/*.h", recursive=True))

# Through any name for the setup header (zp->hdr.x = ...), through a boot
# params-like name for the rest (a report struct may have an e820_entries).
write = re.compile(r"(\b\w+\s*(->|\.)\s*hdr\.\w+|\b\w*(bp|params|zp|zero_page)\w*\s*(->|\.)\s*"
                   r"(screen_info|efi_info|e820_table|e820_entries|ext_\w+|setup_data|sentinel))"
                   r"[\w.\[\]]*\s*(=[^=]|\|=|&=|\+=|-=)")
bp_files = [p for p in srcs if not p.endswith("core/bootparams.c") and not p.startswith("src/probe/")]
bad = [f"{p}:{i}: {l.strip()}" for p in bp_files for i, l in enumerate(lines(p), 1)
       if write.search(l) and "struct" not in l]
check("struct boot_params is written only in src/core/bootparams.c", bad, len(bp_files))

core = [p for p in srcs if p.startswith("src/core/")]
fw = re.compile(r"\b(BS|RT|ST|gBS|gRT|gST)\s*->|->\s*(BootServices|RuntimeServices|ConOut|ConIn)\s*->\s*\w+\s*\(")
bad = [f"{p}:{i}: {l.strip()}" for p in core for i, l in enumerate(lines(p), 1) if fw.search(l)]
check("src/core makes no firmware calls", bad, len(core))


def resolve(src, name):
    """The file a quoted #include names: beside @src, then include/, then src/."""
    for d in (os.path.dirname(src), "include", "src"):
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p):
            return p
    return None


LOADER_ONLY = ("src/efi/menu.c", "src/efi/entries.c", "src/efi/loader.h", "src/core/config.h", "src/core/bls.h")
FORBIDDEN = {  # layer -> (prefixes or files it must not include, why)
    "src/core/": (("src/efi/", "src/tool/", "src/stub/"), "core is pure: no firmware glue, no host tool"),
    "src/tool/": (("src/efi/", "src/stub/"), "the host tool links libc, libcrypto and src/core only"),
    "src/stub/": (LOADER_ONLY, "the stub has no menu, configuration or entries"),
    "src/probe/": (("src/efi/", "src/stub/"), "the probe is not the loader"),
    "src/pack/": (("src/efi/", "src/stub/", "src/tool/"), "the unpacker runs before the loader: core only"),
}
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
bad, n_includes = [], 0
for p in srcs:
    for layer, (banned, why) in FORBIDDEN.items():
        if not p.startswith(layer):
            continue
        for i, l in enumerate(lines(p), 1):
            m = inc.match(l)
            if not m:
                continue
            n_includes += 1
            target = resolve(p, m.group(1))
            if target and target.startswith(banned):
                bad.append(f"{p}:{i}: includes {target} ({why})")
check("each layer includes only what it may", bad, n_includes)

OPENSSL_USERS = ("src/tool/pcr_crypto.c", "src/tool/cert.c", "src/tool/keys_make.c", "src/tool/pe_verify.c")
ossl = re.compile(r"^\s*#\s*include\s+[<\"]openssl/")
users = [p for p in srcs if any(ossl.match(l) for l in lines(p))]
bad = [f"{p}: includes OpenSSL (only {', '.join(OPENSSL_USERS)} may)" for p in users if p not in OPENSSL_USERS]
check("only the host tool's libcrypto files use OpenSSL", bad, len(users))

core_objs = sorted(glob.glob("build/host/core/*.o"))
bad = []
for o in core_objs:
    out = subprocess.run(["nm", "-u", o], capture_output=True, text=True).stdout.split()
    bad += [f"{o}: references {s}" for s in out if s in ("BS", "RT", "ST", "IH")]
check("src/core objects reference no firmware table", bad, len(core_objs))


def defined_functions(objs):
    names = set()
    for o in objs:
        out = subprocess.run(["llvm-nm", "--defined-only", o], capture_output=True, text=True).stdout
        names |= {l.split()[-1] for l in out.splitlines() if re.search(r" [Tt] ", l)}
    return names


stub_map = "build/handoff-stub.map"
loader_objs = [o for o in ("build/efi/efi/menu.o", "build/efi/efi/entries.o", "build/efi/core/config.o",
                           "build/efi/core/bls.o", "build/efi/core/bls_order.o") if os.path.isfile(o)]
# less what other objects define too: a header's static inline helper (mem_freep()) that
# LTO leaves out of line is everyone's, not the loader's
funcs = defined_functions(loader_objs) - defined_functions(
    sorted(set(glob.glob("build/efi/core/*.o") + glob.glob("build/efi/efi/*.o")) - set(loader_objs)))
bad, n_syms = [], 0
if os.path.isfile(stub_map):
    syms = {l.split()[1] for l in lines(stub_map) if re.match(r"\s*[0-9a-f]{4}:[0-9a-f]{8}\s+\S+", l)}
    n_syms = len(syms) if funcs else 0
    bad = sorted(f"{stub_map}: {s} (loader code in the stub)" for s in syms & funcs)
check("the stub links no menu, entries, config or BLS code", bad, n_syms)

bad = [f"{p}: {len(lines(p))} lines" for p in srcs if len(lines(p)) > 500]
check("no file in src/ is longer than 500 lines", bad, len(srcs))

c_files = srcs + sorted(glob.glob("include/**/*.h", recursive=True) + glob.glob("tests/**/*.c", recursive=True))
bad = [f"{p}:{i}: {len(l.expandtabs(8))} columns" for p in c_files for i, l in enumerate(lines(p), 1)
       if len(l.expandtabs(8)) > 120]
check("no C line is wider than 120 columns (tabs at 8)", bad, len(c_files))

pys = sorted(glob.glob("tests/**/*.py", recursive=True) + glob.glob("bench/**/*.py", recursive=True))
bad = [f"{p}:{i}: {len(l.expandtabs(8))} columns" for p in pys for i, l in enumerate(lines(p), 1)
       if len(l.expandtabs(8)) > 120]
check("no Python line in tests/ or bench/ is wider than 120 columns", bad, len(pys))

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
