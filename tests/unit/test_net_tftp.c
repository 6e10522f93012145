/* TFTP through the PXE base code (src/efi/net_tftp.c) and the stall limit
 * (src/efi/net_progress.c) on the fake network's clock: a file read whole;
 * a server that goes silent, or repeats a block, is given up NET_STALL_SEC
 * after the last new data, through the callback protocol (UEFI 2.10 §24.4);
 * time the firmware spends blocked counts in full; the firmware's watchdog
 * runs while a read does, so a base code that never returns resets the
 * machine NET_WATCHDOG_SEC after the last new data. */
#include "test.h"
#include "fake_net.h"
#include "efi/net.h"
#include <stdlib.h>

#define KERNEL "0123456789abcdefghij" /* 5 blocks of 4 bytes */

static struct fake_net net;
static struct fake_file files[] = { { "k/vmlinuz", KERNEL, 0 } };

static EFI_STATUS get(enum fake_tftp_mode mode, unsigned good_blocks, uint8_t **ret, uint64_t *ret_size)
{
	struct net_source src = { .pxe = &net.pxe, .show = "tftp://10.0.2.2/" };

	fake_net_init(&net, files, ARRAY_SIZE(files));
	files[0].requests = 0;
	net.tftp_mode = mode;
	net.good_blocks = good_blocks;
	*ret = NULL;
	return net_tftp_get(&src, "k/vmlinuz", "tftp://10.0.2.2/k/vmlinuz", /* quiet_missing= */ false, ret, ret_size);
}

TEST(net_tftp_reads_the_whole_file)
{
	uint8_t *data;
	uint64_t size = 0;

	CHECK_EQ(get(FAKE_TFTP_GOOD, 0, &data, &size), EFI_SUCCESS);
	CHECK_EQ(size, 20);
	CHECK(data && !memcmp(data, KERNEL, 20));
	CHECK_EQ(files[0].requests, 1);
	CHECK_EQ(net.callbacks, 5);
	CHECK_EQ(net.aborted_at, 0);
	CHECK_EQ(net.n_events, 0); /* the progress timers are closed */
	CHECK_EQ(net.watchdog_sets, 1 + 5); /* at the start, then with each block */
	CHECK_EQ(net.watchdog, 0);          /* off again: the menu may wait */
	CHECK_EQ(net.reset_at, 0);
	CHECK_EQ(test_log_count(), 0);
	free(data);
}

static void check_given_up(enum fake_tftp_mode mode, unsigned want_at)
{
	uint8_t *data;
	uint64_t size = 0;

	CHECK_EQ(get(mode, 2, &data, &size), EFI_TIMEOUT);
	CHECK(data == NULL);
	CHECK_EQ(net.aborted_at, want_at);
	CHECK_LOG("tftp://10.0.2.2/k/vmlinuz: EFI_TIMEOUT (no answer)");
	CHECK_EQ(net.n_events, 0);
	CHECK_EQ(net.reset_at, 0); /* given up by the loader, not by a reset */
	CHECK_EQ(net.watchdog, 0);
}

TEST(net_tftp_silent_server_is_given_up_after_the_stall_limit)
{
	check_given_up(FAKE_TFTP_SILENT, 2 + NET_STALL_SEC); /* two blocks, one a second, then nothing */
}

TEST(net_tftp_repeated_block_is_no_progress)
{
	check_given_up(FAKE_TFTP_REPEAT, 2 + NET_STALL_SEC);
}

TEST(net_tftp_time_blocked_in_the_firmware_counts)
{
	/* 20 s inside the base code, then its first callback: over the limit at once */
	check_given_up(FAKE_TFTP_BLOCKED, 2 + 20);
}

TEST(net_tftp_base_code_that_never_returns_is_reset_by_the_watchdog)
{
	uint8_t *data;
	uint64_t size = 0;

	get(FAKE_TFTP_HUNG, 2, &data, &size);
	CHECK_EQ(net.reset_at, 2 + NET_WATCHDOG_SEC); /* two blocks, one a second, then nothing */
	free(data);
}

TEST(net_progress_deadline_is_the_clock_not_the_checks)
{
	struct net_progress p;

	fake_net_init(&net, NULL, 0);
	net_progress_start(&p, "http://srv/k", 100);
	net.now += (NET_STALL_SEC - 1) * FAKE_SECOND;
	CHECK(!net_progress_stalled(&p));
	net_progress_add(&p, 10); /* bytes: the limit starts again */
	net.now += (NET_STALL_SEC - 1) * FAKE_SECOND;
	CHECK(!net_progress_stalled(&p));
	net.now += FAKE_SECOND;
	CHECK(net_progress_stalled(&p)); /* one check after 15 s of a blocked firmware call */
	net_progress_end(&p);
	CHECK_EQ(net.n_events, 0);
}
