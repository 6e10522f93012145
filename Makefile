# handoff: UEFI boot loader and boot toolkit for Linux on x86-64.
#   make          build/handoff.efi, build/handoffia32.efi, build/handoffaa64.efi,
#                 build/handoff-stub.efi, build/handoff-stubaa64.efi, build/handoff,
#                 build/probe.img
#   make demo     build and boot the demo ESP in QEMU/OVMF
#   make check    all tests (unit, fuzz corpora, CLI, binaries, boots)
#   make fuzz     run every libFuzzer target for FUZZ_SECONDS each
#   make bench    compare boot times with systemd-boot and GRUB
#   make deb      build/handoff_<VERSION>_amd64.deb (dpkg-deb, no root)
#   make system-test  Debian 12 with the .deb, kernels and boot counting, in QEMU
# Source files are found by wildcard: a new file in src/core, src/efi,
# tests/unit or tests/fuzz needs no change here.

B        := build

# Builds use every core unless a -j is given (GNU make 4.3 honours a -j the
# makefile adds; the command line's wins). The targets that start with deps
# build what they need in a second make, after it: on a fresh machine there
# is no compiler until deps has installed one. That make shares the first's
# job slots (setting -j again there would make its own, with a warning).
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
PREFIX   ?= /usr/local
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.1.0)

EFI_CC   := clang -target x86_64-unknown-windows
EFI_LD   := lld-link
EFI_AR   := llvm-ar
HOST_CC  := clang
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
EFI_CFLAGS := -std=gnu11 -ffreestanding -fshort-wchar -mno-red-zone -mgeneral-regs-only \
	-fno-stack-protector -fno-strict-aliasing -fno-stack-check -mno-stack-arg-probe \
	-fno-builtin-printf -fno-asynchronous-unwind-tables -fno-unwind-tables -Oz -fno-jump-tables -flto $(WARN) \
	-mllvm -inline-threshold=-10 -Iinclude -Isrc -I$(B)/gen -DHANDOFF_VERSION='"$(VERSION)"'
# -fno-jump-tables: a switch as compares, not a table of code addresses that
# the packer's compressor finds no repeats in: 156 bytes off the packed x86-64
# loader, 174 off the IA-32 one (docs/design.md "Packed loaders").
# -inline-threshold=-10, here and at the images' LTO link (IMAGE_LDFLAGS): a
# function is inlined only where that saves 10 bytes or more (-Oz's own
# threshold, 5, copied small helpers into their many callers): x86-64 .text
# 99,827 -> 99,353 B, 479 bytes off the packed payload (-5: 449, 0: 178, -20: 214).
# The PE timestamp from SOURCE_DATE_EPOCH, else 0: the same tree links to the
# same bytes (reproducible builds; /Brepro would add a debug directory).
EFI_LDFLAGS := /nologo /machine:x64 /subsystem:efi_application /entry:efi_main \
	/nodefaultlib /opt:ref /opt:icf /debug:none /timestamp:$(or $(SOURCE_DATE_EPOCH),0)
# The loader for 32-bit (IA-32) firmware: the same sources built a second time
# (UEFI 2.10 §2.3.2: cdecl, 32-bit UINTN and pointers). The red zone is an
# x86-64 notion; everything else is shared.
# The images' code generation (LLVM 14 options, IMAGE_LDFLAGS only): passes
# that trade bytes for speed left out, as the packed size is what counts and
# none of them touches a hot loop of the loader (SHA-256 runs as fast). The
# packed x86-64 stream 65,285 -> 62,637 B, IA-32 63,288 -> 61,688, the stub
# 25,634 -> 25,045; what each saves of the x86-64 stream, the others kept:
# -disable-machine-licm 949 (no invariants hoisted into registers kept
# across a loop), -disable-constant-hoisting 538, -regalloc=basic 524,
# -disable-block-placement 250, -disable-x86-lea-opt 230, -disable-machine-cse
# 164, -disable-postra-machine-sink 138, -disable-lsr 132, -enable-misched=false
# 93, -enable-pre=false 92. Not -enable-ipra (293 more): x86 IPRA has known
# miscompiles. The unpacker, stored as it is, keeps the defaults (with these
# its code is 449 bytes larger).
IMAGE_CODEGEN := -disable-machine-licm -disable-constant-hoisting -regalloc=basic -disable-block-placement \
	-disable-x86-lea-opt -disable-machine-cse -disable-postra-machine-sink -disable-lsr -enable-misched=false \
	-enable-pre=false
