/* pe_parse_head(): UKI discovery reads only the head of a file. */
#include "test.h"
#include "core/pe.h"
#include <stdlib.h>

TEST(pe_head_matches_whole_file)
{
	const char *path = getenv("HANDOFF_TEST_KERNEL") ? getenv("HANDOFF_TEST_KERNEL") : "build/boot-cache/vmlinuz";
	static struct pe_info whole, head;
	size_t len;
	uint8_t *img = test_read_file(path, &len);

	if (!img) {
		test_fail(__FILE__, __LINE__, "cannot read %s", path);
		return;
	}
	CHECK_EQ(pe_parse(img, len, "k", &whole), EFI_SUCCESS);
	CHECK_EQ(pe_parse_head(img, 4096, len, "k", &head), EFI_SUCCESS);
	CHECK_EQ(head.n_sections, whole.n_sections);
	CHECK(head.n_sections > 0 && memcmp(head.sections, whole.sections, sizeof(whole.sections)) == 0);
	/* A file said to be shorter than its sections is caught without the data. */
	CHECK_EQ(pe_parse_head(img, 4096, 8192, "short.efi", &head), EFI_LOAD_ERROR);
	CHECK_LOG("short.efi");
	/* Headers beyond the head: an error, never a read past it. */
	CHECK(pe_parse_head(img, 0x50, len, "k", &head) != EFI_SUCCESS);
	free(img);
}
