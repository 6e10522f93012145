/* handoff random-seed, and the seed part of handoff install and status:
 * \loader\random-seed and LoaderSystemToken as bootctl(1) writes them (32
 * random bytes each; the file replaced atomically with mode 0600, the token
 * written once and kept). The loader mixes both with the firmware's RNG and
 * writes a new seed back on every boot (src/efi/random_seed.c). */
#include "random_seed.h"
#include "efivarfs.h"
#include "esp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char help[] =
	"Usage: handoff random-seed [--esp DIR]\n\n"
	"Write 32 new random bytes to DIR/loader/random-seed (mode 0600) and, when\n"
	"it is not set yet, the LoaderSystemToken EFI variable (32 random bytes).\n"
	"The loader mixes both with the firmware's RNG and the boot counter into the\n"
	"seed Linux gets, and writes a new seed back before each boot; this command\n"
	"refreshes the file by hand (an image made before its first boot: run it\n"
	"on each copy). Without --esp, the ESP is found as handoff install finds it.\n";

static long long file_size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

/* LoaderSystemToken: set once (bootctl keeps an existing one of 32 bytes or more). */
static int token_install(bool say_missing)
{
	uint8_t *cur, token[RANDOM_SEED_SIZE];
	size_t len = 0;
	int r;

	if (!is_dir(efivars_dir())) {
		if (say_missing)
			tool_note("LoaderSystemToken not set: %s is missing (not booted with UEFI, or efivarfs not "
				  "mounted)", efivars_dir());
		return 0;
	}
	cur = efivar_read("LoaderSystemToken", LOADER_GUID_STR, &len);
	free(cur);
	if (cur && len >= RANDOM_SEED_SIZE)
		return 0;
	if (random_bytes(token, sizeof(token)) < 0)
		return -1;
	r = efivar_write_mode("LoaderSystemToken", LOADER_GUID_STR, EFIVAR_NV_BS_RT, token, sizeof(token), 0600);
	memset(token, 0, sizeof(token));
	if (r == 0)
		printf("set LoaderSystemToken (%u bytes)\n", RANDOM_SEED_SIZE);
	return r;
}

int random_seed_install(const char *esp, bool refresh)
{
	char *path = path_join(esp, RANDOM_SEED_FILE), *dir = path_join(esp, "loader");
	uint8_t seed[RANDOM_SEED_SIZE];
	bool write = refresh || file_size_of(path) < RANDOM_SEED_SIZE;
	int r = 0;

	if (write && (mkdir_p(dir, 0755) < 0 || random_bytes(seed, sizeof(seed)) < 0 ||
		      write_file_atomic(path, seed, sizeof(seed), 0600) < 0))
		r = -1;
	else if (write)
		printf("%s %s (%u bytes)\n", refresh ? "wrote" : "created", path, RANDOM_SEED_SIZE);
	memset(seed, 0, sizeof(seed));
	if (r == 0)
		r = token_install(write);
	free(dir);
	free(path);
	return r;
}

void random_seed_status(const char *esp, bool efi, struct random_seed_status *ret)
{
	char *path = esp ? path_join(esp, RANDOM_SEED_FILE) : NULL;
	size_t len = 0;
	uint8_t *t = efi ? efivar_read("LoaderSystemToken", LOADER_GUID_STR, &len) : NULL;

	ret->token = t && len >= RANDOM_SEED_SIZE;
	ret->size = path ? file_size_of(path) : -1;
	free(t);
	free(path);
}

int cmd_random_seed(int argc, char **argv)
{
	struct listing_opts o;
	char *esp;
	int r = parse_listing_opts(argc, argv, help, &o);

	if (r >= 0)
		return r;
	if (o.json || o.boot)
		return tool_usage("random-seed takes only --esp DIR");
	if (!(esp = esp_locate(o.esp, /* quiet= */ false)))
		return EXIT_FAIL;
	r = random_seed_install(esp, /* refresh= */ true);
	free(esp);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
