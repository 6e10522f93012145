/* PCR 11 prediction, TPM2_PolicyPCR and .pcrsig (src/core/pcr.c, pcr_phase.c,
 * pcrsig.c). Expected digests come from outside the code under test:
 * Debian 12's systemd-measure 252 (`calculate` and `sign` with the files
 * LINUX, "ID=test\n", "quiet", INITRD and "PEM\n" as --linux, --osrel,
 * --cmdline, --initrd, --pcrpkey) where it knows every section, Python's
 * hashlib where it does not (.uname, .sbat: systemd 254+), and json.dumps
 * with base64.b64encode for the JSON. */
#include "test.h"
#include "core/pcr.h"
#include "core/pcrsig.h"
#include "core/platform_host.h"
#include <stdlib.h>

static const char *hex(const uint8_t *d, size_t n)
{
	static char buf[2 * PCR_DIGEST_MAX + 1];

	for (size_t i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", d[i]);
	buf[2 * n] = '\0';
	return buf;
}

static void set(struct uki_sections *u, enum uki_section id, const char *text)
{
	u->s[id] = (struct uki_blob){ (const uint8_t *)text, strlen(text) };
}

static struct uki_sections sections_252(void)
{
	struct uki_sections u;

	memset(&u, 0, sizeof(u));
	set(&u, UKI_LINUX, "LINUX");
	set(&u, UKI_OSREL, "ID=test\n");
	set(&u, UKI_CMDLINE, "quiet");
	set(&u, UKI_INITRD, "INITRD");
	set(&u, UKI_PCRPKEY, "PEM\n");
	return u;
}

TEST(pcr_uki_sections_as_systemd_measure)
{
	struct uki_sections u = sections_252();
	uint8_t base[PCR_DIGEST_MAX], v[PCR_DIGEST_MAX];

	pcr_measure_uki(&pcr_bank_sha256, &u, base);
	/* systemd-measure calculate --phase= (the value before any phase) */
	CHECK_STR(hex(base, 32), "096c4b4f91d25c1db1dee519b8575dcb2145f5cb58da09805ab900520e984c7b");
	memcpy(v, base, 32);
	pcr_measure_phase(&pcr_bank_sha256, v, "enter-initrd");
	CHECK_STR(hex(v, 32), "ec7efcf2794268437f05744e120318b6f459588ef98cd6a51c2ace315dc897fd");
	memcpy(v, base, 32);
	pcr_measure_phase(&pcr_bank_sha256, v, "enter-initrd:leave-initrd:sysinit:ready");
	CHECK_STR(hex(v, 32), "1c6eec5dd4d9ee9ad2d7ca85663975d83b051d72ef22b53bb34fb415343d267c");
	/* empty words measure nothing (systemd-measure's normalize_phase()) */
	memcpy(v, base, 32);
	pcr_measure_phase(&pcr_bank_sha256, v, ":enter-initrd::leave-initrd:");
	CHECK_STR(hex(v, 32), "9890c67f327645f5f81f0c442cb142acb1276bbf7ca25edd0ced73305dde4cc7");
}

TEST(pcr_policy_as_systemd_measure_sign)
{
	struct uki_sections u = sections_252();
	static const char *const pols[] = {
		"d4d7ec010e0025fe0336956beb833048b42f75fd732d63dbba0d4d0fa7708628",
		"e548f231b175671a8421046b2d8024396f87d6b3be80cf215a58b1992c479825",
		"4a20ea5be3baf5fab46a37c91f1c4d0e9a149557414ddc99f94a84cab0dce2ca",
		"89a0a0dfa1b5fdaa53f6286e0bb2d5dd878d76b45443320d01b01283d2805f59",
	};
	static const char *const phases[] = { "enter-initrd", "enter-initrd:leave-initrd",
					      "enter-initrd:leave-initrd:sysinit",
					      "enter-initrd:leave-initrd:sysinit:ready" };
	uint8_t base[PCR_DIGEST_MAX], v[PCR_DIGEST_MAX], pol[SHA256_DIGEST_SIZE];

	pcr_measure_uki(&pcr_bank_sha256, &u, base);
	for (size_t i = 0; i < ARRAY_SIZE(pols); i++) {
		memcpy(v, base, 32);
		pcr_measure_phase(&pcr_bank_sha256, v, phases[i]);
		pcr_policy_pcr11(&pcr_bank_sha256, v, pol);
		CHECK_STR(hex(pol, 32), pols[i]);
	}
	/* hashlib: sha256(0^32 || 0000017f || 00000001 000b 03 000800 || sha256(00..1f)) */
	for (size_t i = 0; i < 32; i++)
		v[i] = (uint8_t)i;
	pcr_policy_pcr11(&pcr_bank_sha256, v, pol);
	CHECK_STR(hex(pol, 32), "da84d8d403a56fdda35bc4589b01abc563f1b1edf9c76e3a500dd1b04c1e4ad8");
}

struct seen {
	char descs[512];
	size_t bytes;
};

static EFI_STATUS record(void *ctx, const char *desc, const void *data, size_t size)
{
	struct seen *s = ctx;
	size_t len = strlen(s->descs);

	snprintf(s->descs + len, sizeof(s->descs) - len, "%s/", desc);
	s->bytes += size;
	return EFI_SUCCESS;
}

/* .uname and .sbat as systemd-stub 254+ and handoff's stub measure them;
 * .pcrsig never, empty sections never. */
TEST(pcr_uki_sections_uname_sbat_skips_pcrsig)
{
	struct uki_sections u;
	struct seen s = { 0 };
	uint8_t v[PCR_DIGEST_MAX];

	memset(&u, 0, sizeof(u));
	set(&u, UKI_PCRSIG, "{\"sha256\":[]}\n");
	set(&u, UKI_PCRPKEY, "PEM\n");
	set(&u, UKI_SBAT, "sbat,1\n");
	set(&u, UKI_UNAME, "6.1.0-test");
	set(&u, UKI_OSREL, "ID=test\n");
	set(&u, UKI_LINUX, "LINUX");
	u.s[UKI_DTB] = (struct uki_blob){ (const uint8_t *)"", 0 };
	CHECK_EQ(uki_measure_sections(&u, record, &s), EFI_SUCCESS);
	CHECK_STR(s.descs, ".linux/.linux/.osrel/.osrel/.uname/.uname/.sbat/.sbat/.pcrpkey/.pcrpkey/");
	CHECK_EQ(s.bytes, 7 + 5 + 7 + 8 + 7 + 10 + 6 + 7 + 9 + 4);
	pcr_measure_uki(&pcr_bank_sha256, &u, v);
	CHECK_STR(hex(v, 32), "af803fed73da28db4e8d439501fbe87b76043d7d001e32bdbac7ff19a6e27c71");
	pcr_measure_phase(&pcr_bank_sha256, v, "enter-initrd:leave-initrd");
	CHECK_STR(hex(v, 32), "99cf549c9cb14c3fd6943211701e05def5ee35c637eda0ff51e25241be3aa185");
}

static const char *joined(const struct pcr_phases *p)
{
	static char buf[1024];

	buf[0] = '\0';
	for (size_t i = 0; i < p->n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "|" : "", p->v[i]);
	return buf;
}

TEST(pcr_phases_parse_normalize_sort)
{
	struct pcr_phases p = { 0 };

	CHECK_EQ(pcr_phases_finish(&p), EFI_SUCCESS);
	CHECK_STR(joined(&p), "enter-initrd|enter-initrd:leave-initrd|enter-initrd:leave-initrd:sysinit|"
			      "enter-initrd:leave-initrd:sysinit:ready");
	pcr_phases_free(&p);
	CHECK_EQ(p.n, 0);
	CHECK_EQ(pcr_phases_add(&p, " sysinit,enter-initrd::leave-initrd:\tready\n", "--phases"), EFI_SUCCESS);
	CHECK_EQ(pcr_phases_add(&p, ":enter-initrd:leave-initrd", "--phases"), EFI_SUCCESS);
	CHECK_EQ(pcr_phases_add(&p, "", "--phases"), EFI_SUCCESS);
	CHECK_STR(joined(&p), "sysinit|enter-initrd:leave-initrd|ready|enter-initrd:leave-initrd");
	CHECK_EQ(pcr_phases_finish(&p), EFI_SUCCESS);
	CHECK_STR(joined(&p), "enter-initrd:leave-initrd|ready|sysinit");
	pcr_phases_free(&p);
	CHECK_EQ(pcr_phases_add(&p, "shutdown:final", "--phases"), EFI_SUCCESS);
	CHECK_EQ(pcr_phases_finish(&p), EFI_SUCCESS);
	CHECK_STR(joined(&p), "shutdown:final");
	pcr_phases_free(&p);
	CHECK_EQ(test_log_count(), 0);
}

TEST(pcr_phases_refused)
{
	struct pcr_phases p = { 0 };
	char many[40 * 8 + 1] = "";

	CHECK_EQ(pcr_phases_add(&p, "enter-initrd enter-initrd:leave-initd", "--phases"), EFI_INVALID_PARAMETER);
	CHECK_LOG("--phases: 'leave-initd' is not a boot phase");
	CHECK_EQ(p.n, 1); /* what was read before stays, for pcr_phases_free() */
	CHECK_EQ(pcr_phases_add(&p, "ready, ::", "--phases"), EFI_INVALID_PARAMETER);
	CHECK_LOG("--phases: '::' names no boot phase");
	CHECK_EQ(pcr_phases_add(&p, "Ready", "--phases"), EFI_INVALID_PARAMETER);
	CHECK_LOG("'Ready' is not a boot phase");
	pcr_phases_free(&p);
	for (int i = 0; i < 33; i++)
		strcat(many, "ready ");
	CHECK_EQ(pcr_phases_add(&p, many, "--phases"), EFI_INVALID_PARAMETER);
	CHECK_LOG("--phases: more than 32 boot phases");
	CHECK_EQ(p.n, 32);
	pcr_phases_free(&p);
}

TEST(pcrsig_base64_rfc4648_vectors)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const out[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	char buf[16];

	for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
		base64_encode((const uint8_t *)in[i], strlen(in[i]), buf);
		CHECK_STR(buf, out[i]);
	}
}

