/* Multi-profile UKIs (UAPI.5, systemd-stub(7)): uki_build() with profiles,
 * read back per profile by uki_parse_profile() and uki_profile_find(); the
 * "@N" of LoadOptions; PCR 11 of a profile, computed here by hand. */
#include "test.h"
#include "fake_image.h"
#include "pe_fixtures.h"
#include "core/bls.h"
#include "core/pcr.h"
#include "core/uki.h"
#include <stdlib.h>

static bool blob_is(const struct uki_blob *b, const char *text)
{
	return b->data && b->size == strlen(text) && memcmp(b->data, text, b->size) == 0;
}

static uint8_t *build_profiles(size_t *ret_len, uint8_t **ret_kernel, size_t *ret_k_len)
{
	static const struct uki_profile_input profiles[] = {
		{ .profile = "ID=default\nTITLE=\"Default boot\"\n" },
		{ .profile = "ID=rescue\nTITLE='Rescue shell'", .cmdline = "console=ttyS0 rescue", .pcrsig = "{}" },
		{ .profile = "ID=bare" , .cmdline = "quiet" },
	};
	struct fake_pe f = fake_pe_default();
	struct fake_bz b = fake_bz_default();
	size_t stub_len;
	uint8_t *stub = fake_pe_build(&f, &stub_len), *out = NULL;
	struct uki_input in = { .stub = stub, .stub_size = stub_len, .cmdline = "root=/dev/vda", .os_release = "ID=t\n",
				.sbat = UKI_SBAT_DEFAULT,
				.profiles = profiles, .n_profiles = 3 };

	b.version = 0x020f;
	b.xloadflags = 0x0b;
	*ret_kernel = fake_bz_build(&b, ret_k_len);
	in.linux_image = *ret_kernel;
	in.linux_size = *ret_k_len;
	CHECK_EQ(uki_build(&in, &out, ret_len), EFI_SUCCESS);
	free(stub);
	return out;
}

TEST(uki_profiles_built_and_parsed)
{
	size_t len, k_len;
	uint8_t *kernel = NULL, *img = build_profiles(&len, &kernel, &k_len);
	struct pe_info pe;
	struct uki_sections u;
	int i;

	if (!img)
		goto out;
	CHECK_EQ(pe_parse(img, len, "multi.efi", &pe), EFI_SUCCESS);
	/* stub 4, base .osrel .cmdline .uname .sbat .linux, then 1 + 3 + 2 */
	CHECK_EQ(pe.n_sections, 4 + 5 + 1 + 3 + 2);
	CHECK_EQ(uki_profile_count(&pe), 3);
	CHECK_STR(pe.sections[9].name, ".profile");
	CHECK_STR(pe.sections[11].name, ".cmdline");
	CHECK_STR(pe.sections[12].name, ".pcrsig");
	/* the base alone: no .profile */
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "multi.efi", UKI_PROFILE_BASE, &u), EFI_SUCCESS);
	CHECK(blob_is(&u.s[UKI_CMDLINE], "root=/dev/vda"));
	CHECK(u.s[UKI_PROFILE].data == NULL);
	/* profile 0: its .profile, the base's .cmdline (uki_parse() is profile 0) */
	CHECK_EQ(uki_parse(&pe, img, len, PE_LAYOUT_FILE, "multi.efi", &u), EFI_SUCCESS);
	CHECK(blob_is(&u.s[UKI_PROFILE], "ID=default\nTITLE=\"Default boot\""));
	CHECK(blob_is(&u.s[UKI_CMDLINE], "root=/dev/vda"));
	CHECK(u.s[UKI_PCRSIG].data == NULL);
	/* profile 1 overrides .cmdline and has its own .pcrsig; .linux is the base's */
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "multi.efi", 1, &u), EFI_SUCCESS);
	CHECK(blob_is(&u.s[UKI_PROFILE], "ID=rescue\nTITLE='Rescue shell'"));
	CHECK(blob_is(&u.s[UKI_CMDLINE], "console=ttyS0 rescue"));
	CHECK(blob_is(&u.s[UKI_PCRSIG], "{}"));
	CHECK(blob_is(&u.s[UKI_OSREL], "ID=t\n"));
	CHECK(u.s[UKI_LINUX].data && u.s[UKI_LINUX].size == k_len && memcmp(u.s[UKI_LINUX].data, kernel, k_len) == 0);
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "multi.efi", 2, &u), EFI_SUCCESS);
	CHECK(blob_is(&u.s[UKI_CMDLINE], "quiet"));
	CHECK(u.s[UKI_PCRSIG].data == NULL);
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "multi.efi", 3, &u), EFI_INVALID_PARAMETER);
	CHECK_LOG("multi.efi: profile 3 asked for, the image has 3");
	/* by headers alone, as the loader's menu reads a file */
	CHECK_EQ(uki_profile_find(&pe, 0, ".cmdline"), 5);
	CHECK_EQ(uki_profile_find(&pe, 1, ".cmdline"), 11);
	CHECK_EQ(uki_profile_find(&pe, 2, ".cmdline"), 14);
	CHECK_EQ(uki_profile_find(&pe, 1, ".profile"), 10);
	CHECK_EQ(uki_profile_find(&pe, 2, ".osrel"), 4);
	CHECK_EQ(uki_profile_find(&pe, 0, ".splash"), -1);
	i = uki_profile_find(&pe, UKI_PROFILE_BASE, ".profile");
	CHECK_EQ(i, -1);
