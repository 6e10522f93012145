/* Which partitions may supply entries (src/core/bootpart.c), and the
 * loader.conf key that names them ("boot-partition PARTUUID", config.c):
 * exact GUIDs in, exact decisions out. */
#include "test.h"
#include "core/bootpart.h"
#include "core/config.h"

#define PATH "\\loader\\loader.conf"

/* Types (UEFI 2.10 Table 5.7; UAPI Discoverable Partitions Specification). */
static const EFI_GUID xbootldr = { 0xbc13c2ff, 0x59e6, 0x4262, { 0xa3, 0x52, 0xb2, 0x75, 0xfd, 0x6f, 0x71, 0x72 } };
static const EFI_GUID linux_data = { 0x0fc63daf, 0x8483, 0x4772, { 0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4 } };
static const EFI_GUID root_x64 = { 0x4f68bce3, 0xe8cd, 0x4db1, { 0x96, 0xe7, 0xfb, 0xca, 0xf9, 0x84, 0xb7, 0x09 } };
static const EFI_GUID esp_type = { 0xc12a7328, 0xf81f, 0x11d2, { 0xba, 0x4b, 0x00, 0xa0, 0xc9, 0x3e, 0xc9, 0x3b } };
/* PARTUUIDs */
static const EFI_GUID boot_uuid = { 0x6e1d2a9c, 0x51f3, 0x4b8e, { 0x9a, 0x0d, 0x17, 0x2c, 0x44, 0x5b, 0x60, 0x01 } };
static const EFI_GUID other_uuid = { 0x6e1d2a9c, 0x51f3, 0x4b8e, { 0x9a, 0x0d, 0x17, 0x2c, 0x44, 0x5b, 0x60, 0x02 } };

static struct bootpart_facts facts(const EFI_GUID *uuid, const EFI_GUID *type)
{
	return (struct bootpart_facts){ .part_uuid = uuid, .type = type };
}

TEST(bootpart_only_xbootldr_and_named_partitions)
{
	const EFI_GUID named[] = { { 0x11111111, 0, 0, { 0 } }, boot_uuid };
	static const struct {
		const EFI_GUID *uuid, *type;
		size_t n_named;
		enum bootpart want;
	} cases[] = {
		/* a /tmp, /home or root file system: never, whatever it holds */
		{ &other_uuid, &linux_data, 2, BOOTPART_IGNORED },
		{ &other_uuid, &root_x64, 2, BOOTPART_IGNORED },
		{ &other_uuid, NULL, 2, BOOTPART_IGNORED },
		/* a second ESP is not the one handoff was started from */
		{ &other_uuid, &esp_type, 2, BOOTPART_IGNORED },
		/* XBOOTLDR by its type, named or not */
		{ &other_uuid, &xbootldr, 0, BOOTPART_XBOOTLDR },
		{ NULL, &xbootldr, 0, BOOTPART_XBOOTLDR },
		/* named: any type, also when the firmware tells none */
		{ &boot_uuid, &linux_data, 2, BOOTPART_NAMED },
		{ &boot_uuid, &root_x64, 2, BOOTPART_NAMED },
		{ &boot_uuid, NULL, 2, BOOTPART_NAMED },
		{ &boot_uuid, &xbootldr, 2, BOOTPART_NAMED },
		/* the same partition when loader.conf names only the first GUID */
		{ &boot_uuid, &linux_data, 1, BOOTPART_IGNORED },
		/* an MBR partition has no PARTUUID to name, and no type is known: fail closed */
		{ NULL, NULL, 2, BOOTPART_IGNORED },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bootpart_facts f = facts(cases[i].uuid, cases[i].type);
		enum bootpart got = bootpart_classify(&f, named, cases[i].n_named);

		if (got != cases[i].want)
			test_fail(__FILE__, __LINE__, "case %zu: %d, want %d", i, got, cases[i].want);
	}
}

