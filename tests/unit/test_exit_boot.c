/* exit_boot_services(): the stale-map-key retry against the fake firmware. */
#include "test.h"
#include "fake_fw.h"
#include "efi/exit_boot.h"
#include <stdlib.h>

struct seen {
	int calls;
	UINTN last_size;
	bool fail;
	int fail_on_call;     /* fail only the Nth callback (1-based), 0 = never */
};

static EFI_STATUS on_map(void *p, const struct memmap_buf *map)
{
	struct seen *s = p;

	s->calls++;
	s->last_size = map->size;
	return s->fail || s->calls == s->fail_on_call ? EFI_BUFFER_TOO_SMALL : EFI_SUCCESS;
}

TEST(exit_boot_first_try)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));
	struct memmap_buf map;
	bool called = true;
	struct seen s = { 0 };

	fake_fw_init(fw, 20);
	CHECK_EQ(memmap_buf_alloc(&fw->bs, &map), EFI_SUCCESS);
	CHECK_EQ(map.capacity, (20 + MEMMAP_SLACK_DESCRIPTORS) * FAKE_DESC_SIZE);
	CHECK_EQ(exit_boot_services(&fw->bs, NULL, &map, on_map, &s, &called), EFI_SUCCESS);
	CHECK(called);
	CHECK(fw->exited);
	CHECK_EQ(s.calls, 1);
	CHECK_EQ(s.last_size, 20 * FAKE_DESC_SIZE);
	CHECK_EQ(fw->n_exit, 1);
	free(map.buf);
	free(fw);
}

TEST(exit_boot_retries_on_stale_key_without_allocating)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));
	struct memmap_buf map;
	bool called = true;
	struct seen s = { 0 };

	fake_fw_init(fw, 20);
	fw->stale_keys = 1;
	fw->grow_on_get = true; /* the map really changes between attempts */
	CHECK_EQ(memmap_buf_alloc(&fw->bs, &map), EFI_SUCCESS);
	CHECK_EQ(exit_boot_services(&fw->bs, NULL, &map, on_map, &s, &called), EFI_SUCCESS);
	CHECK(called);
	CHECK(fw->exited);
	CHECK_EQ(fw->n_exit, 2);
	CHECK_EQ(s.calls, 2);                      /* the callback saw the final map */
	CHECK_EQ(s.last_size, fw->n_desc * FAKE_DESC_SIZE);
	CHECK_EQ(fw->last_exit_key, fw->map_key);  /* the key of the last GetMemoryMap */
	CHECK_EQ(fw->n_alloc_after_first_exit, 0);
	free(map.buf);
	free(fw);
}

TEST(exit_boot_gives_up_after_second_stale_key)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));
	struct memmap_buf map;
	bool called = true;
	struct seen s = { 0 };

	fake_fw_init(fw, 4);
	fw->stale_keys = 2;
	CHECK_EQ(memmap_buf_alloc(&fw->bs, &map), EFI_SUCCESS);
	CHECK_EQ(exit_boot_services(&fw->bs, NULL, &map, on_map, &s, &called), EFI_INVALID_PARAMETER);
	CHECK(called); /* failed for good: no way back to the menu */
	CHECK(!fw->exited);
	CHECK_EQ(fw->n_exit, 2);
	free(map.buf);
	free(fw);
}

TEST(exit_boot_callback_error_stops_before_exit)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));
	struct memmap_buf map;
	bool called = true;
	struct seen s = { .fail = true };

	fake_fw_init(fw, 4);
	CHECK_EQ(memmap_buf_alloc(&fw->bs, &map), EFI_SUCCESS);
	CHECK_EQ(exit_boot_services(&fw->bs, NULL, &map, on_map, &s, &called), EFI_BUFFER_TOO_SMALL);
	CHECK(!called); /* nothing shut down: safe to report and go back */
	CHECK_EQ(fw->n_exit, 0);
	free(map.buf);
	free(fw);
}

TEST(exit_boot_map_overflowing_slack_is_an_error)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));
	struct memmap_buf map;
	bool called = true;
	struct seen s = { 0 };

	fake_fw_init(fw, 4);
	CHECK_EQ(memmap_buf_alloc(&fw->bs, &map), EFI_SUCCESS);
	for (int i = 0; i < MEMMAP_SLACK_DESCRIPTORS + 1; i++)
		fake_fw_add(fw, EfiConventionalMemory, 0x80000000ull + i * 0x1000, 1, 0);
	CHECK_EQ(exit_boot_services(&fw->bs, NULL, &map, on_map, &s, &called), EFI_BUFFER_TOO_SMALL);
	CHECK(!called); /* nothing shut down: safe to report and go back */
	CHECK_EQ(fw->n_exit, 0);
	free(map.buf);
	free(fw);
}

TEST(exit_boot_callback_error_after_first_exit_is_past_return)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));
	struct memmap_buf map;
	bool called = false;
	struct seen s = { .fail_on_call = 2 };

	fake_fw_init(fw, 4);
	fw->stale_keys = 1;
	CHECK_EQ(memmap_buf_alloc(&fw->bs, &map), EFI_SUCCESS);
	CHECK_EQ(exit_boot_services(&fw->bs, NULL, &map, on_map, &s, &called), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(fw->n_exit, 1);
	CHECK(called); /* ExitBootServices ran once: the caller must not go back to the firmware */
	free(map.buf);
	free(fw);
}
