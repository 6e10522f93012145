/* timer_quiet_begin()/_end() against the fake firmware: the tick stopped and
 * restored, Exit() hooked and unhooked with the table's CRC32 kept valid,
 * and nothing touched where there is nothing to stop. */
#include "test.h"
#include "fake_fw.h"
#include "core/crc32.h"
#include "efi/exit_guard.h"
#include "efi/timer_quiet.h"
#include <stdlib.h>

struct fake_timer {
	EFI_TIMER_ARCH_PROTOCOL proto;
	UINT64 period;
	int n_set;
	bool fail_set;
};

static struct fake_timer timer;
static const EFI_GUID timer_guid = EFI_TIMER_ARCH_PROTOCOL_GUID;

static EFI_STATUS EFIAPI fake_set_period(EFI_TIMER_ARCH_PROTOCOL *This, UINT64 period)
{
	(void)This;
	timer.n_set++;
	if (timer.fail_set)
		return EFI_DEVICE_ERROR;
	timer.period = period;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_get_period(EFI_TIMER_ARCH_PROTOCOL *This, UINT64 *period)
{
	(void)This;
	*period = timer.period;
	return EFI_SUCCESS;
}

/* The firmware's boot services with a 10 ms tick and a valid table CRC32. */
static struct fake_fw *fw_with_timer(UINT64 period)
{
	struct fake_fw *fw = calloc(1, sizeof(*fw));

	fake_fw_init(fw, 4);
	timer = (struct fake_timer){ .proto = { .SetTimerPeriod = fake_set_period, .GetTimerPeriod = fake_get_period },
				     .period = period };
	fw->proto_guid = &timer_guid;
	fw->proto = &timer.proto;
	fw->bs.Hdr.CRC32 = crc32(0, &fw->bs, sizeof(fw->bs));
	return fw;
}

static bool table_crc_ok(EFI_BOOT_SERVICES *bs)
{
	uint32_t want = bs->Hdr.CRC32;
	uint32_t got;

	bs->Hdr.CRC32 = 0;
	got = crc32(0, bs, bs->Hdr.HeaderSize);
	bs->Hdr.CRC32 = want;
	return got == want;
}

TEST(timer_quiet_stops_the_tick_and_restores_it)
{
	struct fake_fw *fw = fw_with_timer(100000);
	EFI_EXIT firmware_exit = fw->bs.Exit;
	struct timer_quiet q;

	timer_quiet_begin(&fw->bs, &q);
	CHECK_EQ(timer.period, 0);
	CHECK(fw->bs.Exit != firmware_exit);
	CHECK(table_crc_ok(&fw->bs));
	timer_quiet_end(&q);
	CHECK_EQ(timer.period, 100000);
	CHECK(fw->bs.Exit == firmware_exit);
	CHECK(table_crc_ok(&fw->bs));
	timer_quiet_end(&q); /* idempotent: no second SetTimerPeriod */
	CHECK_EQ(timer.n_set, 2);
	CHECK_EQ(fw->n_image_exit, 0);
	free(fw);
}

TEST(timer_quiet_exit_restores_then_exits)
{
	struct fake_fw *fw = fw_with_timer(100000);
	EFI_EXIT firmware_exit = fw->bs.Exit;
	struct timer_quiet q;
	EFI_HANDLE image = (EFI_HANDLE)(uintptr_t)0x1234;

	timer_quiet_begin(&fw->bs, &q);
	/* the kernel's stub gives up: Exit() through the table, as it calls it */
	CHECK_EQ(fw->bs.Exit(image, EFI_LOAD_ERROR, 0, NULL), EFI_SUCCESS);
	CHECK_EQ(fw->n_image_exit, 1);
	CHECK(fw->last_exit_image == image);
	CHECK_EQ(fw->last_exit_status, EFI_LOAD_ERROR);
	CHECK_EQ(timer.period, 100000);
	CHECK(fw->bs.Exit == firmware_exit);
	CHECK(table_crc_ok(&fw->bs));
	timer_quiet_end(&q); /* nothing left to undo */
	CHECK_EQ(timer.n_set, 2);
	/* and it can be used again */
	timer_quiet_begin(&fw->bs, &q);
	CHECK_EQ(timer.period, 0);
	timer_quiet_end(&q);
	CHECK_EQ(timer.period, 100000);
	free(fw);
}

TEST(timer_quiet_leaves_alone_what_it_cannot_stop)
{
	struct {
		const char *what;
		bool protocol;
		UINT64 period;
		bool fail_set;
	} cases[] = {
		{ "no Timer Architectural Protocol", false, 100000, false },
		{ "tick already stopped", true, 0, false },
		{ "SetTimerPeriod fails", true, 100000, true },
		{ "table header smaller than the table", true, 100000, false },
		{ "table header beyond belief", true, 100000, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_fw *fw = fw_with_timer(cases[i].period);
		EFI_BOOT_SERVICES before;
		struct timer_quiet q;

		if (!cases[i].protocol)
			fw->proto_guid = NULL;
		if (strstr(cases[i].what, "smaller"))
			fw->bs.Hdr.HeaderSize = sizeof(fw->bs) - 8;
		if (strstr(cases[i].what, "beyond"))
			fw->bs.Hdr.HeaderSize = 1u << 20;
		timer.fail_set = cases[i].fail_set;
		memcpy(&before, &fw->bs, sizeof(before));
		timer_quiet_begin(&fw->bs, &q);
		timer_quiet_end(&q);
		if (memcmp(&before, &fw->bs, sizeof(before)))
			test_fail(__FILE__, __LINE__, "%s: the boot services table changed", cases[i].what);
		if (timer.period != cases[i].period)
			test_fail(__FILE__, __LINE__, "%s: period %llu, want %llu", cases[i].what,
				  (unsigned long long)timer.period, (unsigned long long)cases[i].period);
		free(fw);
	}
}

/* The compat entry's order (boot_compat_ia32.c): the guard outside, the tick
 * stopped inside; the kernel's Exit() passes timer_quiet's hook (tick back),
 * then the guard's (back to the loader). */
static void quiet_then_exit(void *ctx)
{
	EFI_BOOT_SERVICES *bs = ctx;
	struct timer_quiet q;

	timer_quiet_begin(bs, &q);
	CHECK_EQ(timer.period, 0);
	bs->Exit((EFI_HANDLE)(uintptr_t)0x4b00, EFI_LOAD_ERROR, 0, NULL);
	test_fail(__FILE__, __LINE__, "Exit() returned to the kernel");
}

TEST(timer_quiet_inside_exit_guard_tick_back_and_back_to_the_loader)
{
	struct fake_fw *fw = fw_with_timer(100000);
	EFI_EXIT firmware_exit = fw->bs.Exit;
	struct exit_guard g;

	CHECK(exit_guard_call(&g, &fw->st, (EFI_HANDLE)(uintptr_t)0x4b00, quiet_then_exit, &fw->bs));
	CHECK_EQ(g.status, EFI_LOAD_ERROR);
	CHECK_EQ(timer.period, 100000);
	CHECK(fw->bs.Exit == firmware_exit);
	CHECK(table_crc_ok(&fw->bs));
	CHECK_EQ(fw->n_image_exit, 0);
	free(fw);
}

/* A stub that stopped the tick, called ExitBootServices (a stale key: it
 * fails) and gave up: the tick stays stopped (the timer is no longer the
 * firmware's to run, UEFI 2.10 §7.4.6) and the machine resets. */
static void quiet_exit_boot_then_exit(void *ctx)
{
	EFI_BOOT_SERVICES *bs = ctx;
	struct timer_quiet q;

	timer_quiet_begin(bs, &q);
	CHECK_EQ(bs->ExitBootServices((EFI_HANDLE)(uintptr_t)0x4b00, 0xbad), EFI_INVALID_PARAMETER);
	bs->Exit((EFI_HANDLE)(uintptr_t)0x4b00, EFI_LOAD_ERROR, 0, NULL);
	test_fail(__FILE__, __LINE__, "Exit() returned to the kernel");
}

TEST(timer_quiet_after_exit_boot_services_leaves_the_tick_stopped)
{
	struct fake_fw *fw = fw_with_timer(100000);
	struct exit_guard g;
	jmp_buf reset;

	fw->reset_jmp = &reset;
	if (setjmp(reset) == 0) {
		exit_guard_call(&g, &fw->st, (EFI_HANDLE)(uintptr_t)0x4b00, quiet_exit_boot_then_exit, &fw->bs);
		test_fail(__FILE__, __LINE__, "exit_guard_call() came back after ExitBootServices");
	}
	CHECK_EQ(fw->n_reset, 1);
	CHECK_EQ(timer.period, 0);
	CHECK_EQ(timer.n_set, 1); /* the stop, no restart */
	free(fw);
}