TEST(bootpart_compares_unaligned_guids_bytewise)
{
	/* the PARTUUID sits at offset 24 of a packed hard-drive node (UEFI 2.10
	 * §10.3.5.1): compared where it lies, in the disk's byte order */
	static const uint8_t node_bytes[1 + 16] = { 0, 0x9c, 0x2a, 0x1d, 0x6e, 0xf3, 0x51, 0x8e, 0x4b,
						  0x9a, 0x0d, 0x17, 0x2c, 0x44, 0x5b, 0x60, 0x01 };
	struct bootpart_facts f = { .part_uuid = (const void *)(node_bytes + 1) };

	CHECK_EQ(bootpart_classify(&f, &boot_uuid, 1), BOOTPART_NAMED);
	CHECK_EQ(bootpart_classify(&f, &other_uuid, 1), BOOTPART_IGNORED);
}

TEST(config_boot_partition_is_repeatable)
{
	struct loader_config cfg;
	const char *text = "boot-partition 6e1d2a9c-51f3-4b8e-9a0d-172c445b6001\n"
			   "timeout 3\n"
			   "boot-partition   6E1D2A9C-51F3-4B8E-9A0D-172C445B6002  \n";

	CHECK_EQ(cfg_parse_loader_conf(text, strlen(text), PATH, &cfg), EFI_SUCCESS);
	CHECK_EQ(cfg.n_boot_partitions, 2);
	CHECK_MEM(&cfg.boot_partitions[0], &boot_uuid, sizeof(EFI_GUID));
	CHECK_MEM(&cfg.boot_partitions[1], &other_uuid, sizeof(EFI_GUID));
	CHECK_EQ(cfg.timeout_sec, 3);
	CHECK_EQ(cfg.n_errors, 0);
	CHECK_EQ(test_log_count(), 0); /* no "given again": each line adds one */
	cfg_free(&cfg);
	CHECK(cfg.boot_partitions == NULL);
	CHECK_EQ(cfg.n_boot_partitions, 0);
}

TEST(config_boot_partition_bad_values)
{
	static const char *const bad[] = {
		"/dev/sda2",
		"PARTUUID=6e1d2a9c-51f3-4b8e-9a0d-172c445b6001",
		"6e1d2a9c-51f3-4b8e-9a0d-172c445b600",
		"6e1d2a9c-51f3-4b8e-9a0d-172c445b6001 6e1d2a9c-51f3-4b8e-9a0d-172c445b6002",
		"{6e1d2a9c-51f3-4b8e-9a0d-172c445b6001}",
		"6e1d2a9c51f34b8e9a0d172c445b6001",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[256], want[256];
		struct loader_config cfg;

		snprintf(text, sizeof(text), "boot-partition %s\nboot-partition 6e1d2a9c-51f3-4b8e-9a0d-172c445b6001\n",
			 bad[i]);
		snprintf(want, sizeof(want), PATH ":1: boot-partition '%s' is not a PARTUUID, ignored", bad[i]);
		test_log_reset();
		CHECK_EQ(cfg_parse_loader_conf(text, strlen(text), PATH, &cfg), EFI_SUCCESS);
		CHECK_EQ(cfg.n_errors, 1);
		CHECK_LOG(want);
		/* the good line after it still counts */
		CHECK_EQ(cfg.n_boot_partitions, 1);
		CHECK_MEM(&cfg.boot_partitions[0], &boot_uuid, sizeof(EFI_GUID));
		cfg_free(&cfg);
	}
}

TEST(config_boot_partition_absent)
{
	struct loader_config cfg;

	CHECK_EQ(cfg_parse_loader_conf("timeout 1\n", 10, PATH, &cfg), EFI_SUCCESS);
	CHECK(cfg.boot_partitions == NULL);
	CHECK_EQ(cfg.n_boot_partitions, 0);
	/* and with nothing named, a partition of any type but XBOOTLDR is ignored */
	struct bootpart_facts f = facts(&boot_uuid, &linux_data);
	CHECK_EQ(bootpart_classify(&f, cfg.boot_partitions, cfg.n_boot_partitions), BOOTPART_IGNORED);
	cfg_free(&cfg);
}
