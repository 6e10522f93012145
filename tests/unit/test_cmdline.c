/* initrd= extraction and .cmdline section handling. */
#include "test.h"
#include "core/array.h"
#include "core/cmdline.h"

static void check_paths(const char *cmdline, const char *const *want, size_t n_want)
{
	char **v = NULL;
	size_t n = 99;

	CHECK_EQ(cmdline_initrd_paths(cmdline, &v, &n), EFI_SUCCESS);
	CHECK_EQ(n, n_want);
	for (size_t i = 0; i < n && i < n_want; i++)
		CHECK_STR(v[i], want[i]);
	strv_free(v, n);
}

TEST(cmdline_initrd_values_in_order)
{
	static const char *const two[] = { "\\EFI\\a.img", "/b/c.cpio" };
	static const char *const quoted[] = { "/with space/x.img" };
	static const char *const none[] = { NULL };

	check_paths("root=/dev/vda initrd=\\EFI\\a.img quiet initrd=/b/c.cpio", two, 2);
	check_paths("  initrd=\"/with space/x.img\"  ", quoted, 1);
	check_paths("\"initrd=/with space/x.img\"", quoted, 1);
	check_paths("noinitrd=1 initrdx=/a myinitrd=/b initrd=", none, 0);
	check_paths("", none, 0);
	check_paths("\t\n", none, 0);
}

TEST(cmdline_from_section_trims)
{
	static const uint8_t a[] = "console=ttyS0 quiet\n\n";
	static const uint8_t b[] = { 'a', ' ', 'b', 0, 'x', 'y' };
	char *s;

	s = cmdline_from_section(a, sizeof(a) - 1);
	CHECK_STR(s, "console=ttyS0 quiet");
	mem_free(s);
	s = cmdline_from_section(b, sizeof(b));
	CHECK_STR(s, "a b");
	mem_free(s);
	s = cmdline_from_section(a, 0);
	CHECK_STR(s, "");
	mem_free(s);
}
