/* uki_build() and uki_parse(): a UKI of Debian's kernel on systemd's stub and
 * on a synthetic stub, read back through pe_parse() and checked section by
 * section; wrong inputs; non-UKIs; loaded images. */
#include "test.h"
#include "fake_image.h"
#include "pe_fixtures.h"
#include "core/osrel.h"
#include "core/pe_write.h"
#include "core/uki.h"
#include <stdlib.h>

static const uint8_t initrd_a[5] = { 1, 2, 3, 4, 5 };
static const uint8_t initrd_b[8] = { 9, 9, 9, 9, 8, 8, 8, 8 };

static bool blob_is(const struct uki_blob *b, const void *data, size_t size)
{
	return b->data && b->size == size && memcmp(b->data, data, size) == 0;
}

static int section_index(const struct pe_info *pe, const char *name)
{
	for (uint32_t i = 0; i < pe->n_sections; i++)
		if (strcmp(pe->sections[i].name, name) == 0)
			return (int)i;
	return -1;
}

TEST(uki_debian_kernel_on_systemd_stub)
{
	size_t stub_len, k_len, out_len;
	uint8_t *stub = fixture_stub(&stub_len), *kernel = fixture_kernel(&k_len), *out = NULL;
	struct uki_blob initrds[2] = { { initrd_a, sizeof(initrd_a) }, { initrd_b, sizeof(initrd_b) } };
	struct uki_input in = { 0 };
	struct pe_info pe;
	struct uki_sections u;
	struct osrel o;
	char uname[64];
	size_t n = 0;
	const char *kver;

	if (!stub || !kernel)
		goto out;
	in = (struct uki_input){ .stub = stub, .stub_size = stub_len, .linux_image = kernel, .linux_size = k_len,
				 .initrds = initrds, .n_initrds = 2, .cmdline = "console=ttyS0 quiet\n" };
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_SUCCESS);
	if (!out)
		goto out;
	CHECK_EQ(pe_parse(out, out_len, "uki", &pe), EFI_SUCCESS);
	CHECK_EQ(uki_parse(&pe, out, out_len, PE_LAYOUT_FILE, "uki", &u), EFI_SUCCESS);
	CHECK(blob_is(&u.s[UKI_LINUX], kernel, k_len));
	CHECK(blob_is(&u.s[UKI_CMDLINE], "console=ttyS0 quiet", 19));
	/* 5 bytes padded to 8, then 8 */
	CHECK(blob_is(&u.s[UKI_INITRD], "\1\2\3\4\5\0\0\0\11\11\11\11\10\10\10\10", 16));
	/* the uname, read here from the kernel_version pointer at 0x20e */
	kver = (const char *)kernel + 0x200 + get_le16(kernel + 0x20e);
	while (kver[n] && kver[n] != ' ' && n < sizeof(uname) - 1) {
		uname[n] = kver[n];
		n++;
	}
	uname[n] = '\0';
	CHECK(blob_is(&u.s[UKI_UNAME], uname, strlen(uname)));
	CHECK(u.s[UKI_OSREL].data != NULL);
	if (u.s[UKI_OSREL].data) {
		char pretty[80];
		CHECK_EQ(osrel_parse((const char *)u.s[UKI_OSREL].data, u.s[UKI_OSREL].size, ".osrel", &o),
			 EFI_SUCCESS);
		snprintf(pretty, sizeof(pretty), "Linux %s", uname);
		CHECK_STR(o.pretty_name, pretty);
		CHECK_STR(o.version_id, uname);
		osrel_free(&o);
	}
	/* systemd's stub brings its own .sbat: kept, not duplicated */
	CHECK(u.s[UKI_SBAT].data != NULL && memcmp(u.s[UKI_SBAT].data, "sbat,1,", 7) == 0);
	CHECK(!uki_stub_is_handoff(&u)); /* its loader starts it: systemd-stub does more than handoff's */
	CHECK(strstr((const char *)u.s[UKI_SBAT].data, "handoff") == NULL);
	CHECK(u.s[UKI_SPLASH].data == NULL);
	/* order: the stub's sections, then .osrel .cmdline .uname .initrd .linux */
	CHECK(section_index(&pe, ".sdmagic") < section_index(&pe, ".osrel"));
	CHECK(section_index(&pe, ".osrel") < section_index(&pe, ".cmdline"));
	CHECK(section_index(&pe, ".cmdline") < section_index(&pe, ".uname"));
	CHECK(section_index(&pe, ".uname") < section_index(&pe, ".initrd"));
	CHECK_EQ(section_index(&pe, ".linux"), (int)pe.n_sections - 1);
	CHECK_EQ(pe.checksum, ref_checksum(out, out_len));
	CHECK(pe_is_efi_app_x64(&pe));
