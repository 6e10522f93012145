/* install --variables yes: a Boot#### load option for \EFI\handoff\handoffx64.efi
 * on the ESP's partition, first in BootOrder (UEFI 2.10 §3.1.1 "Boot Manager
 * Programming", §3.1.3 EFI_LOAD_OPTION, §10.3.5.1 hard drive media device
 * path, §10.3.5.4 file path), written through efivarfs (4 attribute bytes,
 * then the data, in one write: efivarfs.c). An identical Boot#### is reused, so a second
 * install changes nothing. HANDOFF_EFIVARS_DIR and HANDOFF_ESP_PARTITION
 * ("N:START:SIZE:PARTUUID") stand in for the system's in tests. */
#define _GNU_SOURCE
#include "efivarfs.h"
#include "esp.h"
#include "readers.h"
#include "core/gpt.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#define EFIVARS_DIR "/sys/firmware/efi/efivars"
#define GLOBAL_GUID EFI_GLOBAL_GUID_STR
#define VAR_ATTRS 0x7u /* NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
#define LOAD_OPTION_ACTIVE 0x1u
#define MSDOS_SUPER_MAGIC 0x4d44
#define LOADER_DIR "\\EFI\\handoff\\"
#define DESCRIPTION "handoff"

struct esp_part {
	uint32_t number;
	uint64_t start, size; /* 512-byte sectors */
	uint8_t guid[16];     /* on-disk byte order */
};

static bool parse_guid(const char *s, uint8_t out[16])
{
	unsigned int d1, d2, d3, b[8];
	EFI_GUID g;

	if (strlen(s) != 36 || sscanf(s, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &d1, &d2, &d3, &b[0], &b[1], &b[2],
				      &b[3], &b[4], &b[5], &b[6], &b[7]) != 11)
		return false;
	g.Data1 = d1;
	g.Data2 = (uint16_t)d2;
	g.Data3 = (uint16_t)d3;
	for (int i = 0; i < 8; i++)
		g.Data4[i] = (uint8_t)b[i];
	guid_put(out, &g);
	return true;
}

/* The by-partuuid link that resolves to /dev/@devname. */
static bool partuuid_of(const char *devname, uint8_t guid[16])
{
	DIR *d = opendir("/dev/disk/by-partuuid");
	struct dirent *e;
	char *want = xasprintf("/dev/%s", devname), real[PATH_MAX];
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		char *link = path_join("/dev/disk/by-partuuid", e->d_name);
		if (realpath(link, real) && strcmp(real, want) == 0)
			found = parse_guid(e->d_name, guid);
		free(link);
	}
	if (d)
		closedir(d);
	free(want);
	return found;
}