static void fill(uint8_t *d, uint8_t first, uint8_t step)
{
	for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++)
		d[i] = (uint8_t)(first + step * i);
}

TEST(pcrsig_json_exact_bytes)
{
	static const uint8_t sig3[] = { 0xff, 0xfe, 0xfd, 0xfc };
	struct pcrsig_entry e[3] = {
		{ .bank = "sha1", .sig = (const uint8_t *)"foobar", .sig_size = 6 },
		{ .bank = "sha256", .sig = (const uint8_t *)"f", .sig_size = 1 },
		{ .bank = "sha256", .sig = sig3, .sig_size = sizeof(sig3) },
	};
	char *json;

	fill(e[0].pkfp, 0, 1);
	fill(e[0].pol, 32, 1);
	fill(e[1].pkfp, 0xaa, 0);
	fill(e[1].pol, 0x55, 0);
	fill(e[2].pkfp, 0, 1);
	fill(e[2].pol, 0, 0);
	json = pcrsig_json(e, 3);
	/* json.dumps(..., separators=(",", ":")) + "\n" */
	CHECK_STR(json, "{\"sha1\":[{\"pcrs\":[11],"
			"\"pkfp\":\"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\","
			"\"pol\":\"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\","
			"\"sig\":\"Zm9vYmFy\"}],\"sha256\":[{\"pcrs\":[11],"
			"\"pkfp\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\","
			"\"pol\":\"5555555555555555555555555555555555555555555555555555555555555555\","
			"\"sig\":\"Zg==\"},{\"pcrs\":[11],"
			"\"pkfp\":\"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\","
			"\"pol\":\"0000000000000000000000000000000000000000000000000000000000000000\","
			"\"sig\":\"//79/A==\"}]}\n");
	mem_free(json);
}