IMAGE_LDFLAGS := /mllvm:-inline-threshold=-10 $(patsubst %,/mllvm:%,$(IMAGE_CODEGEN))
EFI32_CC := clang -target i686-unknown-windows
EFI32_CFLAGS := $(filter-out -mno-red-zone,$(EFI_CFLAGS))
EFI32_LDFLAGS := $(subst /machine:x64,/machine:x86,$(EFI_LDFLAGS))
# The loader for AArch64 firmware: the same sources a third time (UEFI 2.10
# §2.3.6: AAPCS64, 64-bit UINTN), booting by the kernel's EFI stub alone.
# The x86 code generation options have no meaning there.
EFIAA64_CC := clang -target aarch64-unknown-windows
EFIAA64_CFLAGS := $(filter-out -mno-red-zone,$(EFI_CFLAGS))
EFIAA64_LDFLAGS := $(subst /machine:x64,/machine:arm64,$(EFI_LDFLAGS))
HOST_CFLAGS := -std=gnu11 -O2 -g $(WARN) -Iinclude -Isrc -I$(B)/gen -DHANDOFF_VERSION='"$(VERSION)"'
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_SECONDS ?= 60
# Quiet by default; `make V=1` shows every command.
Q := $(if $(V),,@)
msg = $(if $(V),,printf '  %-6s %s\n' $(1) $(2);)

