# bench/bench.mk — included from the Makefile (`-include bench/bench.mk`).
# build/bench/readbench.efi: the initrd read-time measurement app (bench/readbench.c),
# compiled and linked exactly like handoff.efi, against the same libhandoff.a.
$(B)/bench/readbench.o: bench/readbench.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CC,$@) $(EFI_CC) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

$(B)/bench/readbench.efi: $(B)/bench/readbench.o $(EFI_LIB)
	$(Q)$(call msg,LINK,$@) $(EFI_LD) $(EFI_LDFLAGS) /out:$@ $^