TEST(pcrsig_json_refused)
{
	static uint8_t big[PCRSIG_SIG_MAX + 1];
	struct pcrsig_entry e[3] = {
		{ .bank = "sha256", .sig = big, .sig_size = 1 },
		{ .bank = "sha1", .sig = big, .sig_size = 1 },
		{ .bank = "sha256", .sig = big, .sig_size = 1 },
	};
	char *json;

	CHECK(pcrsig_json(e, 0) == NULL);
	CHECK(pcrsig_json(e, 3) == NULL);
	CHECK_LOG(".pcrsig: bank sha256 given twice");
	e[0].sig_size = sizeof(big);
	CHECK(pcrsig_json(e, 1) == NULL);
	CHECK_LOG("signature of 1025 bytes");
	e[0].sig_size = PCRSIG_SIG_MAX;
	e[0].bank = "SHA256\"";
	CHECK(pcrsig_json(e, 1) == NULL);
	CHECK_LOG("bad bank name");
	e[0].bank = "sha512";
	json = pcrsig_json(e, 1);
	/* the largest signature fits exactly: 2 x 64 hex digits, 1368 base64 characters */
	CHECK(json && strlen(json) == strlen("{'sha512':[{'pcrs':[11],'pkfp':'','pol':'','sig':''}]}\n") + 128 + 1368);
	mem_free(json);
}
