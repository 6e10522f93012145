/* handoff disk --arch (disk_arch.h): the machines a disk can be for, and
 * handoff's loader for one put on the finished image's ESP with mtools. */
#define _GNU_SOURCE
#include "disk_arch.h"
#include "loader_src.h"
#include "core/pe.h"
#include <stdio.h>
#include <stdlib.h>

const struct disk_arch disk_arch_x64 = { "EFI/BOOT/BOOTX64.EFI", PE_MACHINE_X64, loader_find,
					 "Linux root (x86-64)", GPT_TYPE_ROOT_X64 };
const struct disk_arch disk_arch_aa64 = { "EFI/BOOT/BOOTAA64.EFI", PE_MACHINE_AA64, loaderaa64_find,
					  "Linux root (AArch64)", GPT_TYPE_ROOT_AA64 };

/* --arch: handoff's loader for the machine as the ESP's fallback loader,
 * unless the ESP tree @esp_dir brings one. */
int disk_add_fallback(const char *img, const struct gpt_part *esp, const char *esp_dir, const struct disk_arch *arch)
{
	char *have = path_join(esp_dir, arch->fallback), *efi = path_join(esp_dir, "EFI");
	char *boot = path_join(efi, "BOOT");
	char *target = xasprintf("%s@@%llu", img, (unsigned long long)(esp->first_lba * GPT_SECTOR_SIZE));
	char *dest = xasprintf("::/%s", arch->fallback);
	char *tmp = NULL, *file = NULL;
	struct loader_src src = { 0 };
	int r = 0;

	if (!is_file(have)) {
		r = loader_src_load(NULL, arch->find, arch->machine, &src);
		if (r == 0 && !(tmp = tmpdir_create("disk")))
			r = -1;
		if (r == 0)
			r = write_file_atomic(file = path_join(tmp, "loader.efi"), src.buf, src.len, 0644);
		if (r == 0 && !is_dir(efi))
			r = run_command("mmd", (char *[]){ "mmd", "-i", target, "::/EFI", NULL });
		if (r == 0 && !is_dir(boot))
			r = run_command("mmd", (char *[]){ "mmd", "-i", target, "::/EFI/BOOT", NULL });
		if (r == 0)
			r = run_command("mcopy", (char *[]){ "mcopy", "-Q", "-i", target, file, dest, NULL });
		if (r == 0)
			printf("the ESP's /%s: %s\n", arch->fallback, src.path);
		loader_src_free(&src);
	}
	if (tmp)
		rm_rf(tmp);
	free(tmp);
	free(file);
	free(dest);
	free(target);
	free(boot);
	free(efi);
	free(have);
	return r < 0 ? -1 : 0;
}
