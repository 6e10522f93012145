/* Boot counting on the booted system (bless.h). LoaderBootCountPath is a
 * path from the root of the partition the entry was found on; systemd's
 * interface does not say which, so the ESP (the one the loader started
 * from, when its PARTUUID can be read) and the file system holding /boot
 * (XBOOTLDR, or a FAT /boot) are tried in turn, as systemd-bless-boot tries
 * the ESP and XBOOTLDR. Renames never replace a file (RENAME_NOREPLACE). */
#define _GNU_SOURCE
#include "bless.h"
#include "efivarfs.h"
#include "entry.h"
#include "esp.h"
#include "readers.h"
#include "core/bls_count.h"
#include "core/gpt.h"
#include "core/guid.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* systemd-bless-boot marks a counted boot whenever its package is installed
 * (its generator pulls the static unit in whoever the loader is), unless the
 * unit or the generator is masked: a symlink to /dev/null or an empty file in
 * /etc or /run (systemd.unit(5)). handoff-bless-boot-generator decides alike. */
static bool systemd_masked(const char *name)
{
	static const char *const dirs[] = { "/etc/systemd/", "/run/systemd/" };
	struct stat st;
	char path[128];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], name);
		if (stat(path, &st) == 0 && st.st_size == 0)
			return true;
	}
	return false;
}

const char *bless_by(void)
{
	static const char *const binaries[] = { "/lib/systemd/systemd-bless-boot",
						"/usr/lib/systemd/systemd-bless-boot" };

	if (systemd_masked("system/systemd-bless-boot.service") ||
	    systemd_masked("system-generators/systemd-bless-boot-generator"))
		return "handoff bless";
	for (size_t i = 0; i < sizeof(binaries) / sizeof(binaries[0]); i++)
		if (access(binaries[i], X_OK) == 0)
			return "systemd-bless-boot";
	return "handoff bless";
}

