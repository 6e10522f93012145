/* Secure Boot and measured boot policy (src/core/trust.c), the Image
 * Execution Information Table walk, and the TCG event records. */
#include "test.h"
#include "core/tcg_event.h"
#include "core/trust.h"
#include <efi/image_security.h>
#include <stdlib.h>

static struct image_info pe_bz(void)
{
	struct image_info img = { .is_bz = true, .is_pe = true };
	return img;
}

static struct trust_plan plan(const struct image_info *img, enum boot_scheme s, bool sb, bool shim, bool tpm)
{
	struct trust_request r = { .img = img, .scheme = s, .secure_boot = sb, .shim = shim, .tpm = tpm,
				   .cmdline_outside = true };
	struct trust_plan p;

	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	return p;
}

TEST(trust_secure_boot_verifies_every_scheme_by_firmware)
{
	struct image_info img = pe_bz();
	enum boot_scheme all[] = { SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };

	for (size_t i = 0; i < 3; i++) {
		struct trust_plan p = plan(&img, all[i], true, false, false);
		CHECK_EQ(p.verify, VERIFY_FIRMWARE);
		CHECK(p.load_image);
		CHECK(p.load_image_must_pass);
		CHECK(!p.measure_pcr9);
		CHECK(!p.measure_pcr12);
	}
}

TEST(trust_shim_verifies_and_firmware_loads_only_for_the_stub_scheme)
{
	struct image_info img = pe_bz();
	struct trust_plan p = plan(&img, SCHEME_HANDOVER, true, true, true);

	CHECK_EQ(p.verify, VERIFY_SHIM);
	CHECK(!p.load_image); /* shim measured PCR 4; the firmware may not trust MOK keys */
	CHECK(p.shim_verify_first);
	CHECK(p.measure_pcr9);
	p = plan(&img, SCHEME_STUB, true, true, true);
	CHECK_EQ(p.verify, VERIFY_SHIM);
	CHECK(p.load_image);
	CHECK(!p.shim_verify_first); /* shim's LoadImage hook verifies and measures: PCR 4 once */
	CHECK(!p.measure_pcr9); /* Linux's stub measures PCR 9 itself */
	/* shim present but Secure Boot off: nothing to verify */
	p = plan(&img, SCHEME_LEGACY, false, true, false);
	CHECK_EQ(p.verify, VERIFY_NONE);
}

static struct trust_plan plan_uki_direct(bool sb, bool shim, bool tpm)
{
	struct image_info img = pe_bz();
	struct trust_request r = { .img = &img, .scheme = SCHEME_STUB, .secure_boot = sb, .shim = shim, .tpm = tpm,
				   .cmdline_outside = true, .uki_direct = true };
	struct trust_plan p;

	CHECK_EQ(plan_trust(&r, "uki", &p), EFI_SUCCESS);
	return p;
}

/* A UKI of handoff's stub booted from the loader's buffer: loaded only to be
 * verified or measured (PCR 4 once, as LoadImage logs it), never started. */
TEST(trust_uki_direct_loads_only_to_verify_or_measure)
{
	struct trust_plan p = plan_uki_direct(false, false, false);

	CHECK(!p.load_image); /* nothing to verify or measure: no copy of the whole file */
	CHECK_EQ(p.pcr4, PCR4_NONE);
	p = plan_uki_direct(false, false, true);
	CHECK(p.load_image);
	CHECK(!p.load_image_must_pass);
	CHECK_EQ(p.pcr4, PCR4_LOAD_IMAGE);
	CHECK(p.measure_pcr12); /* as systemd-boot, then the stub's path as systemd-stub: as when started */
	CHECK(!p.measure_pcr9);
	p = plan_uki_direct(true, false, true);
	CHECK_EQ(p.verify, VERIFY_FIRMWARE);
	CHECK(p.load_image && p.load_image_must_pass);
	CHECK(!p.refusal_falls_back);
	CHECK_EQ(p.pcr4, PCR4_LOAD_IMAGE);
	p = plan_uki_direct(true, true, true);
	CHECK_EQ(p.verify, VERIFY_SHIM);
	CHECK(!p.load_image);
	CHECK(p.shim_verify_first);
	CHECK_EQ(p.pcr4, PCR4_SHIM);
}

