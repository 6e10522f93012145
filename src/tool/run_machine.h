/* handoff run --arch: the machines QEMU emulates for it (cmd_run.c). */
#ifndef TOOL_RUN_MACHINE_H
#define TOOL_RUN_MACHINE_H

#include "tool.h"

#define RUN_OVMF_DIR "/usr/share/OVMF"
#define RUN_AAVMF_DIR "/usr/share/AAVMF"

/* The emulated machine: QEMU, its firmware (Debian's packages) and where the
 * firmware looks for a removable medium's loader (UEFI 2.10 §3.5.1.1). */
struct run_machine {
	const char *name, *qemu, *qemu_package, *fw_env, *fw_dir, *fw_package, *code, *vars, *code2, *vars2;
	const char *fallback;
	uint16_t pe_machine;
	const char *const *fixed; /* QEMU's machine arguments */
	size_t n_fixed;
};

extern const struct run_machine run_machine_x64, run_machine_aa64;

/**
 * run_find_firmware() - @m's firmware: its CODE file (@ret_code) and a copy
 * of its VARS template in @work (@ret_vars), the guest's to change.
 * Return: 0 or -1 (printed, naming the package).
 */
int run_find_firmware(const struct run_machine *m, const char *work, char **ret_code, char **ret_vars);

/** run_qemu_argv() - QEMU's argv (NULL-terminated, each string allocated) for @m booting @disk. */
char **run_qemu_argv(const struct run_machine *m, const char *code, const char *vars, const char *disk,
		     char **extra, int n_extra);

#endif