const char *bless_state_name(enum bless_state s)
{
	static const char *const names[] = { "clean", "indeterminate", "good", "bad" };

	return s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

/* Split the relative path into its directory and the three names. */
static int parse_var(struct bless_info *b)
{
	const char *why = NULL, *suffix;
	char *rel = count_path_relative(b->var, &why), *slash;
	struct bls_counter c;
	size_t n;

	if (!rel)
		return tool_fail("LoaderBootCountPath '%s': %s", b->var, why), -1;
	slash = strrchr(rel, '/');
	b->booted = xstrdup(slash ? slash + 1 : rel);
	b->dir = slash ? (*slash = '\0', xstrdup(rel)) : xstrdup("");
	free(rel);
	n = strlen(b->booted);
	suffix = n > 4 && strcasecmp(b->booted + n - 4, ".efi") == 0 ? ".efi" : ".conf";
	bls_count_parse(b->booted, suffix, &c);
	if (!c.counted)
		return tool_fail("LoaderBootCountPath '%s': %s has no boot counter (+LEFT-DONE%s)", b->var, b->booted,
				 suffix), -1;
	b->left = c.left;
	b->done = c.done;
	b->good = bls_count_good_name(b->booted, &c);
	b->bad = bls_count_bad_name(b->booted, &c);
	b->id = strndup(b->booted, c.base_len);
	if (!b->good || !b->bad || !b->id) {
		fputs("handoff: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	return 0;
}

/* The ESP is a candidate unless it is known not to be the loader's. */
static bool esp_is_loaders(const char *esp)
{
	char *want = efivar_read_str("LoaderDevicePartUUID", LOADER_GUID_STR);
	EFI_GUID type, uuid, w;
	bool r = true;

	if (want && guid_parse(want, strlen(want), &w) && esp_is_mounted(esp) &&
	    partition_gpt_ids(esp, &type, &uuid) == 0)
		r = guid_equal(&w, &uuid);
	free(want);
	return r;
}

static void find_roots(struct bless_info *b, const char *esp_opt, const char *boot_opt)
{
	char *esp = esp_locate(esp_opt, /* quiet= */ true);
	const char *boot = boot_opt ? boot_opt : BOOT_DIR_DEFAULT;
	char *broot = is_dir(boot) ? fs_root_of(boot) : NULL;

	if (esp && esp_is_loaders(esp))
		b->roots[b->n_roots++] = TAKE_PTR(esp);
	if (broot && !(b->n_roots && same_file(broot, b->roots[0])))
		b->roots[b->n_roots++] = TAKE_PTR(broot);
	free(esp);
	free(broot);
}

static bool exists_in(const char *root, const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s%s%s", root, dir, *dir ? "/" : "", name);
	bool r = access(p, F_OK) == 0;

	free(p);
	return r;
}

/* systemd-bless-boot status's order: still counting, then good, then bad. */
static void find_state(struct bless_info *b)
{
	const char *const names[] = { b->booted, b->good, b->bad };
	static const enum bless_state states[] = { BLESS_INDETERMINATE, BLESS_GOOD, BLESS_BAD };

	b->state = BLESS_NOT_FOUND;
	for (size_t r = 0; r < b->n_roots; r++)
		for (size_t i = 0; i < 3; i++)
			if (exists_in(b->roots[r], b->dir, names[i])) {
				b->root = b->roots[r];
				b->state = states[i];
				return;
			}
}

int bless_load(const char *esp_opt, const char *boot_opt, struct bless_info *ret)
{
	*ret = (struct bless_info){ .state = BLESS_CLEAN };
	ret->var = efivar_read_str("LoaderBootCountPath", LOADER_GUID_STR);
	if (!ret->var)
		return 0;
	if (parse_var(ret) < 0)
		return -1;
	find_roots(ret, esp_opt, boot_opt);
	find_state(ret);
	return 0;
}

void bless_info_free(struct bless_info *b)
{
	free(b->var);
	free(b->dir);
	free(b->booted);
	free(b->good);
	free(b->bad);
	free(b->id);
	for (size_t i = 0; i < b->n_roots; i++)
		free(b->roots[i]);
	*b = (struct bless_info){ 0 };
}

/* @from to @to in @dfd without replacing: 1 renamed, 0 @from missing, -1 errno (EEXIST: @to is there). */
static int rename_new(int dfd, const char *from, const char *to)
{
	if (renameat2(dfd, from, dfd, to, RENAME_NOREPLACE) == 0)
		return 1;
	if (errno == EINVAL) { /* a file system without the flag: look first (nothing else renames these) */
		if (faccessat(dfd, to, F_OK, 0) == 0)
			return errno = EEXIST, -1;
		if (renameat(dfd, from, dfd, to) == 0)
			return 1;
	}
	return errno == ENOENT ? 0 : -1;
}

/* In one partition: 1 done (renamed, or marked already), 0 none of the files there, -1 failed. */
static int mark_in(const struct bless_info *b, const char *root, const char *target, const char *other)
{
	char *dir = xasprintf("%s/%s", root, b->dir);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;
	const char *from = b->booted;

	if (dfd < 0) {
		free(dir);
		return 0;
	}
	r = rename_new(dfd, from, target);
	if (r == 0)
		r = rename_new(dfd, from = other, target);
	if (r == 0 && faccessat(dfd, target, F_OK, 0) == 0)
		r = 2; /* marked before */
	if (r < 0 && errno == EEXIST)
		r = 2;
	else if (r < 0)
		tool_fail("%s/%s: cannot rename to %s: %s", dir, from, target, strerror(errno));
	if (r == 1) {
		fsync(dfd); /* the rename is on the disk before anything else happens (FAT has no journal) */
		printf("renamed %s/%s to %s\n", dir, from, target);
	}
	close(dfd);
	free(dir);
	return r > 0 ? 1 : r;
}

int bless_mark(struct bless_info *b, bool good)
{
	const char *target = good ? b->good : b->bad, *other = good ? b->bad : b->good;

	for (size_t i = 0; i < b->n_roots; i++) {
		int r = mark_in(b, b->roots[i], target, other);

		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	return tool_fail("LoaderBootCountPath '%s': none of %s, %s, %s in %s/ of %s%s%s", b->var, b->booted, b->good,
			 b->bad, *b->dir ? b->dir : ".", b->n_roots ? b->roots[0] : "no ESP found",
			 b->n_roots > 1 ? " or " : "", b->n_roots > 1 ? b->roots[1] : ""), -1;
}
