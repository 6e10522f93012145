/* Dual boot (README "Dual boot"): the automatic entries for other loaders
 * on the ESP (bls_add_os_entries(), src/core/bls_auto.c) as a menu and the
 * Boot Loader Interface see them, and what reboot-for-bitlocker reads
 * (src/core/bootopt.c): Boot#### load options (UEFI 2.10 §3.1.3), their
 * device paths' file node (§10.3.5.4) and BitLocker's signature. */
#include "test.h"
#include "core/bli.h"
#include "core/bls.h"
#include "core/bootopt.h"
#include "core/config.h"
#include <efi/vars.h>
#include <stdlib.h>
#include <string.h>

static void entries_free(struct bls_entry **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bls_entry_free(v[i]);
		free(v[i]);
	}
	free(v);
}

TEST(dualboot_os_entries_ids_titles_paths)
{
	struct bls_entry **v = NULL;
	size_t n = 0;

	CHECK_EQ(bls_add_os_entries(1u << BLS_OS_WINDOWS | 1u << BLS_OS_SHELL | 1u << BLS_OS_DEFAULT, FW_X64, &v, &n),
		 EFI_SUCCESS);
	CHECK_EQ(n, 3);
	CHECK_STR(v[0]->id, "auto-windows");
	CHECK_STR(v[0]->title, "Windows Boot Manager");
	CHECK_STR(v[0]->efi, "/EFI/Microsoft/Boot/bootmgfw.efi");
	CHECK_STR(v[1]->id, "auto-efi-shell");
	CHECK_STR(v[1]->title, "EFI Shell");
	CHECK_STR(v[1]->efi, "/shellx64.efi");
	CHECK_STR(v[2]->id, "auto-efi-default");
	CHECK_STR(v[2]->title, "EFI Default Loader");
	CHECK_STR(v[2]->efi, "/EFI/BOOT/BOOTX64.EFI");
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(v[i]->type, BLS_AUTO);
		CHECK_EQ(v[i]->auto_action, BLS_AUTO_EFI);
		CHECK_STR(v[i]->path, v[i]->efi);
		CHECK(!v[i]->kernel && !v[i]->options && !v[i]->counted);
	}
	/* only what was found; IA-32 firmware's names */
	CHECK_EQ(bls_add_os_entries(1u << BLS_OS_SHELL | 1u << BLS_OS_DEFAULT, FW_IA32, &v, &n), EFI_SUCCESS);
	CHECK_EQ(n, 5);
	CHECK_STR(v[3]->efi, "/shellia32.efi");
	CHECK_STR(v[4]->efi, "/EFI/BOOT/BOOTIA32.EFI");
	CHECK_STR(bls_os_path(BLS_OS_WINDOWS, FW_IA32), "/EFI/Microsoft/Boot/bootmgfw.efi");
	CHECK_EQ(bls_add_os_entries(0, FW_X64, &v, &n), EFI_SUCCESS);
	CHECK_EQ(n, 5);
	entries_free(v, n);
}

/* After the sorted Linux entries; "default", LoaderEntryDefault and
 * LoaderEntryOneShot find them by id as any entry, and LoaderEntries lists them. */
TEST(dualboot_os_entries_can_be_the_default)
{
	static const char *const ids[] = { "debian-6.12", "debian-6.1" };
	struct bls_entry **v = NULL;
	size_t n = 0, idx;
	uint32_t timeout = 5;

	for (size_t i = 0; i < 2; i++) {
		struct bls_entry *e = calloc(1, sizeof(*e));
		e->type = BLS_TYPE1;
		e->id = strdup(ids[i]);
		v = realloc(v, (n + 1) * sizeof(*v));
		v[n++] = e;
	}
	bls_sort(v, n);
	CHECK_EQ(bls_add_os_entries(1u << BLS_OS_WINDOWS | 1u << BLS_OS_SHELL, FW_X64, &v, &n), EFI_SUCCESS);
	CHECK_STR(v[0]->id, "debian-6.12");
	CHECK_STR(v[2]->id, "auto-windows");
	CHECK_STR(v[3]->id, "auto-efi-shell");
	CHECK_EQ(bls_find_default(v, n, "auto-windows"), 2);
	CHECK_EQ(bls_find_default(v, n, "auto-efi-*"), 3);
	CHECK_EQ(bls_find_default(v, n, NULL), 0);
	idx = 0;
	CHECK(bli_apply(&(struct bli_request){ .entry_oneshot = "auto-efi-shell" }, v, n, &timeout, &idx));
	CHECK_EQ(idx, 3);
	idx = 0;
	CHECK(!bli_apply(&(struct bli_request){ .entry_default = "auto-windows" }, v, n, &timeout, &idx));
	CHECK_EQ(idx, 2);
	entries_free(v, n);
}

