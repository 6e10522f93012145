# build/probe.img: the boot-protocol probe (docs/probe.md).
#   payload: src/probe/*.c + entry.S and the src/core files its checks need,
#            freestanding x86-64 ELF, position independent (self-relocating),
#            linked at 0 by probe.lds, flattened with llvm-objcopy; entry.S
#            carries src/probe/ia32/gather.c as a flat IA-32 blob (the 32-bit
#            EFI entries ask the firmware before they leave for long mode)
#   image:   build/mkprobe (tests/helpers/mkprobe.c + src/core/bzwrite.c) writes
#            the bzImage; with build/handoff-stub.efi present it is wrapped
#            into a PE/COFF image (src/core/wrap.c) that firmware can start,
#            whose .compat section names the payload's IA-32 PE entry.

PROBE_CC     := clang -target x86_64-unknown-elf
PROBE_CFLAGS := -std=gnu11 -ffreestanding -fPIE -fvisibility=hidden -mno-red-zone -mgeneral-regs-only \
	-fno-stack-protector -fno-strict-aliasing -fno-builtin-printf -fshort-wchar -fno-asynchronous-unwind-tables \
	-ffunction-sections -fdata-sections -Os $(WARN) -Iinclude -Isrc
PROBE_CORE   := src/core/probe_check.c src/core/probe_mem.c src/core/probe_json.c src/core/sha256.c \
	src/core/fmt.c src/core/log.c src/core/e820.c src/libc/libc.c \
	src/libc/libc_x86.c