TEST(trust_bzimage_without_pe_refused_under_secure_boot)
{
	struct image_info img = { .is_bz = true };
	struct trust_request r = { .img = &img, .scheme = SCHEME_HANDOVER, .secure_boot = true };
	struct trust_plan p;

	CHECK_EQ(plan_trust(&r, "/vmlinuz", &p), EFI_SECURITY_VIOLATION);
	CHECK(test_log_contains("/vmlinuz: refused: Secure Boot is on and this is a bzImage without a PE/COFF header"));
	r.secure_boot = false;
	CHECK_EQ(plan_trust(&r, "/vmlinuz", &p), EFI_SUCCESS);
	CHECK(!p.load_image);
	r.secure_boot = true;
	r.preverified = true; /* inside a signed UKI */
	CHECK_EQ(plan_trust(&r, "/vmlinuz", &p), EFI_SUCCESS);
	CHECK_EQ(p.verify, VERIFY_NONE);
	test_log_reset();
}

TEST(trust_tpm_without_secure_boot_loads_pe_for_pcr4)
{
	struct image_info img = pe_bz();
	struct image_info bare = { .is_bz = true };
	struct trust_plan p = plan(&img, SCHEME_LEGACY, false, false, true);

	CHECK_EQ(p.verify, VERIFY_NONE);
	CHECK(p.load_image);
	CHECK(!p.load_image_must_pass); /* only PCR 4 is at stake: handoff measures it if LoadImage fails */
	CHECK(p.measure_pcr9);
	CHECK(p.measure_pcr12);
	p = plan(&bare, SCHEME_LEGACY, false, false, true);
	CHECK(!p.load_image);
	CHECK_EQ(p.pcr4, PCR4_HANDOFF_FILE);
	/* no TPM, Secure Boot off: nothing changes */
	p = plan(&img, SCHEME_HANDOVER, false, false, false);
	CHECK(!p.load_image);
	CHECK(!p.measure_pcr9);
	CHECK(!p.measure_pcr12);
}

TEST(trust_pcr12_only_for_a_command_line_from_outside_the_image)
{
	struct image_info img = pe_bz();
	struct trust_request r = { .img = &img, .scheme = SCHEME_STUB, .tpm = true, .cmdline_outside = true,
				   .cmdline_empty = true };
	struct trust_plan p;

	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK(!p.measure_pcr12);
	r.cmdline_empty = false;
	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK(p.measure_pcr12);
	r.cmdline_outside = false;
	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK(!p.measure_pcr12);
}

/* issue 21: under Secure Boot the stub's kernel went unmeasured by handover
 * and legacy; with Secure Boot off LoadImage measured it. Now handoff measures
 * it itself either way (the firmware may not trust it on its own), and the
 * stub scheme's refused LoadImage falls back with PCR 4 seen to. */
TEST(trust_stub_measures_embedded_kernel_the_same_with_secure_boot_on_and_off)
{
	struct image_info img = pe_bz();
	struct image_info bare = { .is_bz = true };
	struct trust_request r = { .img = &img, .scheme = SCHEME_HANDOVER, .secure_boot = true, .tpm = true,
				   .preverified = true };
	struct trust_plan p;

	for (int sb = 0; sb < 2; sb++) {
		r.secure_boot = sb;
		CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
		CHECK_EQ(p.verify, VERIFY_NONE);
		CHECK(!p.load_image);
		CHECK_EQ(p.pcr4, PCR4_HANDOFF_PE);
		CHECK(p.measure_pcr9);
	}
	r.scheme = SCHEME_STUB;
	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.pcr4, PCR4_LOAD_IMAGE);
	CHECK(p.refusal_falls_back);
	CHECK_EQ(trust_load_outcome(&p, EFI_SECURITY_VIOLATION), LOAD_FALLBACK);
	CHECK_EQ(trust_load_outcome(&p, EFI_OUT_OF_RESOURCES), LOAD_FAILED);
	r.scheme = SCHEME_HANDOVER; /* the fallback: PCR 4 was seen to before it */
	r.pcr4_done = true;
	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.pcr4, PCR4_EARLIER);
	CHECK(!p.load_image);
	/* a wrapped bzImage: in PCR 4 as the image that carries it */
	r = (struct trust_request){ .img = &bare, .scheme = SCHEME_LEGACY, .tpm = true, .preverified = true };
	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.pcr4, PCR4_EARLIER);
}