TEST(dualboot_config_reboot_for_bitlocker)
{
	struct loader_config cfg;

	cfg_init(&cfg);
	CHECK(!cfg.reboot_for_bitlocker); /* systemd-boot's default */
	CHECK(cfg.auto_entries);
	test_log_reset();
	CHECK_EQ(cfg_parse_loader_conf("reboot-for-bitlocker yes\n", 25, "loader.conf", &cfg), EFI_SUCCESS);
	CHECK(cfg.reboot_for_bitlocker);
	CHECK_EQ(test_log_count(), 0);
	cfg_free(&cfg);
	CHECK_EQ(cfg_parse_loader_conf("reboot-for-bitlocker yes\nreboot-for-bitlocker maybe\n", 52, "loader.conf",
					&cfg), EFI_SUCCESS);
	CHECK(cfg.reboot_for_bitlocker); /* the bad value changed nothing */
	CHECK_EQ(cfg.n_errors, 1);
	CHECK_LOG("loader.conf:2: reboot-for-bitlocker 'maybe' is not yes or no");
	cfg_free(&cfg);
	CHECK_EQ(cfg_parse_loader_conf("auto-entries no\n", 16, "loader.conf", &cfg), EFI_SUCCESS);
	CHECK(!cfg.auto_entries);
	cfg_free(&cfg);
}

/* A Boot#### as Windows writes it: HD(1,GPT,...)/\EFI\Microsoft\Boot\bootmgfw.efi, then optional data. */
static const char win_path[] = "\\EFI\\Microsoft\\Boot\\bootmgfw.efi";

static size_t put_utf16(uint8_t *p, const char *s, bool nul)
{
	size_t n = 0;

	for (; *s; s++, n += 2)
		put_le16(p + n, (uint8_t)*s);
	if (nul) {
		put_le16(p + n, 0);
		n += 2;
	}
	return n;
}

/* Returns the option's size; *@ret_fpl: where its file path list begins. */
static size_t windows_option(uint8_t *b, const char *file, size_t *ret_fpl)
{
	size_t at = 6, fpl, file_len = 4 + 2 * (strlen(file) + 1);

	put_le32(b, LOAD_OPTION_ACTIVE);
	at += put_utf16(b + at, "Windows Boot Manager", true);
	fpl = at;
	memset(b + at, 0, 42);
	b[at] = 4, b[at + 1] = 1, put_le16(b + at + 2, 42); /* HD() */
	at += 42;
	b[at] = 4, b[at + 1] = 4, put_le16(b + at + 2, (uint16_t)file_len);
	put_utf16(b + at + 4, file, true);
	at += file_len;
	b[at] = 0x7f, b[at + 1] = 0xff, put_le16(b + at + 2, 4);
	at += 4;
	put_le16(b + 4, (uint16_t)(at - fpl));
	memcpy(b + at, "WINDOWS", 8); /* bootmgfw's optional data */
	*ret_fpl = fpl;
	return at + 8;
}

TEST(dualboot_bootopt_parse_exact)
{
	uint8_t b[256];
	size_t fpl, len = windows_option(b, win_path, &fpl);
	struct boot_option o;

	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK_EQ(o.attributes, LOAD_OPTION_ACTIVE);
	CHECK(o.description == b + 6);
	CHECK_EQ(o.description_size, 2 * strlen("Windows Boot Manager"));
	CHECK(o.file_path_list == b + fpl);
	CHECK_EQ(o.file_path_list_size, 42 + 4 + 2 * (strlen(win_path) + 1) + 4);
	CHECK(o.optional_data == b + len - 8);
	CHECK_EQ(o.optional_data_size, 8);
	CHECK(bootopt_boots_file(&o, BLS_WINDOWS_PATH)); /* '/' and '\' alike */
	CHECK(bootopt_boots_file(&o, "/efi/microsoft/boot/BOOTMGFW.EFI"));
	CHECK(!bootopt_boots_file(&o, "/EFI/Microsoft/Boot/bootmgfw.ef"));
	CHECK(!bootopt_boots_file(&o, "/EFI/Microsoft/Boot/bootmgfw.efi.bak"));
	CHECK(!bootopt_boots_file(&o, "/shellx64.efi"));
	/* every truncation short of the optional data is refused, none reads past it */
	for (size_t cut = 0; cut < len - 8; cut++)
		CHECK_EQ(bootopt_parse(b, cut, &o), EFI_INVALID_PARAMETER);
	CHECK_EQ(bootopt_parse(b, len - 8, &o), EFI_SUCCESS);
	CHECK_EQ(o.optional_data_size, 0);
}