PROBE_OBJS   := $(patsubst %.c,$(B)/probe/%.o,$(wildcard src/probe/*.c) $(PROBE_CORE)) $(B)/probe/src/probe/entry.o
# Parameters of the image; the payload's layout (probe.h) fixes the handover offset.
PROBE_IMG_ARGS := --handover-offset 0x400 --cmdline-size 4095 --kernel-alignment 0x200000 \
	--pref-address 0x1000000 --kernel-version "handoff-probe $(VERSION)"
# IA-32 blob: no data of its own (all state in the caller's report), PIC with
# PC-relative and GOT-relative references only, so it runs wherever it lands.
PROBE32_CC     := clang -target i386-unknown-elf
PROBE32_CFLAGS := -std=gnu11 -ffreestanding -fPIE -fvisibility=hidden -malign-double -mgeneral-regs-only \
	-fno-stack-protector -fno-builtin -fshort-wchar -fno-asynchronous-unwind-tables -Os $(WARN) -Iinclude -Isrc
PROBE32_BIN    := $(B)/probe/ia32/gather.bin
# The PE/COFF wrap: one line, active when the stub is built.
PROBE_STUB   := $(if $(STUB_SRCS),$(B)/handoff-stub.efi)

$(B)/probe/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,PROBECC,$@) $(PROBE_CC) $(PROBE_CFLAGS) -MMD -MP -c $< -o $@

$(B)/probe/ia32/gather.o: src/probe/ia32/gather.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,PROBECC,$@) $(PROBE32_CC) $(PROBE32_CFLAGS) -MMD -MP -c $< -o $@
	@# position independent without a loader: no absolute relocation
	@! llvm-readelf -r $@ | grep -E 'R_386_(32|GOT32X?|RELATIVE) '

$(B)/probe/ia32/gather.elf: $(B)/probe/ia32/gather.o src/probe/ia32/gather.lds
	$(Q)$(call msg,LD,$@) ld.lld -m elf_i386 -static -nostdlib --gc-sections -T src/probe/ia32/gather.lds $< -o $@
	@test "$$(llvm-nm $@ | awk '$$3 == "probe32_gather" {print $$1}')" = 00000000
	@# no data of its own: a flat blob would lose .bss and move .data
	@test -z "$$(llvm-readelf -S $@ | awk '$$2 ~ /^\.(data|bss)/ && $$6 !~ /^0+$$/')"

$(PROBE32_BIN): $(B)/probe/ia32/gather.elf
	$(Q)$(call msg,OBJCOPY,$@) llvm-objcopy -O binary $< $@

$(B)/probe/src/probe/entry.o: src/probe/entry.S $(PROBE32_BIN)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,PROBEAS,$@) $(PROBE_CC) -DGATHER32_BIN='"$(abspath $(PROBE32_BIN))"' -c $< -o $@

$(B)/probe/probe.elf: $(PROBE_OBJS) src/probe/probe.lds
	$(Q)$(call msg,LD,$@) ld.lld -pie --no-dynamic-linker -z norelro -z notext --gc-sections -nostdlib \
		-T src/probe/probe.lds $(PROBE_OBJS) -o $@
	@# self-relocation handles R_X86_64_RELATIVE only
	@! llvm-readelf -r $@ | grep -E 'R_X86_64_' | grep -v R_X86_64_RELATIVE
	@test "$$(llvm-nm $@ | awk '$$3 == "entry64" {print $$1}')" = 0000000000000200
	@test "$$(llvm-nm $@ | awk '$$3 == "handover32" {print $$1}')" = 0000000000000400
	@test "$$(llvm-nm $@ | awk '$$3 == "handover64" {print $$1}')" = 0000000000000600
	@test "$$(llvm-nm $@ | awk '$$3 == "pe32" {print $$1}')" = 0000000000000800

$(B)/probe/probe.bin: $(B)/probe/probe.elf
	$(Q)$(call msg,OBJCOPY,$@) llvm-objcopy -O binary $< $@

$(B)/mkprobe: tests/helpers/mkprobe.c $(HOST_CORE_OBJS) $(B)/host/tool/platform_host.o
	$(Q)$(call msg,LINK,$@) $(HOST_CC) $(HOST_CFLAGS) $^ -o $@

$(B)/probe.img: $(B)/probe/probe.bin $(B)/probe/probe.elf $(B)/mkprobe $(PROBE_STUB)
	$(Q)$(call msg,MKPROBE,$@) $(B)/mkprobe --payload $< -o $@ $(PROBE_IMG_ARGS) \
		--init-size 0x$$(llvm-nm $(B)/probe/probe.elf | awk '$$3 == "_end" {print $$1}') \
		$(if $(PROBE_STUB),--stub $(PROBE_STUB) --compat-entry 0x800)

# The same image without the PE/COFF wrap: what GRUB's and OVMF's own bzImage
# loaders see when the file has no MZ header (the boot tests use both).
$(B)/probe/probe-bare.img: $(B)/probe/probe.bin $(B)/probe/probe.elf $(B)/mkprobe
	$(Q)$(call msg,MKPROBE,$@) $(B)/mkprobe --payload $< -o $@ $(PROBE_IMG_ARGS) \
		--init-size 0x$$(llvm-nm $(B)/probe/probe.elf | awk '$$3 == "_end" {print $$1}')

# Not relocatable, pref_address 1 MiB (where OVMF's pages sit): what handoff
# must load at pref_address or move there (docs/design.md "Kernels that are not
# relocatable"); wrapped like probe.img.
PROBE_NONRELOC_ARGS := $(filter-out --kernel-alignment 0x200000 --pref-address 0x1000000,$(PROBE_IMG_ARGS)) \
	--kernel-alignment 0x100000 --pref-address 0x100000 --relocatable 0
$(B)/probe/probe-nonreloc.img: $(B)/probe/probe.bin $(B)/probe/probe.elf $(B)/mkprobe $(PROBE_STUB)
	$(Q)$(call msg,MKPROBE,$@) $(B)/mkprobe --payload $< -o $@ $(PROBE_NONRELOC_ARGS) \
		--init-size 0x$$(llvm-nm $(B)/probe/probe.elf | awk '$$3 == "_end" {print $$1}') \
		$(if $(PROBE_STUB),--stub $(PROBE_STUB) --compat-entry 0x800)

probe: $(B)/probe.img $(B)/probe/probe-bare.img $(B)/probe/probe-nonreloc.img
.PHONY: probe
all: $(B)/probe/probe-bare.img $(B)/probe/probe-nonreloc.img

clean: clean-probe
clean-probe:
	rm -rf $(B)/probe $(B)/mkprobe
.PHONY: clean-probe