out:
	mem_free(out);
	free(stub);
	free(kernel);
}

static uint8_t *fake_kernel(size_t *len, uint16_t version, uint16_t xloadflags)
{
	struct fake_bz f = fake_bz_default();

	f.version = version;
	f.xloadflags = xloadflags;
	return fake_bz_build(&f, len);
}

TEST(uki_all_sections_on_synthetic_stub)
{
	struct fake_pe f = fake_pe_default();
	size_t stub_len, k_len, out_len;
	uint8_t *stub = fake_pe_build(&f, &stub_len), *kernel = fake_kernel(&k_len, 0x020f, 0x0b), *out = NULL;
	static const uint8_t bmp[] = "BM\x3e\0\0\0 fake bitmap";
	static const char osrel_text[] = "ID=test\nPRETTY_NAME=\"Test OS\"\n";
	struct uki_input in = { .stub = stub, .stub_size = stub_len, .linux_image = kernel, .linux_size = k_len,
				.cmdline = "quiet", .os_release = osrel_text, .uname = "9.9.9-custom\n",
				.splash = bmp, .splash_size = sizeof(bmp) };
	struct pe_info pe;
	struct uki_sections u;

	/* a stub without .sbat (systemd-stub for arm64) gets none: handoff's would make it handoff's stub */
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_SUCCESS);
	if (out) {
		CHECK_EQ(pe_parse(out, out_len, "uki", &pe), EFI_SUCCESS);
		CHECK_EQ(uki_parse(&pe, out, out_len, PE_LAYOUT_FILE, "uki", &u), EFI_SUCCESS);
		CHECK(u.s[UKI_SBAT].data == NULL && !uki_stub_is_handoff(&u));
	}
	mem_free(out);
	out = NULL;
	in.sbat = UKI_SBAT_DEFAULT;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_SUCCESS);
	if (!out)
		goto out;
	CHECK_EQ(pe_parse(out, out_len, "uki", &pe), EFI_SUCCESS);
	CHECK_EQ(pe.n_sections, 4 + 6);
	CHECK_EQ(uki_parse(&pe, out, out_len, PE_LAYOUT_FILE, "uki", &u), EFI_SUCCESS);
	CHECK(blob_is(&u.s[UKI_OSREL], osrel_text, strlen(osrel_text)));
	CHECK(blob_is(&u.s[UKI_UNAME], "9.9.9-custom", 12));
	CHECK(blob_is(&u.s[UKI_SPLASH], bmp, sizeof(bmp)));
	CHECK(blob_is(&u.s[UKI_SBAT], UKI_SBAT_DEFAULT, strlen(UKI_SBAT_DEFAULT)));
	CHECK(blob_is(&u.s[UKI_LINUX], kernel, k_len));
	CHECK(u.s[UKI_INITRD].data == NULL);
	/* the same, as the stub sees it once the firmware has loaded the image */
	{
		size_t size;
		uint8_t *mem = fake_pe_load(out, out_len, &size);
		struct pe_info lp;
		struct uki_sections lu;

		CHECK_EQ(pe_parse_loaded(mem, size, "loaded", &lp), EFI_SUCCESS);
		CHECK_EQ(uki_parse(&lp, mem, size, PE_LAYOUT_MEMORY, "loaded", &lu), EFI_SUCCESS);
		CHECK(blob_is(&lu.s[UKI_LINUX], kernel, k_len));
		CHECK(blob_is(&lu.s[UKI_CMDLINE], "quiet", 5));
		CHECK(lu.s[UKI_LINUX].data == mem + pe.sections[pe.n_sections - 1].virtual_address);
		free(mem);
	}
out:
	mem_free(out);
	free(stub);
	free(kernel);
}