TEST(dualboot_bootopt_bad_lengths)
{
	uint8_t b[256];
	size_t fpl, len = windows_option(b, win_path, &fpl), file_at = fpl + 42;
	struct boot_option o;

	/* FilePathListLength one byte past the variable */
	put_le16(b + 4, (uint16_t)(len - fpl + 1));
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_INVALID_PARAMETER);
	/* a list that stops before its end node: no match */
	put_le16(b + 4, 42 + 8);
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK(!bootopt_boots_file(&o, BLS_WINDOWS_PATH));
	windows_option(b, win_path, &fpl);
	/* a node shorter than its header, or longer than the list */
	put_le16(b + file_at + 2, 3);
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK(!bootopt_boots_file(&o, BLS_WINDOWS_PATH));
	put_le16(b + file_at + 2, 0xffff);
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK(!bootopt_boots_file(&o, BLS_WINDOWS_PATH));
	/* the file node's name without its NUL (a node two bytes shorter) still names it */
	windows_option(b, win_path, &fpl);
	put_le16(b + file_at + 2, (uint16_t)(4 + 2 * strlen(win_path)));
	memmove(b + file_at + 4 + 2 * strlen(win_path), b + file_at + 4 + 2 * strlen(win_path) + 2, 12);
	put_le16(b + 4, (uint16_t)(get_le16(b + 4) - 2));
	CHECK_EQ(bootopt_parse(b, len - 2, &o), EFI_SUCCESS);
	CHECK(bootopt_boots_file(&o, BLS_WINDOWS_PATH));
	/* a description without its NUL */
	memset(b, 'A', sizeof(b));
	put_le16(b + 4, 0);
	CHECK_EQ(bootopt_parse(b, sizeof(b), &o), EFI_INVALID_PARAMETER);
	CHECK_EQ(bootopt_parse(b, 7, &o), EFI_INVALID_PARAMETER);
}

/* The file node must be the last before the end; a name beyond ASCII is no match. */
TEST(dualboot_bootopt_file_node_position)
{
	uint8_t b[256];
	size_t fpl, len = windows_option(b, win_path, &fpl), end_at = len - 8 - 4;
	struct boot_option o;

	b[end_at] = 4, b[end_at + 1] = 3; /* a vendor node where the end node was: no end at all */
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK(!bootopt_boots_file(&o, BLS_WINDOWS_PATH));
	len = windows_option(b, win_path, &fpl);
	b[end_at + 1] = 0x01; /* the end of an instance ends the first path too */
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK(bootopt_boots_file(&o, BLS_WINDOWS_PATH));
	len = windows_option(b, win_path, &fpl);
	put_le16(b + fpl + 42 + 4 + 2, 0x0130); /* "\İFI\..." */
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK(!bootopt_boots_file(&o, "/IFI/Microsoft/Boot/bootmgfw.efi"));
	CHECK(!bootopt_boots_file(&o, BLS_WINDOWS_PATH));
	len = windows_option(b, "\\EFI\\ubuntu\\shimx64.efi", &fpl);
	CHECK_EQ(bootopt_parse(b, len, &o), EFI_SUCCESS);
	CHECK(!bootopt_boots_file(&o, BLS_WINDOWS_PATH));
}

TEST(dualboot_bitlocker_signature)
{
	uint8_t s[512] = { 0xeb, 0x58, 0x90 };

	CHECK(!bootopt_bitlocker(s, sizeof(s)));
	memcpy(s + 3, "-FVE-FS-", 8);
	CHECK(bootopt_bitlocker(s, sizeof(s)));
	CHECK(bootopt_bitlocker(s, 11));
	CHECK(!bootopt_bitlocker(s, 10));
	memcpy(s + 3, "NTFS    ", 8);
	CHECK(!bootopt_bitlocker(s, sizeof(s)));
	memcpy(s + 2, "-FVE-FS-", 8); /* at the wrong offset */
	CHECK(!bootopt_bitlocker(s, sizeof(s)));
}

TEST(dualboot_path_eq)
{
	CHECK(bootopt_path_eq("/EFI/Microsoft/Boot/bootmgfw.efi", "\\efi\\microsoft\\boot\\BOOTMGFW.EFI"));
	CHECK(!bootopt_path_eq("/EFI/Microsoft/Boot/bootmgfw.efi", "/EFI/Microsoft/Boot/bootmgfw.efi2"));
	CHECK(!bootopt_path_eq("/EFI/Microsoft/Boot/bootmgfw.ef", "/EFI/Microsoft/Boot/bootmgfw.efi"));
	CHECK(bootopt_path_eq("", ""));
}
