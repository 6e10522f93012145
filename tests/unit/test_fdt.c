/* The flattened devicetree header check (Devicetree Specification v0.4
 * §5.2) the AArch64 loader runs on a "devicetree" file and a UKI's .dtb:
 * each field it reads, by exact message. */
#include "test.h"
#include "core/fdt.h"

/* header field numbers (§5.2) */
enum { F_MAGIC, F_TOTALSIZE, F_VERSION = 5, F_LAST_COMP_VERSION };

static void put_be32(uint8_t *buf, unsigned field, uint32_t v)
{
	buf[4 * field] = (uint8_t)(v >> 24);
	buf[4 * field + 1] = (uint8_t)(v >> 16);
	buf[4 * field + 2] = (uint8_t)(v >> 8);
	buf[4 * field + 3] = (uint8_t)v;
}

/* A minimal version 17 blob as dtc writes one (92 bytes): header, the
 * reservation block (one terminating entry), the structure block (root node
 * with "mod" = "ABC", end), the strings; zeros after it up to @cap. */
static size_t fdt_fixture(uint8_t *buf, size_t cap)
{
	static const uint32_t words[] = {
		0xd00dfeed, 92, 56, 88, 40, 17, 16, 0, 4, 32, /* header: ten fields */
		0, 0, 0, 0,                                   /* reservation block: 16 zero bytes */
		1, 0, 3, 4, 0, 0x41424300, 2, 9,              /* FDT_BEGIN_NODE "" ... FDT_END */
		0x6d6f6400,                                   /* strings: "mod" */
	};

	memset(buf, 0, cap);
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		put_be32(buf, (unsigned)i, words[i]);
	return sizeof(words);
}

#define WANT(len, magic, version, comp, total)                                                             \
	"/x.dtb: magic " magic ", version " version "/" comp ", totalsize " total " of " len " bytes: not a " \
	"version 17 devicetree"

TEST(fdt_header_accepts_a_version_17_blob)
{
	uint8_t buf[128];
	size_t n = fdt_fixture(buf, sizeof(buf));
	struct fdt_header_info h;

	CHECK_EQ(n, 92);
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_SUCCESS);
	CHECK_EQ(h.totalsize, 92);
	CHECK_EQ(h.version, 17);
	CHECK_EQ(h.last_comp_version, 16);
	/* a file longer than its blob (padding after it) */
	CHECK_EQ(fdt_check_header(buf, sizeof(buf), "/x.dtb", &h), EFI_SUCCESS);
	CHECK_EQ(h.totalsize, 92);
	/* a later version that version 17 readers can read */
	put_be32(buf, F_VERSION, 18);
	put_be32(buf, F_LAST_COMP_VERSION, 17);
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_SUCCESS);
	CHECK_EQ(h.version, 18);
	CHECK_EQ(test_log_count(), 0);
}

TEST(fdt_header_refuses_short_and_foreign_files)
{
	uint8_t buf[128];
	size_t n = fdt_fixture(buf, sizeof(buf));
	struct fdt_header_info h;

	CHECK_EQ(fdt_check_header(buf, 39, "/x.dtb", &h), EFI_LOAD_ERROR); /* totalsize 92 */
	CHECK_LOG(WANT("39", "0xd00dfeed", "17", "16", "92"));
	CHECK_EQ(fdt_check_header(buf, 3, "/x.dtb", &h), EFI_LOAD_ERROR); /* no whole field: all read as 0 */
	CHECK_LOG(WANT("3", "0", "0", "0", "0"));
	CHECK_EQ(fdt_check_header(buf, 7, "/x.dtb", &h), EFI_LOAD_ERROR); /* magic, no whole totalsize */
	CHECK_LOG(WANT("7", "0xd00dfeed", "0", "0", "0"));
	CHECK_EQ(fdt_check_header(buf, 0, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("0", "0", "0", "0", "0"));
	put_be32(buf, F_MAGIC, 0xedfe0dd0); /* a blob byte-swapped */
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("92", "0xedfe0dd0", "17", "16", "92"));
}

TEST(fdt_header_refuses_versions_it_cannot_read)
{
	uint8_t buf[128];
	size_t n = fdt_fixture(buf, sizeof(buf));
	struct fdt_header_info h;

	put_be32(buf, F_VERSION, 16); /* before size_dt_struct */
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("92", "0xd00dfeed", "16", "16", "92"));
	put_be32(buf, F_VERSION, 18); /* a future version that breaks version 17 readers */
	put_be32(buf, F_LAST_COMP_VERSION, 18);
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("92", "0xd00dfeed", "18", "18", "92"));
	put_be32(buf, F_VERSION, 17); /* compatible with a later version than its own */
	put_be32(buf, F_LAST_COMP_VERSION, 17);
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_SUCCESS);
	put_be32(buf, F_LAST_COMP_VERSION, 18);
	put_be32(buf, F_VERSION, 17);
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("92", "0xd00dfeed", "17", "18", "92"));
}

TEST(fdt_header_refuses_sizes_past_the_file)
{
	uint8_t buf[128];
	size_t n = fdt_fixture(buf, sizeof(buf));
	struct fdt_header_info h;

	CHECK_EQ(fdt_check_header(buf, n - 1, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("91", "0xd00dfeed", "17", "16", "92"));
	put_be32(buf, F_TOTALSIZE, 39); /* less than its own header */
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("92", "0xd00dfeed", "17", "16", "39"));
	put_be32(buf, F_TOTALSIZE, 0xffffffff);
	CHECK_EQ(fdt_check_header(buf, n, "/x.dtb", &h), EFI_LOAD_ERROR);
	CHECK_LOG(WANT("92", "0xd00dfeed", "17", "16", "4294967295"));
}