/* issue 21: a bzImage without a PE header, and a LoadImage that failed for
 * another reason than the policy, reached the kernel with no PCR 4 event. */
TEST(trust_every_kernel_in_pcr4_once_with_a_tpm)
{
	struct image_info img = pe_bz();
	struct image_info bare = { .is_bz = true };
	struct trust_plan p = plan(&bare, SCHEME_LEGACY, false, false, true);

	CHECK_EQ(p.pcr4, PCR4_HANDOFF_FILE); /* the file's SHA-256 */
	CHECK(!p.load_image);
	p = plan(&img, SCHEME_HANDOVER, false, false, true);
	CHECK_EQ(p.pcr4, PCR4_LOAD_IMAGE);
	CHECK_EQ(trust_load_outcome(&p, EFI_UNSUPPORTED), LOAD_MEASURE); /* handoff measures it then */
	p = plan(&img, SCHEME_HANDOVER, true, true, true);
	CHECK_EQ(p.pcr4, PCR4_SHIM);
	p = plan(&img, SCHEME_STUB, true, true, true);
	CHECK_EQ(p.pcr4, PCR4_LOAD_IMAGE); /* shim's LoadImage hook */
	p = plan(&img, SCHEME_STUB, false, false, false);
	CHECK_EQ(p.pcr4, PCR4_NONE);
}

/* issue 21: with Secure Boot off a policy refusal only cost PCR 4 and the
 * kernel booted; it is a refusal whatever the SecureBoot variable says. */
TEST(trust_load_refusal_is_a_refusal_with_secure_boot_off)
{
	struct image_info img = pe_bz();
	struct trust_plan p = plan(&img, SCHEME_LEGACY, false, false, true);

	CHECK_EQ(trust_load_outcome(&p, EFI_SECURITY_VIOLATION), LOAD_REFUSED);
	CHECK_EQ(trust_load_outcome(&p, EFI_ACCESS_DENIED), LOAD_REFUSED);
	p = plan(&img, SCHEME_STUB, false, false, false);
	CHECK_EQ(trust_load_outcome(&p, EFI_ACCESS_DENIED), LOAD_REFUSED);
	CHECK_EQ(trust_load_outcome(&p, EFI_LOAD_ERROR), LOAD_FAILED);
	p = plan(&img, SCHEME_STUB, true, true, true);
	CHECK_EQ(trust_load_outcome(&p, EFI_SECURITY_VIOLATION), LOAD_REFUSED_BY_SHIM);
	p = plan(&img, SCHEME_STUB, true, false, true);
	CHECK_EQ(trust_load_outcome(&p, EFI_SECURITY_VIOLATION), LOAD_REFUSED);
}

/* include/linux/efi.h efi_get_secureboot_mode() and libstub's efi_get_secureboot(). */
TEST(trust_secure_boot_mode_as_linux_decides_it)
{
	struct sb_vars v = { .secure_boot_status = EFI_SUCCESS, .secure_boot = 1, .moksb_status = EFI_NOT_FOUND };

	CHECK(sb_enforced(&v));
	CHECK_EQ(sb_mode(&v), SB_MODE_ENABLED);
	CHECK_EQ(SB_MODE_ENABLED, 3);
	v.setup_mode = 1;
	CHECK(!sb_enforced(&v));
	CHECK_EQ(sb_mode(&v), SB_MODE_DISABLED);
	v.setup_mode = 0;
	v.secure_boot = 0;
	CHECK_EQ(sb_mode(&v), SB_MODE_DISABLED);
	CHECK_EQ(SB_MODE_DISABLED, 2);
	v.secure_boot_status = EFI_NOT_FOUND;
	CHECK_EQ(sb_mode(&v), SB_MODE_DISABLED);
	v.secure_boot_status = EFI_DEVICE_ERROR;
	CHECK_EQ(sb_mode(&v), SB_MODE_UNKNOWN);
	CHECK_EQ(SB_MODE_UNKNOWN, 1);
	CHECK(!sb_enforced(&v));
	/* shim's validation switched off (mokutil --disable-validation): volatile MokSBStateRT = 1 */
	v = (struct sb_vars){ .secure_boot_status = EFI_SUCCESS, .secure_boot = 1, .moksb_status = EFI_SUCCESS,
			      .moksb_attributes = EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS,
			      .moksb = 1 };
	CHECK_EQ(sb_mode(&v), SB_MODE_DISABLED);
	CHECK(sb_enforced(&v)); /* handoff still verifies what it boots */
	v.moksb_attributes |= EFI_VARIABLE_NON_VOLATILE; /* only shim's volatile copy counts */
	CHECK_EQ(sb_mode(&v), SB_MODE_ENABLED);
	v.moksb_attributes = 0;
	v.moksb = 0;
	CHECK_EQ(sb_mode(&v), SB_MODE_ENABLED);
}