static int esp_partition(const char *esp, struct esp_part *p)
{
	const char *fake = getenv("HANDOFF_ESP_PARTITION");
	char uuid[40], *sys, devname[64] = "";
	unsigned long long n, start, size;
	struct statfs sfs;
	struct stat st;
	uint64_t num;
	bool ok;

	if (fake) {
		if (sscanf(fake, "%llu:%llu:%llu:%39s", &n, &start, &size, uuid) != 4 || !parse_guid(uuid, p->guid))
			return tool_fail("HANDOFF_ESP_PARTITION '%s': expected N:START:SIZE:PARTUUID", fake), -1;
		p->number = (uint32_t)n;
		p->start = start;
		p->size = size;
		return 0;
	}
	if (statfs(esp, &sfs) < 0 || stat(esp, &st) < 0)
		return tool_fail("%s: %s", esp, strerror(errno)), -1;
	if (sfs.f_type != MSDOS_SUPER_MAGIC)
		return tool_fail("%s: not on a FAT file system, so not a mounted ESP: no Boot#### entry written", esp),
		       -1;
	sys = xasprintf("/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	ok = sysfs_u64(sys, "partition", &num) && sysfs_u64(sys, "start", &p->start) &&
	     sysfs_u64(sys, "size", &p->size);
	if (ok) {
		char *uevent = path_join(sys, "uevent"), line[128];
		FILE *f = fopen(uevent, "re");
		while (f && fgets(line, sizeof(line), f))
			if (strncmp(line, "DEVNAME=", 8) == 0)
				snprintf(devname, sizeof(devname), "%.*s", (int)strcspn(line + 8, "\n"), line + 8);
		if (f)
			fclose(f);
		free(uevent);
		ok = *devname && partuuid_of(devname, p->guid);
	}
	free(sys);
	if (!ok)
		return tool_fail("%s: cannot tell its GPT partition (number, start, size, PARTUUID) from sysfs", esp),
		       -1;
	p->number = (uint32_t)num;
	return 0;
}

static void put_ucs2(struct strbuf *sb, const char *s)
{
	for (; ; s++) {
		uint8_t c[2];
		put_le16(c, (uint8_t)*s);
		sb_putn(sb, (const char *)c, 2);
		if (!*s)
			break;
	}
}

/* EFI_LOAD_OPTION: attributes, FilePathListLength, description, then
 * HD(part, GPT, PARTUUID)/File(\EFI\handoff\handoffx64.efi)/End. */
static void load_option(const struct esp_part *p, const char *loader_path, struct strbuf *out)
{
	uint8_t hd[42] = { 4, 1, 42, 0 }, file_hdr[4] = { 4, 4 }, end[4] = { 0x7f, 0xff, 4, 0 }, head[6];
	uint16_t file_len = (uint16_t)(4 + 2 * (strlen(loader_path) + 1));

	put_le32(hd + 4, p->number);
	put_le64(hd + 8, p->start);
	put_le64(hd + 16, p->size);
	memcpy(hd + 24, p->guid, 16);
	hd[40] = 0x02; /* MBRType: GPT */
	hd[41] = 0x02; /* SignatureType: GUID */
	put_le16(file_hdr + 2, file_len);
	put_le32(head, LOAD_OPTION_ACTIVE);
	put_le16(head + 4, (uint16_t)(sizeof(hd) + file_len + sizeof(end)));
	sb_putn(out, (const char *)head, sizeof(head));
	put_ucs2(out, DESCRIPTION);
	sb_putn(out, (const char *)hd, sizeof(hd));
	sb_putn(out, (const char *)file_hdr, sizeof(file_hdr));
	put_ucs2(out, loader_path);
	sb_putn(out, (const char *)end, sizeof(end));
}

/* An existing Boot#### with exactly @opt, else the lowest unused number. */
static int pick_boot_number(const struct strbuf *opt, bool *ret_exists)
{
	int free_num = -1;

	for (int i = 0; i <= 0xffff; i++) {
		char name[16];
		size_t len = 0;
		uint8_t *cur;

		bool absent;

		snprintf(name, sizeof(name), "Boot%04X", (unsigned)i);
		cur = efivar_read(name, GLOBAL_GUID, &len);
		absent = cur == NULL;
		if (absent && free_num < 0)
			free_num = i;
		if (!absent && len == opt->len && memcmp(cur, opt->buf, len) == 0) {
			free(cur);
			*ret_exists = true;
			return i;
		}
		free(cur);
		if (absent && free_num >= 0 && i > free_num + 64)
			break; /* numbers are dense in practice: stop after a run of free ones */
	}
	*ret_exists = false;
	return free_num;
}

static int boot_order_first(uint16_t num)
{
	size_t len = 0, n = 0;
	uint8_t *cur = efivar_read("BootOrder", GLOBAL_GUID, &len);
	uint8_t *order = xmalloc(len + 2);
	int r = 0;

	if (cur && len >= 2 && get_le16(cur) == num) {
		free(cur);
		free(order);
		return 0;
	}
	n = boot_order_put_first(cur, len, num, order);
	r = efivar_write("BootOrder", GLOBAL_GUID, VAR_ATTRS, order, n);
	if (r == 0)
		printf("BootOrder: Boot%04X first\n", num);
	free(cur);
	free(order);
	return r;
}

const char *efivars_dir(void)
{
	const char *env = getenv("HANDOFF_EFIVARS_DIR");

	return env && *env ? env : EFIVARS_DIR;
}

bool firmware_is_ia32(void)
{
	char *size_path = path_join(efivars_dir(), "../fw_platform_size"), *text = NULL;
	size_t n;
	bool fw32 = false;

	if (read_file_opt(size_path, 16, (uint8_t **)&text, &n) == 0 && text)
		fw32 = n >= 2 && memcmp(text, "32", 2) == 0;
	free(text);
	free(size_path);
	return fw32;
}

int efivar_add_boot_entry(const char *esp, const char *loader_name)
{
	char *loader_path;
	const char *dir = efivars_dir();
	struct strbuf opt = { 0 };
	struct esp_part part;
	char name[16];
	bool exists;
	int num, r = EXIT_FAIL;

	if (!is_dir(dir))
		return tool_fail("--variables yes: %s is missing (not booted with UEFI, or efivarfs not mounted)", dir);
	if (esp_partition(esp, &part) < 0)
		return EXIT_FAIL;
	loader_path = xasprintf(LOADER_DIR "%s", loader_name);
	load_option(&part, loader_path, &opt);
	num = pick_boot_number(&opt, &exists);
	if (num < 0) {
		sb_free(&opt);
		free(loader_path);
		return tool_fail("%s: no free Boot#### number", dir);
	}
	snprintf(name, sizeof(name), "Boot%04X", (unsigned)num);
	if (!exists && efivar_write(name, GLOBAL_GUID, VAR_ATTRS, opt.buf, opt.len) == 0) {
		printf("%s: " DESCRIPTION " (%s)\n", name, loader_path);
		exists = true;
	}
	if (exists && boot_order_first((uint16_t)num) == 0)
		r = EXIT_OK;
	sb_free(&opt);
	free(loader_path);
	return r;
}