out:
	mem_free(img);
	free(kernel);
}

TEST(uki_profiles_duplicates_and_no_profile)
{
	struct fake_pe f = fake_pe_default();
	static const char *const names[] = { ".linux", ".profile", ".cmdline", ".cmdline" };
	struct pe_info pe;
	struct uki_sections u;
	size_t len;
	uint8_t *img;

	for (unsigned i = 0; i < 4; i++)
		f.s[f.n_sections++] = (struct fake_pe_section){ names[i], 0x10, 0x200, 0x40000040 };
	img = fake_pe_build(&f, &len);
	CHECK_EQ(pe_parse(img, len, "p.efi", &pe), EFI_SUCCESS);
	/* twice in one profile: refused; the base alone is sound */
	CHECK_EQ(uki_parse(&pe, img, len, PE_LAYOUT_FILE, "p.efi", &u), EFI_LOAD_ERROR);
	CHECK_LOG("p.efi: section .cmdline appears twice");
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "p.efi", UKI_PROFILE_BASE, &u), EFI_SUCCESS);
	CHECK(u.s[UKI_CMDLINE].data == NULL);
	free(img);

	/* no .profile at all: profile 0 is the base; profile 1 is not there */
	f = fake_pe_default();
	f.s[f.n_sections++] = (struct fake_pe_section){ ".linux", 0x10, 0x200, 0x40000040 };
	img = fake_pe_build(&f, &len);
	CHECK_EQ(pe_parse(img, len, "one.efi", &pe), EFI_SUCCESS);
	CHECK_EQ(uki_profile_count(&pe), 0);
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "one.efi", 0, &u), EFI_SUCCESS);
	CHECK_EQ(uki_parse_profile(&pe, img, len, PE_LAYOUT_FILE, "one.efi", 1, &u), EFI_INVALID_PARAMETER);
	CHECK_LOG("one.efi: profile 1 asked for, the image has 0");
	free(img);
}

/* @s as UTF-16LE bytes, @n characters (a NUL included when @s has one there) */
static uint32_t profile_of(const char *s, size_t n, size_t *ret_left, char *ret_rest)
{
	uint8_t buf[64];
	const uint8_t *p = buf;
	size_t size = 2 * n;
	uint32_t v;

	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = (uint8_t)s[i];
		buf[2 * i + 1] = 0;
	}
	v = uki_profile_from_options(&p, &size);
	*ret_left = size;
	for (size_t i = 0; i < size / 2; i++)
		ret_rest[i] = (char)p[2 * i];
	ret_rest[size / 2] = '\0';
	return v;
}

TEST(uki_profile_from_load_options)
{
	size_t left;
	char rest[32];

	CHECK_EQ(profile_of("@1 quiet", 8, &left, rest), 1);
	CHECK_STR(rest, "quiet");
	CHECK_EQ(profile_of("@12", 3, &left, rest), 12);
	CHECK_EQ(left, 0);
	CHECK_EQ(profile_of("@2\0", 3, &left, rest), 2); /* systemd-boot's options end in a NUL */
	CHECK_EQ(left, 2);
	CHECK_EQ(profile_of("@3  two", 7, &left, rest), 3); /* exactly one space goes */
	CHECK_STR(rest, " two");
	/* not a profile: untouched */
	CHECK_EQ(profile_of("@1x", 3, &left, rest), 0);
	CHECK_STR(rest, "@1x");
	CHECK_EQ(profile_of("@ 1", 3, &left, rest), 0);
	CHECK_EQ(profile_of("quiet @1", 8, &left, rest), 0);
	CHECK_EQ(profile_of("@", 1, &left, rest), 0);
	CHECK_EQ(profile_of("", 0, &left, rest), 0);
	CHECK_EQ(profile_of("@99999999999", 12, &left, rest), 0); /* over 32 bits */
	CHECK_EQ(left, 24);
	CHECK_EQ(profile_of("@4294967294", 11, &left, rest), UINT32_MAX - 1);
	CHECK_EQ(profile_of("@4294967295", 11, &left, rest), 0); /* UKI_PROFILE_BASE is none */
}

static void set(struct uki_sections *u, enum uki_section id, const char *text)
{
	u->s[id] = (struct uki_blob){ (const uint8_t *)text, strlen(text) };
}