/* The plan carries the mode to boot_params on the schemes handoff fills it. */
TEST(trust_plan_carries_the_secure_boot_mode)
{
	struct image_info img = pe_bz();
	struct trust_request r = { .img = &img, .scheme = SCHEME_LEGACY, .secure_boot = true,
				   .sb_mode = SB_MODE_ENABLED };
	struct trust_plan p;

	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.bp_secure_boot, SB_MODE_ENABLED);
	r.sb_mode = SB_MODE_DISABLED;
	r.secure_boot = false;
	CHECK_EQ(plan_trust(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.bp_secure_boot, SB_MODE_DISABLED);
}

TEST(trust_refusal_reasons)
{
	CHECK(strstr(trust_refusal_reason(EFI_SECURITY_VIOLATION, true, EFI_IMAGE_EXECUTION_AUTH_SIG_FOUND), "dbx"));
	CHECK(strstr(trust_refusal_reason(EFI_ACCESS_DENIED, false, EFI_IMAGE_EXECUTION_AUTH_SIG_FAILED),
		     "not signed"));
	CHECK(strstr(trust_refusal_reason(EFI_ACCESS_DENIED, true, EFI_IMAGE_EXECUTION_AUTH_SIG_FAILED),
		     "signer is in dbx"));
	CHECK(strstr(trust_refusal_reason(EFI_ACCESS_DENIED, true, EFI_IMAGE_EXECUTION_AUTH_UNTESTED),
		     "changed after signing"));
	CHECK(strstr(trust_refusal_reason(EFI_SECURITY_VIOLATION, false, -1), "not signed"));
	CHECK(strstr(trust_status_meaning(EFI_SECURITY_VIOLATION), "forbids starting it"));
	CHECK(strstr(trust_status_meaning(EFI_ACCESS_DENIED), "forbids loading it"));
}

static size_t put_entry(uint8_t *p, uint32_t action, uint32_t size)
{
	put_le32(p, action);
	put_le32(p + 4, size);
	return size;
}

TEST(trust_image_exec_info_last_action)
{
	uint8_t t[64] = { 0 };
	uint32_t a = 99;
	size_t off = 8;

	CHECK_EQ(image_exec_info_last_action(t, sizeof(t), &a), EFI_NOT_FOUND);
	put_le64(t, 2);
	off += put_entry(t + off, EFI_IMAGE_EXECUTION_AUTH_SIG_FAILED | EFI_IMAGE_EXECUTION_INITIALIZED, 20);
	put_entry(t + off, EFI_IMAGE_EXECUTION_AUTH_SIG_FOUND, 12);
	CHECK_EQ(image_exec_info_count(t, sizeof(t)), 2);
	CHECK_EQ(image_exec_info_last_action(t, sizeof(t), &a), EFI_SUCCESS);
	CHECK_EQ(a, EFI_IMAGE_EXECUTION_AUTH_SIG_FOUND);
	/* an entry running past the end, a zero InfoSize (would loop), too many entries */
	CHECK_EQ(image_exec_info_last_action(t, 8 + 20 + 11, &a), EFI_LOAD_ERROR);
	put_entry(t + 8, 1, 0);
	CHECK_EQ(image_exec_info_last_action(t, sizeof(t), &a), EFI_LOAD_ERROR);
	put_entry(t + 8, 1, 20);
	put_le64(t, UINT64_MAX);
	CHECK_EQ(image_exec_info_last_action(t, sizeof(t), &a), EFI_LOAD_ERROR);
	CHECK_EQ(image_exec_info_count(t, 7), 0);
}

