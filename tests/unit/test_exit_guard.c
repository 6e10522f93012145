/* exit_guard_call() against the fake firmware: an entry that returns, one that
 * gives up by Exit() on its handle (back to the caller, the code after Exit()
 * never runs, ExitData reported and freed), Exit() of another handle (the
 * firmware's), a table it must not touch; and an entry that called
 * ExitBootServices, successfully or not, then gave up or returned: the
 * firmware's ExitBootServices saw the call, and the machine resets with the
 * reason said where ConOut is left, never back to the caller. */
#include "test.h"
#include "fake_fw.h"
#include "core/crc32.h"
#include "efi/exit_guard.h"
#include <stdlib.h>

#define KERNEL_HANDLE ((EFI_HANDLE)(uintptr_t)0x4b00)

struct entry {
	EFI_BOOT_SERVICES *bs;
	bool exit_boot;         /* call ExitBootServices first, with ... */
	UINTN map_key;          /* ... this key */
	EFI_STATUS exit_boot_status;
	EFI_HANDLE exit_handle; /* NULL: return instead */
	EFI_STATUS status;
	CHAR16 *data;
	UINTN data_size;
	int runs;
	bool after_exit;        /* the entry went on after its Exit() */
};

static void kernel_entry(void *ctx)
{
	struct entry *e = ctx;

	e->runs++;
	if (e->exit_boot)
		e->exit_boot_status = e->bs->ExitBootServices(KERNEL_HANDLE, e->map_key);
	if (e->exit_handle)
		e->bs->Exit(e->exit_handle, e->status, e->data_size, e->data);
	e->after_exit = e->exit_handle != NULL;
}

static struct fake_fw *fw_new(void)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));

	fake_fw_init(fw, 4);
	fw->bs.Hdr.CRC32 = crc32(0, &fw->bs, sizeof(fw->bs));
	return fw;
}

/* The table as the firmware left it: its own Exit() and ExitBootServices()
 * and a valid CRC32, every byte as in @before. */
static void check_table_restored(struct fake_fw *fw, const EFI_BOOT_SERVICES *before)
{
	uint32_t want = fw->bs.Hdr.CRC32;

	CHECK(memcmp(&fw->bs, before, sizeof(*before)) == 0);
	fw->bs.Hdr.CRC32 = 0;
	CHECK_EQ(crc32(0, &fw->bs, fw->bs.Hdr.HeaderSize), want);
	fw->bs.Hdr.CRC32 = want;
}

static CHAR16 *pool_str16(const char *s)
{
	CHAR16 *p = malloc((strlen(s) + 1) * sizeof(CHAR16));

	for (size_t i = 0; p && i <= strlen(s); i++)
		p[i] = (CHAR16)s[i];
	return p;
}

TEST(exit_guard_an_entry_that_returns)
{
	struct fake_fw *fw = fw_new();
	EFI_BOOT_SERVICES firmware = fw->bs;
	struct entry e = { .bs = &fw->bs };
	struct exit_guard g;

	CHECK(!exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, &e));
	CHECK_EQ(e.runs, 1);
	check_table_restored(fw, &firmware);
	CHECK_EQ(fw->n_image_exit, 0);
	free(fw);
}

TEST(exit_guard_exit_on_the_handle_comes_back_to_the_caller)
{
	struct fake_fw *fw = fw_new();
	EFI_BOOT_SERVICES firmware = fw->bs;
	struct entry e = { .bs = &fw->bs, .exit_handle = KERNEL_HANDLE, .status = EFI_OUT_OF_RESOURCES };
	struct exit_guard g;

	e.data = pool_str16("Failed to decompress kernel\nbinary tail");
	e.data_size = 28 * sizeof(CHAR16);
	test_log_reset();
	CHECK(exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, &e));
	CHECK_EQ(e.runs, 1);
	CHECK(!e.after_exit);
	CHECK_EQ(g.status, EFI_OUT_OF_RESOURCES);
	CHECK_EQ(fw->n_image_exit, 0); /* the firmware's Exit() never saw it */
	check_table_restored(fw, &firmware);
	CHECK_EQ(exit_guard_report(&g, "/vmlinuz"), EFI_OUT_OF_RESOURCES);
	CHECK_LOG("/vmlinuz: the kernel's EFI stub gave up (Exit: EFI_OUT_OF_RESOURCES): Failed to decompress kernel");
	CHECK_EQ(fw->n_free_pool, 1); /* ExitData is the caller's to free (§7.4.5) */
	/* again, and Exit(EFI_SUCCESS) is still a failure to boot */
	e = (struct entry){ .bs = &fw->bs, .exit_handle = KERNEL_HANDLE, .status = EFI_SUCCESS };
	CHECK(exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, &e));
	CHECK(!e.after_exit);
	CHECK_EQ(exit_guard_report(&g, "/vmlinuz"), EFI_LOAD_ERROR);
	CHECK_EQ(fw->n_free_pool, 1);
	check_table_restored(fw, &firmware);
	free(fw);
}

TEST(exit_guard_exit_of_another_handle_is_the_firmwares)
{
	struct fake_fw *fw = fw_new();
	EFI_BOOT_SERVICES firmware = fw->bs;
	EFI_HANDLE other = (EFI_HANDLE)(uintptr_t)0x5c00;
	struct entry e = { .bs = &fw->bs, .exit_handle = other, .status = EFI_ABORTED };
	struct exit_guard g;

	CHECK(!exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, &e));
	CHECK_EQ(fw->n_image_exit, 1);
	CHECK(fw->last_exit_image == other);
	CHECK_EQ(fw->last_exit_status, EFI_ABORTED);
	CHECK(e.after_exit); /* the fake firmware's Exit() returns */
	check_table_restored(fw, &firmware);
	free(fw);
}