TEST(uki_rejects_wrong_inputs)
{
	struct fake_pe f = fake_pe_default();
	size_t stub_len, k_len, out_len;
	uint8_t *stub = fake_pe_build(&f, &stub_len), *kernel, *out = NULL;
	struct uki_input in = { .stub = stub, .stub_size = stub_len, .linux_name = "vmlinuz", .stub_name = "stub.efi" };
	static const uint8_t png[] = "\x89PNG....";

	kernel = fake_kernel(&k_len, 0x020b, 0);
	in.linux_image = kernel;
	in.linux_size = k_len;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz: boot protocol 2.11 is too old");
	free(kernel);

	kernel = fake_kernel(&k_len, 0x020f, XLF_EFI_HANDOVER_64);
	in.linux_image = kernel;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz: xloadflags 0x8 lacks XLF_KERNEL_64");
	free(kernel);

	in.linux_image = stub; /* a PE, not a bzImage */
	in.linux_size = stub_len;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_LOAD_ERROR);
	CHECK_LOG("vmlinuz: boot_flag");

	kernel = fake_kernel(&k_len, 0x020f, XLF_KERNEL_64);
	in.linux_image = kernel;
	in.linux_size = k_len;
	in.splash = png;
	in.splash_size = sizeof(png);
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("splash: not a BMP");
	in.splash = NULL;

	in.stub = kernel; /* a bzImage without MZ, not a PE */
	in.stub_size = k_len;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("stub.efi: not a PE/COFF image");

	f.subsystem = 3; /* a Windows console program */
	free(stub);
	stub = fake_pe_build(&f, &stub_len);
	in.stub = stub;
	in.stub_size = stub_len;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("stub.efi: not an x86-64 or AArch64 EFI application");
	CHECK(out == NULL);

	/* a malformed os-release is reported but not fatal */
	f.subsystem = 10;
	free(stub);
	stub = fake_pe_build(&f, &stub_len);
	in.stub = stub;
	in.os_release = "ID=x\nbroken line\n";
	in.os_release_name = "my-os-release";
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_SUCCESS);
	CHECK_LOG("my-os-release:2:");
	mem_free(out);
	out = NULL;

	/* building a UKI from a UKI: .linux is already there */
	{
		uint8_t *uki;
		size_t uki_len;

		in.os_release = NULL;
		CHECK_EQ(uki_build(&in, &uki, &uki_len), EFI_SUCCESS);
		in.stub = uki;
		in.stub_size = uki_len;
		CHECK_EQ(uki_build(&in, &out, &out_len), EFI_INVALID_PARAMETER);
		CHECK_LOG("already has a .osrel section");
		mem_free(uki);
	}
	free(kernel);
	free(stub);
}

static uint8_t *stub_with_sections(const char *const *names, unsigned n, size_t *len)
{
	struct fake_pe f = fake_pe_default();

	for (unsigned i = 0; i < n; i++)
		f.s[f.n_sections++] = (struct fake_pe_section){ names[i], 0x10, 0x200, 0x40000040 };
	return fake_pe_build(&f, len);
}

TEST(uki_parse_non_uki_duplicates_profiles)
{
	static const char *const none[] = { ".osrel" };
	static const char *const dup[] = { ".linux", ".cmdline", ".linux" };
	static const char *const dtbs[] = { ".linux", ".dtb", ".dtb" };
	static const char *const profile[] = { ".linux", ".profile", ".cmdline", ".cmdline" };
	struct pe_info pe;
	struct uki_sections u;
	size_t len;
	uint8_t *img;

	img = stub_with_sections(none, 1, &len);
	CHECK_EQ(pe_parse(img, len, "plain.efi", &pe), EFI_SUCCESS);
	CHECK_EQ(uki_parse(&pe, img, len, PE_LAYOUT_FILE, "plain.efi", &u), EFI_NOT_FOUND);
	CHECK_EQ(test_log_count(), 0);
	free(img);

	img = stub_with_sections(dup, 3, &len);
	CHECK_EQ(pe_parse(img, len, "dup.efi", &pe), EFI_SUCCESS);
	CHECK_EQ(uki_parse(&pe, img, len, PE_LAYOUT_FILE, "dup.efi", &u), EFI_LOAD_ERROR);
	CHECK_LOG("dup.efi: section .linux appears twice");
	free(img);

	img = stub_with_sections(dtbs, 3, &len);
	CHECK_EQ(pe_parse(img, len, "dtb.efi", &pe), EFI_SUCCESS);
	CHECK_EQ(uki_parse(&pe, img, len, PE_LAYOUT_FILE, "dtb.efi", &u), EFI_SUCCESS);
	CHECK(u.s[UKI_DTB].data == img + pe.sections[5].raw_offset);
	CHECK_EQ(u.s[UKI_DTB].size, 0x10);
	free(img);

	/* a multi-profile UKI: the base alone is what comes before .profile */
	img = stub_with_sections(profile, 4, &len);
	CHECK_EQ(pe_parse(img, len, "profiles.efi", &pe), EFI_SUCCESS);
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "profiles.efi", UKI_PROFILE_BASE, &u), EFI_SUCCESS);
	CHECK(u.s[UKI_CMDLINE].data == NULL);
	free(img);
}