TEST(uki_profile_pcr11_measures_profile_last)
{
	struct uki_sections u;
	uint8_t v[PCR_DIGEST_MAX];
	char h[65];

	memset(&u, 0, sizeof(u));
	set(&u, UKI_LINUX, "LINUX");
	set(&u, UKI_OSREL, "ID=test\n");
	set(&u, UKI_CMDLINE, "rescue");
	set(&u, UKI_INITRD, "INITRD");
	set(&u, UKI_PCRPKEY, "PEM\n");
	set(&u, UKI_PROFILE, "ID=rescue\nTITLE=Rescue");
	set(&u, UKI_PCRSIG, "{\"sha256\":[]}"); /* never measured */
	pcr_measure_uki(&pcr_bank_sha256, &u, v);
	for (int i = 0; i < 32; i++)
		snprintf(h + 2 * i, 3, "%02x", v[i]);
	/* sha256 extends of name\0, data for .linux .osrel .cmdline .initrd .pcrpkey .profile (python hashlib) */
	CHECK_STR(h, "200124b5cccd42756d5047265eb28987fceba221af1cf170969529c59b148204");
}

static void profile_entry(uint32_t profile, const char *text, const char *osrel, struct bls_entry *e)
{
	memset(e, 0, sizeof(*e));
	CHECK_EQ(bls_entry_from_uki(e, "arch+3-1.efi", "/EFI/Linux/arch+3-1.efi", osrel, osrel ? strlen(osrel) : 0,
				    true),
		 EFI_SUCCESS);
	CHECK_EQ(bls_entry_uki_profile(e, profile, text, text ? strlen(text) : 0), EFI_SUCCESS);
}

TEST(uki_profile_menu_entries_as_systemd_boot)
{
	static const char osrel[] = "PRETTY_NAME=\"Arch Linux\"\nID=arch\n";
	struct bls_entry e;

	/* profile 0: the title with its TITLE; id and options as for a UKI without profiles */
	profile_entry(0, "ID=main\nTITLE=\"Main system\"\n", osrel, &e);
	CHECK_STR(e.title, "Arch Linux (Main system)");
	CHECK_STR(e.id, "arch.efi");
	CHECK(e.options == NULL);
	CHECK(e.counted && e.tries_left == 3 && e.tries_done == 1);
	bls_entry_free(&e);
	/* profile 0 without TITLE: untouched */
	profile_entry(0, "ID=main\n", osrel, &e);
	CHECK_STR(e.title, "Arch Linux");
	bls_entry_free(&e);
	/* a later one: "@ID" in the id, "@N" to the stub */
	profile_entry(1, "ID=rescue\nTITLE='Rescue shell'\n", osrel, &e);
	CHECK_STR(e.title, "Arch Linux (Rescue shell)");
	CHECK_STR(e.id, "arch.efi@rescue");
	CHECK_STR(e.options, "@1");
	bls_entry_free(&e);
	profile_entry(2, "ID=factory-reset\n", osrel, &e);
	CHECK_STR(e.title, "Arch Linux (factory-reset)");
	CHECK_STR(e.id, "arch.efi@factory-reset");
	CHECK_STR(e.options, "@2");
	bls_entry_free(&e);
	/* neither ID nor TITLE: numbered from 1, as systemd-boot shows it */
	profile_entry(3, "", osrel, &e);
	CHECK_STR(e.title, "Arch Linux (Profile #4)");
	CHECK_STR(e.id, "arch.efi@3");
	CHECK_STR(e.options, "@3");
	bls_entry_free(&e);
	/* no name in .osrel: the file's id stands for it */
	profile_entry(1, NULL, NULL, &e);
	CHECK_STR(e.title, "arch.efi (Profile #2)");
	bls_entry_free(&e);
}

TEST(uki_profile_entries_sort_in_profile_order)
{
	static const char osrel[] = "PRETTY_NAME=\"P\"\n";
	struct bls_entry a, b, c, d, *v[4];

	profile_entry(2, "ID=zzz", osrel, &c);
	profile_entry(1, "ID=aaa", osrel, &b);
	profile_entry(0, "ID=main", osrel, &a);
	memset(&d, 0, sizeof(d));
	CHECK_EQ(bls_entry_from_uki(&d, "arch-2.efi", "/EFI/Linux/arch-2.efi", osrel, strlen(osrel), true),
		 EFI_SUCCESS);
	v[0] = &c;
	v[1] = &b;
	v[2] = &d;
	v[3] = &a;
	bls_sort(v, 4);
	/* the newer image first, then arch.efi's profiles 0, 1, 2 */
	CHECK(v[0] == &d && v[1] == &a && v[2] == &b && v[3] == &c);
	bls_entry_free(&a);
	bls_entry_free(&b);
	bls_entry_free(&c);
	bls_entry_free(&d);
}
