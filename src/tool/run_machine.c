/* handoff run's machines (run_machine.h): x86-64 on q35 with OVMF, AArch64
 * on virt with AAVMF, both under TCG, firmware from Debian's packages. */
#define _GNU_SOURCE
#include "run_machine.h"
#include "core/pe.h"
#include <stdlib.h>

static const char *const x64_fixed[] = {
	"-machine", "q35", "-cpu", "max", "-m", "512", "-accel", "tcg", "-display", "none",
	"-no-reboot", "-net", "none", "-serial", "stdio", "-monitor", "none",
	"-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
};
/* virt has no ISA bus: no isa-debug-exit; Debian's arm64 kernel wants more than 512 MiB */
static const char *const aa64_fixed[] = {
	"-machine", "virt", "-cpu", "cortex-a57", "-m", "1024", "-accel", "tcg", "-display", "none",
	"-no-reboot", "-net", "none", "-serial", "stdio", "-monitor", "none",
};

const struct run_machine run_machine_x64 = {
	"x64", "qemu-system-x86_64", "qemu-system-x86", "HANDOFF_OVMF_DIR", RUN_OVMF_DIR, "ovmf",
	"OVMF_CODE_4M.fd", "OVMF_VARS_4M.fd", "OVMF_CODE.fd", "OVMF_VARS.fd", "BOOTX64.EFI",
	PE_MACHINE_X64, x64_fixed, ARRAY_SIZE(x64_fixed),
};
const struct run_machine run_machine_aa64 = {
	"aa64", "qemu-system-aarch64", "qemu-system-arm", "HANDOFF_AAVMF_DIR", RUN_AAVMF_DIR, "qemu-efi-aarch64",
	"AAVMF_CODE.fd", "AAVMF_VARS.fd", "AAVMF_CODE.fd", "AAVMF_VARS.fd", "BOOTAA64.EFI",
	PE_MACHINE_AA64, aa64_fixed, ARRAY_SIZE(aa64_fixed),
};

/* OVMF or AAVMF where Debian's ovmf or qemu-efi-aarch64 package puts it:
 * CODE read-only, a private VARS copy. */
int run_find_firmware(const struct run_machine *m, const char *work, char **ret_code, char **ret_vars)
{
	const char *dir = getenv(m->fw_env) ? getenv(m->fw_env) : m->fw_dir;
	const char *const pairs[][2] = { { m->code, m->vars }, { m->code2, m->vars2 } };

	for (size_t i = 0; i < 2; i++) {
		char *code = path_join(dir, pairs[i][0]), *vars = path_join(dir, pairs[i][1]);
		if (is_file(code) && is_file(vars)) {
			*ret_code = code;
			*ret_vars = path_join(work, "OVMF_VARS.fd");
			if (copy_file(vars, *ret_vars) < 0) {
				free(vars);
				return -1;
			}
			free(vars);
			return 0;
		}
		free(code);
		free(vars);
	}
	return -tool_fail("UEFI firmware for %s not found in %s (%s, %s): install the Debian package %s", m->name,
			  dir, m->code, m->vars, m->fw_package);
}

char **run_qemu_argv(const struct run_machine *m, const char *code, const char *vars, const char *disk,
		     char **extra, int n_extra)
{
	const char *qemu = getenv("HANDOFF_QEMU") ? getenv("HANDOFF_QEMU") : m->qemu;
	size_t n = 0, max = m->n_fixed + 8 + (size_t)n_extra;
	char **argv = xmalloc(max * sizeof(char *));

	argv[n++] = xstrdup(qemu);
	for (size_t i = 0; i < m->n_fixed; i++)
		argv[n++] = xstrdup(m->fixed[i]);
	argv[n++] = xstrdup("-drive");
	argv[n++] = xasprintf("if=pflash,format=raw,unit=0,readonly=on,file=%s", code);
	argv[n++] = xstrdup("-drive");
	argv[n++] = xasprintf("if=pflash,format=raw,unit=1,file=%s", vars);
	/* snapshot=on: the guest never writes to the user's image. */
	argv[n++] = xstrdup("-drive");
	argv[n++] = xasprintf("format=raw,file=%s,snapshot=on", disk);
	for (int i = 0; i < n_extra; i++)
		argv[n++] = xstrdup(extra[i]);
	argv[n] = NULL;
	return argv;
}
