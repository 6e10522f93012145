/* uki_build() for AArch64 (issue 34): an arm64 Image on an AArch64 stub, its
 * .uname and .osrel from the Image's banner (arm64_image_version()); a stub
 * and a kernel of different machines refused, naming both; an arm64 Image
 * without its EFI stub refused. */
#include "test.h"
#include "fake_image.h"
#include "pe_fixtures.h"
#include "core/arm64_image.h"
#include "core/uki.h"
#include <stdlib.h>

static const char banner[] = "Linux version 6.1.0-57-arm64 (debian-kernel@lists.debian.org) #1 SMP\n";

/* An arm64 Image as Linux builds it with CONFIG_EFI_STUB: a PE/COFF AArch64
 * EFI application with "ARM\x64" at 0x38 (booting.rst), the banner after it. */
static uint8_t *fake_arm64_image(size_t *len, uint16_t machine)
{
	struct fake_pe f = fake_pe_default();
	size_t pe_len;
	uint8_t *pe, *img;

	f.machine = machine;
	pe = fake_pe_build(&f, &pe_len);
	img = malloc(pe_len + sizeof(banner));
	memcpy(img, pe, pe_len);
	memcpy(img + ARM64_IMAGE_MAGIC_OFFSET, "ARM\x64", 4);
	memcpy(img + pe_len, banner, sizeof(banner));
	free(pe);
	*len = pe_len + sizeof(banner);
	return img;
}

static uint8_t *fake_stub(size_t *len, uint16_t machine)
{
	struct fake_pe f = fake_pe_default();

	f.machine = machine;
	return fake_pe_build(&f, len);
}

static bool section_is(const struct uki_blob *b, const char *text)
{
	return b->data && b->size == strlen(text) && memcmp(b->data, text, b->size) == 0;
}

TEST(uki_arm64_image_on_aa64_stub)
{
	size_t stub_len, k_len, out_len;
	uint8_t *stub = fake_stub(&stub_len, PE_MACHINE_AA64), *kernel = fake_arm64_image(&k_len, PE_MACHINE_AA64);
	uint8_t *out = NULL;
	struct uki_input in = { .stub = stub, .stub_size = stub_len, .linux_image = kernel, .linux_size = k_len,
				.cmdline = "console=ttyAMA0\n" };
	struct pe_info pe;
	struct uki_sections u;

	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_SUCCESS);
	CHECK_EQ(pe_parse(out, out_len, "uki", &pe), EFI_SUCCESS);
	CHECK_EQ(pe.machine, PE_MACHINE_AA64);
	CHECK_EQ(uki_parse(&pe, out, out_len, PE_LAYOUT_FILE, "uki", &u), EFI_SUCCESS);
	CHECK(u.s[UKI_LINUX].size == k_len && memcmp(u.s[UKI_LINUX].data, kernel, k_len) == 0);
	CHECK(section_is(&u.s[UKI_CMDLINE], "console=ttyAMA0"));
	CHECK(section_is(&u.s[UKI_UNAME], "6.1.0-57-arm64"));
	CHECK(section_is(&u.s[UKI_OSREL], "NAME=\"Linux\"\nID=linux\nPRETTY_NAME=\"Linux 6.1.0-57-arm64\"\n"
					  "VERSION_ID=\"6.1.0-57-arm64\"\n"));
	mem_free(out);
	free(kernel);
	free(stub);
}

TEST(uki_stub_and_kernel_of_different_machines_refused)
{
	size_t x64_len, aa64_len, img_len, bz_len, out_len;
	uint8_t *x64 = fake_stub(&x64_len, PE_MACHINE_X64), *aa64 = fake_stub(&aa64_len, PE_MACHINE_AA64);
	uint8_t *img = fake_arm64_image(&img_len, PE_MACHINE_AA64), *out = NULL;
	struct fake_bz fb = fake_bz_default();
	uint8_t *bz = fake_bz_build(&fb, &bz_len);
	struct uki_input in = { .stub = x64, .stub_size = x64_len, .linux_image = img, .linux_size = img_len,
				.stub_name = "stub.efi", .linux_name = "vmlinuz" };

	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz: an arm64 kernel Image, and stub.efi is an x86-64 stub: a UKI's stub and kernel must be "
		  "for the same machine");
	in.stub = aa64;
	in.stub_size = aa64_len;
	in.linux_image = bz;
	in.linux_size = bz_len;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz: an x86-64 bzImage, and stub.efi is an arm64 stub: a UKI's stub and kernel must be "
		  "for the same machine");
	in.linux_image = x64; /* neither: no arm64 magic, no setup header */
	in.linux_size = x64_len;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz: not an arm64 kernel Image (no \"ARM\\x64\" at 0x38), which stub.efi, an arm64 stub, boots");
	CHECK(out == NULL);
	free(img);
	free(bz);
	free(aa64);
	free(x64);
}

TEST(uki_arm64_image_without_efi_stub_refused)
{
	size_t stub_len, k_len, out_len;
	uint8_t *stub = fake_stub(&stub_len, PE_MACHINE_AA64), *kernel = fake_arm64_image(&k_len, PE_MACHINE_X64);
	uint8_t *out = NULL;
	struct uki_input in = { .stub = stub, .stub_size = stub_len, .linux_image = kernel, .linux_size = k_len,
				.linux_name = "Image" };

	/* a PE, but not for AArch64 */
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("Image: an arm64 kernel Image that is no AArch64 EFI application");
	/* no PE header at all: "MZ" gone, as in an Image built without CONFIG_EFI */
	kernel[0] = 0;
	CHECK_EQ(uki_build(&in, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("Image: an arm64 kernel Image that is no AArch64 EFI application");
	CHECK(out == NULL);
	free(kernel);
	free(stub);
}

TEST(arm64_image_version_from_banner)
{
	static const uint8_t some[] = "xxLinux versio\0Linux version 6.1.0-arm64 (a) #1\nLinux version 2";
	static const uint8_t cut[] = "Linux version 6.1";
	static const uint8_t bare[] = "..Linux version ";
	char v[8], w[128];

	arm64_image_version(some, sizeof(some) - 1, w, sizeof(w));
	CHECK_STR(w, "6.1.0-arm64 (a) #1");
	arm64_image_version(some, sizeof(some) - 1, v, sizeof(v)); /* at most size - 1 bytes */
	CHECK_STR(v, "6.1.0-a");
	arm64_image_version(cut, sizeof(cut) - 1, w, sizeof(w)); /* the file's end ends it */
	CHECK_STR(w, "6.1");
	arm64_image_version(bare, sizeof(bare) - 1, w, sizeof(w));
	CHECK_STR(w, "");
	arm64_image_version(cut, 13, w, sizeof(w)); /* "Linux version" cut before its space */
	CHECK_STR(w, "");
	arm64_image_version(cut, 0, w, sizeof(w));
	CHECK_STR(w, "");
}