TEST(uki_section_names)
{
	CHECK_STR(uki_section_name(UKI_LINUX), ".linux");
	CHECK_STR(uki_section_name(UKI_PCRPKEY), ".pcrpkey");
	CHECK(uki_section_name(_UKI_SECTION_MAX) == NULL);
	for (int i = 0; i < _UKI_SECTION_MAX; i++)
		CHECK(uki_section_name((enum uki_section)i) && strlen(uki_section_name((enum uki_section)i)) <= 8);
}

static bool sbat_is_handoff(const char *sbat)
{
	struct uki_sections u = { 0 };

	u.s[UKI_SBAT] = (struct uki_blob){ (const uint8_t *)sbat, sbat ? strlen(sbat) : 0 };
	return uki_stub_is_handoff(&u);
}

TEST(uki_stub_is_handoff_by_its_sbat_line)
{
	CHECK(sbat_is_handoff(UKI_SBAT_DEFAULT));
	CHECK(sbat_is_handoff("handoff,1,handoff,handoff,1,x\n"));
	CHECK(!sbat_is_handoff(NULL));
	CHECK(!sbat_is_handoff(""));
	CHECK(!sbat_is_handoff("handoff"));
	CHECK(!sbat_is_handoff("handoff-stub,1,x\n"));
	CHECK(!sbat_is_handoff("sbat,1,SBAT Version,sbat,1,x\nsystemd-stub,1,The systemd Developers,handoff,1\n"));
	CHECK(!sbat_is_handoff("sbat,1,x\n xhandoff,1\n"));
	CHECK(sbat_is_handoff("sbat,1,x\nhandoff,1"));
}

/* uki_check_handled(): the sections systemd-stub acts on by the machine's
 * hardware IDs are refused by name, wherever they are; .splash and .dtb are
 * said to be left alone at boot only; the rest passes. */
static struct pe_info *pe_named(const char *const *names, size_t n)
{
	static struct pe_info pe;

	memset(&pe, 0, sizeof(pe));
	for (size_t i = 0; i < n; i++)
		memcpy(pe.sections[i].name, names[i], strlen(names[i]) + 1);
	pe.n_sections = (uint32_t)n;
	return &pe;
}

TEST(uki_check_handled_refuses_by_name)
{
	const char *const ok[] = { ".text", ".osrel", ".cmdline", ".linux", ".initrd", ".pcrsig", ".profile" };
	const char *const refused[] = { ".dtbauto", ".hwids", ".efifw" };

	CHECK_EQ(uki_check_handled(pe_named(ok, ARRAY_SIZE(ok)), "u.efi", true), EFI_SUCCESS);
	CHECK(!test_log_contains("left alone"));
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		const char *const names[] = { ".text", ".linux", ".profile", refused[i] };
		char want[128];

		snprintf(want, sizeof(want), "u.efi: UKI has a %s section, which handoff's stub does not handle",
			 refused[i]);
		test_log_reset();
		CHECK_EQ(uki_check_handled(pe_named(names, 4), "u.efi", false), EFI_UNSUPPORTED);
		CHECK_LOG(want);
	}
}

TEST(uki_check_handled_says_what_it_leaves_alone)
{
	const char *const names[] = { ".linux", ".splash", ".dtb" };

	CHECK_EQ(uki_check_handled(pe_named(names, 3), "stub", false), EFI_SUCCESS);
	CHECK(!test_log_contains("left alone"));
	CHECK_EQ(uki_check_handled(pe_named(names, 3), "stub", true), EFI_SUCCESS);
	CHECK_LOG("stub: .splash section left alone: no splash is shown");
	/* the x86 loaders say ".dtb section left alone: x86 Linux takes no device
	 * tree from UEFI"; where device trees are used (FW_NATIVE_DT: the host,
	 * AArch64) the stub installs it (src/efi/uki_run.c) */
	CHECK(!test_log_contains(".dtb"));
}