TEST(exit_guard_leaves_an_unbelievable_table_alone)
{
	for (int big = 0; big < 2; big++) {
		struct fake_fw *fw = fw_new();
		struct entry e = { .bs = &fw->bs, .exit_handle = KERNEL_HANDLE, .status = EFI_LOAD_ERROR };
		EFI_BOOT_SERVICES before;
		struct exit_guard g;

		fw->bs.Hdr.HeaderSize = big ? 1u << 20 : sizeof(fw->bs) - 8;
		memcpy(&before, &fw->bs, sizeof(before));
		CHECK(!exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, &e));
		CHECK_EQ(fw->n_image_exit, 1); /* unguarded: straight to the firmware */
		CHECK(memcmp(&before, &fw->bs, sizeof(before)) == 0);
		free(fw);
	}
}

/* Runs exit_guard_call() to its end: the reset (the fake's ResetSystem
 * long-jumps here), or a return, which after ExitBootServices is a failure. */
static void call_until_reset(struct fake_fw *fw, struct entry *e)
{
	struct exit_guard g;
	jmp_buf reset;

	fw->reset_jmp = &reset;
	if (setjmp(reset) == 0) {
		exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, e);
		test_fail(__FILE__, __LINE__, "exit_guard_call() came back after ExitBootServices");
	}
	fw->reset_jmp = NULL;
}

TEST(exit_guard_exit_after_a_failed_exit_boot_services_resets)
{
	struct fake_fw *fw = fw_new();
	EFI_BOOT_SERVICES firmware = fw->bs;
	struct entry e = { .bs = &fw->bs, .exit_boot = true, .map_key = 0xbad, .exit_handle = KERNEL_HANDLE,
			   .status = EFI_LOAD_ERROR };

	test_log_reset();
	call_until_reset(fw, &e);
	/* the firmware's ExitBootServices had the call, and refused the key */
	CHECK_EQ(fw->n_exit, 1);
	CHECK_EQ(fw->last_exit_key, 0xbad);
	CHECK_EQ(e.exit_boot_status, EFI_INVALID_PARAMETER);
	/* the Exit() reset the machine: neither the firmware's Exit() nor the entry went on */
	CHECK_EQ(fw->n_image_exit, 0);
	CHECK(!e.after_exit);
	CHECK_EQ(fw->n_reset, 1);
	CHECK_EQ(fw->last_reset_type, EfiResetCold);
	CHECK_EQ(fw->last_reset_status, EFI_LOAD_ERROR);
	CHECK_LOG("the kernel's EFI stub gave up after ExitBootServices (EFI_LOAD_ERROR): resetting");
	CHECK_EQ(test_log_count(), 1);
	check_table_restored(fw, &firmware);
	free(fw);
}

TEST(exit_guard_exit_of_another_handle_after_exit_boot_services_resets)
{
	struct fake_fw *fw = fw_new();
	struct entry e = { .bs = &fw->bs, .exit_boot = true, .map_key = 0xbad,
			   .exit_handle = (EFI_HANDLE)(uintptr_t)0x5c00, .status = EFI_ABORTED };

	test_log_reset();
	call_until_reset(fw, &e);
	CHECK_EQ(fw->n_image_exit, 0); /* not to the half-stopped firmware either */
	CHECK(!e.after_exit);
	CHECK_EQ(fw->n_reset, 1);
	CHECK_EQ(fw->last_reset_status, EFI_ABORTED);
	CHECK_LOG("the kernel's EFI stub gave up after ExitBootServices (EFI_ABORTED): resetting");
	free(fw);
}

TEST(exit_guard_return_after_exit_boot_services_resets)
{
	for (int ok = 0; ok < 2; ok++) {
		struct fake_fw *fw = fw_new();
		struct entry e = { .bs = &fw->bs, .exit_boot = true, .map_key = ok ? fw->map_key : 0xbad };

		test_log_reset();
		call_until_reset(fw, &e);
		CHECK_EQ(e.exit_boot_status, ok ? EFI_SUCCESS : EFI_INVALID_PARAMETER);
		CHECK_EQ(e.runs, 1);
		CHECK_EQ(fw->n_reset, 1);
		CHECK_EQ(fw->last_reset_status, EFI_LOAD_ERROR);
		if (ok) /* the firmware took ConOut away with boot services: nothing said */
			CHECK_EQ(test_log_count(), 0);
		else
			CHECK_LOG("the kernel's EFI stub gave up after ExitBootServices (EFI_LOAD_ERROR): resetting");
		free(fw);
	}
}

TEST(exit_guard_without_exit_boot_services_no_reset)
{
	struct fake_fw *fw = fw_new();
	struct entry e = { .bs = &fw->bs, .exit_handle = KERNEL_HANDLE, .status = EFI_ABORTED };
	struct exit_guard g;

	CHECK(exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, &e));
	CHECK(!g.exit_boot_called);
	CHECK(!exit_guard_call(&g, &fw->st, KERNEL_HANDLE, kernel_entry, &(struct entry){ .bs = &fw->bs }));
	CHECK_EQ(fw->n_exit, 0);
	CHECK_EQ(fw->n_reset, 0);
	free(fw);
}