TEST(tcg_event_tagged_is_linux_stub_layout)
{
	size_t n;
	uint8_t *e = tcg_event_new_tagged(9, LINUX_EVENT_TAG_LOAD_OPTIONS, LINUX_EVENT_DESC_LOAD_OPTIONS, &n);
	static const uint8_t head[] = {
		18 + 8 + 26, 0, 0, 0,       /* Size */
		14, 0, 0, 0, 1, 0,          /* HeaderSize, HeaderVersion */
		9, 0, 0, 0, 6, 0, 0, 0,     /* PCRIndex 9, EV_EVENT_TAG */
		0xed, 0x22, 0x3b, 0x8f,     /* TaggedEventID */
		26, 0, 0, 0,                /* TaggedEventDataSize: the string and its NUL */
	};

	CHECK(e != NULL);
	CHECK_EQ(n, sizeof(head) + 26);
	CHECK(memcmp(e, head, sizeof(head)) == 0);
	CHECK(memcmp(e + sizeof(head), "LOADED_IMAGE::LoadOptions", 26) == 0);
	free(e);
}

TEST(tcg_event_ipl_ascii_is_utf16_with_nul)
{
	size_t n;
	uint8_t *e = tcg_event_new_ipl_ascii(11, ".linux", &n);
	static const uint8_t want[] = {
		18 + 14, 0, 0, 0, 14, 0, 0, 0, 1, 0, 11, 0, 0, 0, 13, 0, 0, 0,
		'.', 0, 'l', 0, 'i', 0, 'n', 0, 'u', 0, 'x', 0, 0, 0,
	};

	CHECK(e != NULL);
	CHECK_EQ(n, sizeof(want));
	CHECK(memcmp(e, want, sizeof(want)) == 0);
	free(e);
}

TEST(tcg2_event_size_walks_digests_and_data)
{
	uint8_t ev[128] = { 0 };
	size_t off = 12;

	put_le32(ev, 9);
	put_le32(ev + 4, 6);
	put_le32(ev + 8, 2);
	put_le16(ev + off, 0x0004); /* SHA-1 */
	off += 2 + 20;
	put_le16(ev + off, 0x000b); /* SHA-256 */
	off += 2 + 32;
	put_le32(ev + off, 5);
	CHECK_EQ(tcg2_event_size(ev, sizeof(ev)), off + 4 + 5);
	CHECK_EQ(tcg2_event_size(ev, off + 4 + 4), 0);           /* data runs past the end */
	CHECK_EQ(tcg2_events_size(ev, sizeof(ev), 1), off + 9);
	CHECK_EQ(tcg2_events_size(ev, sizeof(ev), 2), 0);        /* the second one is zeros: no digests */
	put_le16(ev + 12, 0x0099);                               /* unknown algorithm */
	CHECK_EQ(tcg2_event_size(ev, sizeof(ev)), 0);
	put_le32(ev + 8, 0xffffffff);
	CHECK_EQ(tcg2_event_size(ev, sizeof(ev)), 0);
}

/* The event handoff logs with the kernel it measures into PCR 4: the
 * UEFI_IMAGE_LOAD_EVENT the firmware's LoadImage logs (PC Client PFP
 * §10.2.3), UINTN fields 8 bytes on x86-64 (and the host). */
TEST(tcg_event_image_is_uefi_image_load_event)
{
	static const uint8_t dp[] = { 0x7f, 0xff, 4, 0 }; /* the end node alone */
	size_t n;
	uint8_t *e = tcg_event_new_image(4, 0x12345000, 0x800123, dp, sizeof(dp), &n);
	static const uint8_t want[] = {
		18 + 32 + 4, 0, 0, 0,                       /* Size */
		14, 0, 0, 0, 1, 0,                          /* HeaderSize, HeaderVersion */
		4, 0, 0, 0, 0x03, 0, 0, 0x80,               /* PCR 4, EV_EFI_BOOT_SERVICES_APPLICATION */
		0x00, 0x50, 0x34, 0x12, 0, 0, 0, 0,         /* ImageLocationInMemory */
		0x23, 0x01, 0x80, 0, 0, 0, 0, 0,            /* ImageLengthInMemory */
		0, 0, 0, 0, 0, 0, 0, 0,                     /* ImageLinkTimeAddress */
		4, 0, 0, 0, 0, 0, 0, 0,                     /* LengthOfDevicePath */
		0x7f, 0xff, 4, 0,                           /* DevicePath */
	};

	CHECK(e != NULL);
	CHECK_EQ(n, sizeof(want));
	CHECK_MEM(e, want, sizeof(want));
	free(e);
}