CORE_SRCS := $(sort $(wildcard src/core/*.c))
# src/efi/*_x64.c, *_ia32.c and *_aa64.c: what differs between the firmware
# builds (how each scheme enters the kernel, the 64-bit arithmetic helpers of
# IA-32); *_x86.c: what x86-64 and IA-32 share (the CPU's instructions).
# src/libc: the freestanding memcpy & co. that the loaders, the stub and the
# probe link (the host tool and tests use the C library instead).
EFI_ALL_SRCS := $(filter-out src/efi/main.c,$(sort $(wildcard src/efi/*.c))) $(wildcard src/libc/*.c)
EFI_SRCS  := $(filter-out %_ia32.c %_aa64.c,$(EFI_ALL_SRCS))
EFI32_SRCS := $(filter-out %_x64.c %_aa64.c,$(EFI_ALL_SRCS))
# AArch64 boots by the kernel's EFI stub alone: the handover and legacy
# schemes and what only they use (the exit guard's x86 setjmp, the exit and
# move of legacy boot, its identity page tables, option ROMs) stay out.
X86_EFI_SRCS := $(addprefix src/efi/,boot_handover.c boot_legacy.c exit_boot.c exit_guard.c pci.c timer_quiet.c) \
	src/core/idmap.c
EFIAA64_SRCS := $(filter-out %_x64.c %_ia32.c %_x86.c $(X86_EFI_SRCS),$(EFI_ALL_SRCS))
STUB_SRCS := $(sort $(wildcard src/stub/*.c))
TOOL_SRCS := $(sort $(wildcard src/tool/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
# src/efi files that take the firmware tables as parameters, or call only what
# tests/unit's fakes provide (fake_net.c: BS's timers, a PXE base code), and so
# also run on the host.
HOST_EFI_SRCS := $(wildcard src/efi/exit_boot.c src/efi/exit_guard.c src/efi/net_buffer.c src/efi/net_fs.c \
	src/efi/net_progress.c src/efi/ro_file.c \
	src/efi/net_tftp.c src/efi/runtime_ia32.c src/efi/sb_write.c src/efi/timer_quiet.c)

EFI_LIB   := $(B)/efi/libhandoff.a
EFI_OBJS  := $(patsubst src/%.c,$(B)/efi/%.o,$(CORE_SRCS) $(EFI_SRCS))
EFI32_LIB := $(B)/efi32/libhandoff.a
# The 64-bit division helpers are called by code LTO generates, so they are
# a plain object outside LTO and outside the archive.
EFI32_RT  := $(B)/efi32/efi/runtime_ia32.o
EFI32_OBJS := $(filter-out $(EFI32_RT),$(patsubst src/%.c,$(B)/efi32/%.o,$(CORE_SRCS) $(EFI32_SRCS)))
EFIAA64_LIB := $(B)/efiaa64/libhandoff.a
EFIAA64_OBJS := $(patsubst src/%.c,$(B)/efiaa64/%.o,$(filter-out $(X86_EFI_SRCS),$(CORE_SRCS)) $(EFIAA64_SRCS))
HOST_CORE_OBJS := $(patsubst src/%.c,$(B)/host/%.o,$(CORE_SRCS))
SAN_OBJS  := $(patsubst %.c,$(B)/san/%.o,$(CORE_SRCS) $(HOST_EFI_SRCS) $(UNIT_SRCS) src/tool/platform_host.c \
	     src/pack/lzma_enc.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))

ARTIFACTS := $(B)/handoff.efi $(B)/handoffia32.efi $(B)/handoffaa64.efi $(B)/handoff
ifneq ($(STUB_SRCS),)
ARTIFACTS += $(B)/handoff-stub.efi $(B)/handoff-stubaa64.efi
endif
ifneq ($(wildcard src/probe/*.c),)
ARTIFACTS += $(B)/probe.img
endif

all: $(ARTIFACTS)

.PHONY: all deps check unit fuzz fuzz-corpus demo bench matrix install clean deb system-test
.DELETE_ON_ERROR:

deps:
	@scripts/deps.sh

# --- UEFI side -------------------------------------------------------------
# The menu's bitmap font (src/core/font.c) is generated from a console font of
# console-setup-linux (scripts/packages.txt) by scripts/mkfont.py.
FONT_PSF := /usr/share/consolefonts/Uni2-Fixed16.psf.gz
$(B)/gen/font8x16.h: scripts/mkfont.py
	@mkdir -p $(dir $@)
	$(Q)$(call msg,MKFONT,$@) python3 scripts/mkfont.py $(FONT_PSF) $@
$(foreach d,efi efi32 efiaa64 host san/src fuzzobj/src,$(B)/$(d)/core/font.o): $(B)/gen/font8x16.h

# UEFI objects also depend on this Makefile: a change of flags (size options)
# rebuilds them, so a built tree never mixes old and new code generation.
$(B)/efi/%.o: src/%.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CC,$@) $(EFI_CC) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

$(EFI_LIB): $(EFI_OBJS)
	@rm -f $@
	$(Q)$(call msg,AR,$@) $(EFI_AR) rcs $@ $^

# The loader and the stub carry a .sbat section (src/efi/sbat.c) for shim.
SBAT_LDFLAGS := /include:handoff_sbat

# The loaders are packed (docs/design.md "Packed loaders"): the loader is
# linked as build/efi/handoff-image.efi, build/mkpack compresses its memory
# image (src/core/pack.c) and src/pack/image.S carries that in the .image
# section of a small unpacker (src/pack/unpack.c), which is build/handoff.efi.
$(B)/efi/handoff-image.efi: $(B)/efi/efi/main.o $(EFI_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFI_LDFLAGS) $(IMAGE_LDFLAGS) $(SBAT_LDFLAGS) /out:$@ $^

%.packed: %-image.efi $(B)/mkpack
	$(Q)$(call msg,MKPACK,$@) $(B)/mkpack $< $@ >/dev/null

$(B)/efi/pack/image.o: src/pack/image.S $(B)/efi/handoff.packed
	@mkdir -p $(dir $@)
	$(Q)$(call msg,AS,$@) $(EFI_CC) -DHANDOFF_PACKED='"$(B)/efi/handoff.packed"' -c $< -o $@

# The unpacker's code and constants share the payload's section, .image
# (read-only, executable): the file rounds one section up to FileAlignment,
# not three. It has no writable data, so no .data or .bss section: shim
# refuses a section without file bytes (PointerToRawData 0, in the headers).
# Its code, stored as it is, is smallest with more inlining than the images':
# .text 4,916 -> 4,620 B (x86-64), 4,708 -> 4,448 (IA-32; 0 and -10: larger).
PACK_LDFLAGS := /merge:.text=.image /merge:.rdata=.image /mllvm:-inline-threshold=20

# The src/core files the unpacker links, built without their lines
# (LOG_TERSE, core/log.h: about 1 KB); linked before the library, these are
# the ones taken.
PACK_CORE := pack lzma x86_filter aa64_filter pe
PACK_CORE_OBJS := $(patsubst %,$(B)/efi/pack/core/%.o,$(PACK_CORE))
PACK32_CORE_OBJS := $(patsubst %,$(B)/efi32/pack/core/%.o,$(PACK_CORE))
PACKAA64_CORE_OBJS := $(patsubst %,$(B)/efiaa64/pack/core/%.o,$(PACK_CORE))

$(B)/efi/pack/core/%.o: src/core/%.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CC,$@) $(EFI_CC) $(EFI_CFLAGS) -DLOG_TERSE -MMD -MP -c $< -o $@

$(B)/efi32/pack/core/%.o: src/core/%.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CC32,$@) $(EFI32_CC) $(EFI32_CFLAGS) -DLOG_TERSE -MMD -MP -c $< -o $@

# lld-link leaves room in the headers for a section more; the loaders get no
# more sections, so mkpack --trim gives it back (pe_trim_headers(): 512
# bytes). The stub keeps it: UKI builders add their sections there.
$(B)/efi/handoff-linked.efi: $(B)/efi/pack/unpack.o $(PACK_CORE_OBJS) $(B)/efi/pack/image.o $(EFI_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFI_LDFLAGS) $(PACK_LDFLAGS) $(SBAT_LDFLAGS) /out:$@ $^

$(B)/handoff.efi: $(B)/efi/handoff-linked.efi $(B)/mkpack
	$(Q)$(call msg,TRIM,$@) $(B)/mkpack --trim $< $@ >/dev/null

# The stub is packed the same way: its UKI sections follow the unpacker's in
# the file, and it finds them through LoadedImage (docs/design.md "Packed
# loaders"). The map lets tests/checks/check_rules.py see which functions the
# stub links.
$(B)/efi/handoff-stub-image.efi: $(patsubst src/%.c,$(B)/efi/%.o,$(STUB_SRCS)) $(EFI_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFI_LDFLAGS) $(IMAGE_LDFLAGS) $(SBAT_LDFLAGS) /map:$(B)/handoff-stub.map /out:$@ $^

$(B)/efi/pack/stub-image.o: src/pack/image.S $(B)/efi/handoff-stub.packed
	@mkdir -p $(dir $@)
	$(Q)$(call msg,AS,$@) $(EFI_CC) -DHANDOFF_PACKED='"$(B)/efi/handoff-stub.packed"' -c $< -o $@

$(B)/handoff-stub.efi: $(B)/efi/pack/unpack.o $(PACK_CORE_OBJS) $(B)/efi/pack/stub-image.o $(EFI_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFI_LDFLAGS) $(PACK_LDFLAGS) $(SBAT_LDFLAGS) /out:$@ $^

$(B)/efi32/%.o: src/%.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CC32,$@) $(EFI32_CC) $(EFI32_CFLAGS) -MMD -MP -c $< -o $@

$(EFI32_LIB): $(EFI32_OBJS)
	@rm -f $@
	$(Q)$(call msg,AR,$@) $(EFI_AR) rcs $@ $^

$(EFI32_RT): EFI32_CFLAGS += -fno-lto

# IA-32 C symbols carry a leading underscore (the Microsoft x86 convention).
$(B)/efi32/handoffia32-image.efi: $(B)/efi32/efi/main.o $(EFI32_RT) $(EFI32_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFI32_LDFLAGS) $(IMAGE_LDFLAGS) /include:_handoff_sbat /out:$@ $^

$(B)/efi32/pack/image.o: src/pack/image.S $(B)/efi32/handoffia32.packed
	@mkdir -p $(dir $@)
	$(Q)$(call msg,AS32,$@) $(EFI32_CC) -DHANDOFF_PACKED='"$(B)/efi32/handoffia32.packed"' -c $< -o $@

# The unpacker does no 64-bit division: no $(EFI32_RT) (645 bytes).
$(B)/efi32/handoffia32-linked.efi: $(B)/efi32/pack/unpack.o $(PACK32_CORE_OBJS) $(B)/efi32/pack/image.o $(EFI32_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFI32_LDFLAGS) $(PACK_LDFLAGS) /include:_handoff_sbat /out:$@ $^

$(B)/handoffia32.efi: $(B)/efi32/handoffia32-linked.efi $(B)/mkpack
	$(Q)$(call msg,TRIM,$@) $(B)/mkpack --trim $< $@ >/dev/null

$(B)/efiaa64/%.o: src/%.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCAA64,$@) $(EFIAA64_CC) $(EFIAA64_CFLAGS) -MMD -MP -c $< -o $@

$(EFIAA64_LIB): $(EFIAA64_OBJS)
	@rm -f $@
	$(Q)$(call msg,AR,$@) $(EFI_AR) rcs $@ $^

# The AArch64 loader is packed as the x86 ones, with AArch64's branch filter
# (the payload's machine chooses it: src/core/aa64_filter.c) and the cache
# maintenance its unpacker does before entering the code it wrote
# (src/pack/cache_aa64.c).
$(B)/efiaa64/handoffaa64-image.efi: $(B)/efiaa64/efi/main.o $(EFIAA64_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFIAA64_LDFLAGS) $(IMAGE_LDFLAGS) $(SBAT_LDFLAGS) /out:$@ $^

$(B)/efiaa64/pack/image.o: src/pack/image.S $(B)/efiaa64/handoffaa64.packed
	@mkdir -p $(dir $@)
	$(Q)$(call msg,ASAA64,$@) $(EFIAA64_CC) -DHANDOFF_PACKED='"$(B)/efiaa64/handoffaa64.packed"' -c $< -o $@

$(B)/efiaa64/pack/core/%.o: src/core/%.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCAA64,$@) $(EFIAA64_CC) $(EFIAA64_CFLAGS) -DLOG_TERSE -MMD -MP -c $< -o $@

$(B)/efiaa64/handoffaa64-linked.efi: $(B)/efiaa64/pack/unpack.o $(B)/efiaa64/pack/cache_aa64.o $(PACKAA64_CORE_OBJS) \
		$(B)/efiaa64/pack/image.o $(EFIAA64_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFIAA64_LDFLAGS) $(PACK_LDFLAGS) $(SBAT_LDFLAGS) /out:$@ $^

$(B)/handoffaa64.efi: $(B)/efiaa64/handoffaa64-linked.efi $(B)/mkpack
	$(Q)$(call msg,TRIM,$@) $(B)/mkpack --trim $< $@ >/dev/null

# The stub for AArch64 (issue 34): the same sources and library as the
# AArch64 loader, packed as the x86 stub (its headers keep their room for a
# UKI's sections). It boots the embedded arm64 Image by the kernel's EFI stub,
# the one scheme there.
$(B)/efiaa64/handoff-stub-image.efi: $(patsubst src/%.c,$(B)/efiaa64/%.o,$(STUB_SRCS)) $(EFIAA64_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFIAA64_LDFLAGS) $(IMAGE_LDFLAGS) $(SBAT_LDFLAGS) /out:$@ $^

$(B)/efiaa64/pack/stub-image.o: src/pack/image.S $(B)/efiaa64/handoff-stub.packed
	@mkdir -p $(dir $@)
	$(Q)$(call msg,ASAA64,$@) $(EFIAA64_CC) -DHANDOFF_PACKED='"$(B)/efiaa64/handoff-stub.packed"' -c $< -o $@

$(B)/handoff-stubaa64.efi: $(B)/efiaa64/pack/unpack.o $(B)/efiaa64/pack/cache_aa64.o $(PACKAA64_CORE_OBJS) \
		$(B)/efiaa64/pack/stub-image.o $(EFIAA64_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFIAA64_LDFLAGS) $(PACK_LDFLAGS) $(SBAT_LDFLAGS) /out:$@ $^

# --- host side -------------------------------------------------------------
$(B)/host/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,HOSTCC,$@) $(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

# The tool links libcrypto (libssl-dev) for signed PCR policies, Secure Boot
# keys and Authenticode verification, in src/tool/pcr_crypto.c, cert.c,
# keys_make.c and pe_verify.c only; the loaders, the stub and the tests do not.
TOOL_LIBS := -lcrypto

# mkpack compresses with liblzma (liblzma-dev); the loaders carry their own
# decoder (src/core/lzma.c), which the unit tests and fuzz_lzma check against
# liblzma.
$(B)/mkpack: $(B)/host/pack/mkpack.o $(B)/host/pack/lzma_enc.o $(HOST_CORE_OBJS) $(B)/host/tool/platform_host.o
	$(Q)$(call msg,LINK,$@) $(HOST_CC) $(HOST_CFLAGS) $^ -o $@ -llzma

$(B)/handoff: $(patsubst src/%.c,$(B)/host/%.o,$(TOOL_SRCS)) $(HOST_CORE_OBJS)
	$(Q)$(call msg,LINK,$@) $(HOST_CC) $(HOST_CFLAGS) $^ -o $@ $(TOOL_LIBS)

$(B)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,SANCC,$@) $(HOST_CC) $(HOST_CFLAGS) -Itests/unit $(SAN) -MMD -MP -c $< -o $@

$(B)/unit-tests: $(SAN_OBJS)
	$(Q)$(call msg,LINK,$@) $(HOST_CC) $(SAN) $^ -o $@ -llzma

unit: $(B)/unit-tests
	$(B)/unit-tests

# --- fuzzers (libFuzzer) ---------------------------------------------------
# src/core is compiled once for all fuzzers (with coverage), each target links it.
# -fno-sanitize-recover: a UBSan report stops the run, so a corpus replay that
# hits undefined behaviour fails (tests/fuzz/canary_ubsan.c proves it).
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := $(HOST_CFLAGS) -DFUZZING -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_OBJS := $(patsubst %.c,$(B)/fuzzobj/%.o,$(CORE_SRCS) src/tool/platform_host.c)
# The host tool's readers of untrusted bytes (they use libc, src/core and
# libcrypto only) are an archive after src/core, so a fuzzer takes only what
# it calls: `handoff inspect`, Authenticode signatures (pe_sig.c; verified,
# with certificates' names: pe_verify.c, cert.c, and the diagnostics and
# file helpers these link), the entry-file, word, BootOrder,
# LoaderBootCountPath and configuration readers (src/tool/readers.c).
FUZZ_TOOL_SRCS := $(addprefix src/tool/,inspect.c inspect_render.c json.c pe_sig.c readers.c strbuf.c \
	pe_verify.c cert.c diag.c util.c process.c)
FUZZ_TOOL_LIB := $(B)/fuzzobj/libtool.a
.SECONDARY: $(FUZZ_OBJS) $(patsubst %.c,$(B)/fuzzobj/%.o,$(FUZZ_TOOL_SRCS))

$(B)/fuzzobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,FUZZCC,$@) $(HOST_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

# The Makefile too: its objects are .SECONDARY, so one added to the list
# would not otherwise rebuild an archive that exists.
$(FUZZ_TOOL_LIB): $(patsubst %.c,$(B)/fuzzobj/%.o,$(FUZZ_TOOL_SRCS)) Makefile
	@rm -f $@
	$(Q)$(call msg,AR,$@) $(EFI_AR) rcs $@ $(filter %.o,$^)

$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS) $(FUZZ_TOOL_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,FUZZ,$@) $(HOST_CC) $(HOST_CFLAGS) -DFUZZING -fsanitize=fuzzer $(FUZZ_SAN) $< $(FUZZ_OBJS) \
		$(FUZZ_TOOL_LIB) -o $@ -llzma -lcrypto

# New inputs go to build/fuzz/corpus-NAME; the curated corpus in the tree is read only.
fuzz: $(FUZZ_BINS)
	@for f in $(FUZZ_BINS); do n=$${f##*/fuzz_}; mkdir -p $(B)/fuzz/corpus-$$n; \
	  echo "fuzz $$n for $(FUZZ_SECONDS)s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $(B)/fuzz/corpus-$$n tests/fuzz/corpus/$$n \
	    > $(B)/fuzz/fuzz-$$n.log 2>&1 || { tail -n 30 $(B)/fuzz/fuzz-$$n.log; exit 1; }; \
	  grep -E "^stat::number_of_executed_units" $(B)/fuzz/fuzz-$$n.log; done

fuzz-corpus: $(FUZZ_BINS)

# --- probe -----------------------------------------------------------------
-include mk/probe.mk
-include bench/bench.mk

# --- tests, demo, benchmarks -----------------------------------------------
# readbench.efi is built before any suite runs: it shares src/efi, and a change
# there that breaks it must fail in seconds, not in the last suite.
check: deps
	@$(MAKE) --no-print-directory all $(B)/unit-tests $(FUZZ_BINS) $(B)/fuzz/canary_ubsan $(B)/bench/readbench.efi
	@tests/check.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all $(B)/bench/readbench.efi
	@bench/run.sh

matrix: deps
	@$(MAKE) --no-print-directory all
	@tests/boot/run.py -k matrix --write-matrix docs/compatibility.md

deb: all
	@scripts/mkdeb.sh

system-test: deps
	@$(MAKE) --no-print-directory deb
	@tests/system/run.py

install: all
	install -D -m 0755 $(B)/handoff $(DESTDIR)$(PREFIX)/bin/handoff
	install -D -m 0644 $(B)/handoff.efi $(DESTDIR)$(PREFIX)/lib/handoff/handoffx64.efi
	install -D -m 0644 $(B)/handoffia32.efi $(DESTDIR)$(PREFIX)/lib/handoff/handoffia32.efi
	install -D -m 0644 $(B)/handoffaa64.efi $(DESTDIR)$(PREFIX)/lib/handoff/handoffaa64.efi
	$(if $(wildcard $(B)/handoff-stub.efi),\
		install -D -m 0644 $(B)/handoff-stub.efi $(DESTDIR)$(PREFIX)/lib/handoff/handoff-stub.efi)
	$(if $(wildcard $(B)/handoff-stubaa64.efi),\
		install -D -m 0644 $(B)/handoff-stubaa64.efi $(DESTDIR)$(PREFIX)/lib/handoff/handoff-stubaa64.efi)
	install -D -m 0644 docs/handoff.1 $(DESTDIR)$(PREFIX)/share/man/man1/handoff.1

clean:
	rm -rf $(B)/efi $(B)/efi32 $(B)/efiaa64 $(B)/host $(B)/san $(B)/fuzz $(B)/fuzzobj $(B)/*.efi $(B)/handoff $(B)/unit-tests \
		$(B)/probe.img

# build/system-test holds a Debian root file system (full of *.d directories).
-include $(shell find $(B) -path $(B)/system-test -prune -o -name '*.d' -type f -print 2>/dev/null)
