/* src/core/siglist.c against bytes written out by hand from UEFI 2.10
 * §32.4.1 (EFI_SIGNATURE_LIST) and §8.2.2 (EFI_VARIABLE_AUTHENTICATION_2
 * and the signed serialization); tests/cli/cmd_keys.py checks the whole
 * .auth files against efitools. */
#include "test.h"
#include "core/siglist.h"
#include <stdlib.h>

#define X509_TYPE 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a, 0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72
#define SHA256_TYPE 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40, 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28
#define OWNER_BYTES 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10
#define PKCS7_TYPE 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49, 0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7

static const EFI_GUID x509 = EFI_CERT_X509_GUID, sha = EFI_CERT_SHA256_GUID;
static const EFI_GUID owner = { 0x04030201, 0x0605, 0x0807, { 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 } };

TEST(siglist_one_certificate_per_list)
{
	static const uint8_t want[] = {
		X509_TYPE, 0x2f, 0, 0, 0, 0, 0, 0, 0, 0x13, 0, 0, 0, OWNER_BYTES, 'A', 'B', 'C',
		X509_TYPE, 0x2e, 0, 0, 0, 0, 0, 0, 0, 0x12, 0, 0, 0, OWNER_BYTES, 'D', 'E',
	};
	const struct siglist_entry e[] = { { x509, owner, (const uint8_t *)"ABC", 3 },
					   { x509, owner, (const uint8_t *)"DE", 2 } };
	struct siglist_entry *back = NULL;
	uint8_t *buf = NULL;
	size_t len = 0, n = 0;

	CHECK_EQ(siglist_build(e, 2, &buf, &len), EFI_SUCCESS);
	CHECK_EQ(len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	CHECK_EQ(siglist_parse(buf, len, "db", &back, &n), EFI_SUCCESS);
	CHECK_EQ(n, 2);
	CHECK_EQ(back[1].size, 2);
	CHECK_MEM(back[1].data, "DE", 2);
	CHECK_MEM(&back[0].owner, &owner, sizeof(owner));
	CHECK_MEM(&back[0].type, &x509, sizeof(x509));
	free(back);
	free(buf);
}

TEST(siglist_hashes_of_one_size_share_a_list)
{
	uint8_t d[2][32], want[28 + 2 * 48] = { SHA256_TYPE, 0x7c, 0, 0, 0, 0, 0, 0, 0, 0x30, 0, 0, 0 };
	struct siglist_entry e[2] = { { sha, owner, d[0], 32 }, { sha, owner, d[1], 32 } }, *back = NULL;
	static const uint8_t owner_bytes[] = { OWNER_BYTES };
	uint8_t *buf = NULL;
	size_t len = 0, n = 0;

	memset(d[0], 0xaa, 32);
	memset(d[1], 0xbb, 32);
	for (int i = 0; i < 2; i++) {
		memcpy(want + 28 + 48 * i, owner_bytes, 16);
		memcpy(want + 28 + 48 * i + 16, d[i], 32);
	}
	CHECK_EQ(siglist_build(e, 2, &buf, &len), EFI_SUCCESS);
	CHECK_EQ(len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	CHECK_EQ(siglist_parse(buf, len, "dbx", &back, &n), EFI_SUCCESS);
	CHECK_EQ(n, 2);
	CHECK_MEM(back[1].data, d[1], 32);
	free(back);
	free(buf);
}

TEST(siglist_parse_skips_the_signature_header_and_takes_an_empty_variable)
{
	static const uint8_t v[] = { X509_TYPE, 0x2f, 0, 0, 0, 2, 0, 0, 0, 0x11, 0, 0, 0, 'h', 'h', OWNER_BYTES, 'Z' };
	struct siglist_entry *e = NULL;
	size_t n = 9;

	CHECK_EQ(siglist_parse(v, sizeof(v), "KEK", &e, &n), EFI_SUCCESS);
	CHECK_EQ(n, 1);
	CHECK_EQ(e[0].size, 1);
	CHECK_EQ(e[0].data[0], 'Z');
	free(e);
	CHECK_EQ(siglist_parse(v, 0, "KEK", &e, &n), EFI_SUCCESS);
	CHECK_EQ(n, 0);
	CHECK(e == NULL);
}

/* One malformed list each; the message names the variable and the field. */
TEST(siglist_parse_refuses_malformed_lists)
{
	static const struct {
		uint8_t v[48];
		size_t len;
		const char *log;
	} bad[] = {
		{ { X509_TYPE, 0x2c, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, OWNER_BYTES }, 44,
		  "holds no more than the owner" },
		{ { X509_TYPE, 0x2f, 0, 0, 0, 0, 0, 0, 0, 0x12, 0, 0, 0, OWNER_BYTES, 1, 2, 3 }, 47,
		  "does not divide" },
		{ { X509_TYPE, 0x30, 0, 0, 0, 0, 0, 0, 0, 0x13, 0, 0, 0, OWNER_BYTES, 1, 2, 3 }, 47, "outside the 47" },
		{ { X509_TYPE, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0x13, 0, 0, 0 }, 28, "SignatureListSize 27" },
		{ { X509_TYPE, 0x2f, 0, 0, 0, 0x14, 0, 0, 0, 0x13, 0, 0, 0, OWNER_BYTES, 1, 2, 3 }, 47,
		  "SignatureHeaderSize 20 past" },
		{ { X509_TYPE, 0x1c, 0, 0, 0, 0, 0, 0, 0, 0x13, 0, 0, 0, 9 }, 29, "1 stray bytes at 0x1c" },
		{ { X509_TYPE, 0x2f, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff }, 47, "SignatureSize 4294967295" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct siglist_entry *e = NULL;
		size_t n = 0;

		test_log_reset();
		if (siglist_parse(bad[i].v, bad[i].len, "db", &e, &n) != EFI_LOAD_ERROR ||
		    !test_log_contains(bad[i].log))
			test_fail(__FILE__, __LINE__, "case %zu: not refused with \"%s\"", i, bad[i].log);
		CHECK(e == NULL);
	}
}

static const EFI_TIME when = { .Year = 2025, .Month = 12, .Day = 5, .Hour = 3, .Minute = 4, .Second = 5 };
#define WHEN_BYTES 0xe9, 0x07, 12, 5, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0

TEST(siglist_auth_payload_is_name_vendor_attributes_time_data)
{
	static const uint8_t want[] = { 'd', 0, 'b', 0, OWNER_BYTES, 0x27, 0, 0, 0, WHEN_BYTES, 'E', 'S', 'L' };
	uint8_t *buf = NULL;
	size_t len = 0;

	CHECK_EQ(siglist_auth_payload("db", &owner, 0x27, &when, (const uint8_t *)"ESL", 3, &buf, &len), EFI_SUCCESS);
	CHECK_EQ(len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	free(buf);
	CHECK_EQ(siglist_auth_payload("d\xc3\xa9", &owner, 0x27, &when, NULL, 0, &buf, &len), EFI_INVALID_PARAMETER);
}

TEST(siglist_auth_file_is_descriptor_then_data)
{
	static const uint8_t want[] = { WHEN_BYTES, 0x1b, 0, 0, 0, 0x00, 0x02, 0xf1, 0x0e, PKCS7_TYPE, 'p', '7', '!',
					'E', 'S', 'L' };
	struct siglist_auth a;
	uint8_t *buf = NULL;
	size_t len = 0;

	CHECK_EQ(siglist_auth_build(&when, (const uint8_t *)"p7!", 3, (const uint8_t *)"ESL", 3, &buf, &len),
		 EFI_SUCCESS);
	CHECK_EQ(len, sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	CHECK_EQ(siglist_auth_parse(buf, len, "db.auth", &a), EFI_SUCCESS);
	CHECK_EQ(a.pkcs7_len, 3);
	CHECK_MEM(a.pkcs7, "p7!", 3);
	CHECK_EQ(a.data_len, 3);
	CHECK_MEM(a.data, "ESL", 3);
	CHECK_MEM(&a.time, &when, sizeof(when));
	free(buf);
}

TEST(siglist_auth_parse_refuses_what_is_no_auth_file)
{
	uint8_t v[48] = { WHEN_BYTES, 0x1b, 0, 0, 0, 0x00, 0x02, 0xf1, 0x0e, PKCS7_TYPE, 'p', '7', '!' };
	struct siglist_auth a;

	test_log_reset();
	CHECK_EQ(siglist_auth_parse(v, 39, "x.auth", &a), EFI_LOAD_ERROR);
	CHECK_LOG("39 bytes, shorter than an EFI_VARIABLE_AUTHENTICATION_2");
	v[16] = 0x40; /* dwLength 64: past the 43 bytes */
	CHECK_EQ(siglist_auth_parse(v, 43, "x.auth", &a), EFI_LOAD_ERROR);
	CHECK_LOG("dwLength 64 outside");
	v[16] = 0x10; /* shorter than its own header */
	CHECK_EQ(siglist_auth_parse(v, 43, "x.auth", &a), EFI_LOAD_ERROR);
	CHECK_LOG("dwLength 16 outside");
	v[16] = 0x1b;
	v[22] = 0x02;
	v[23] = 0x00; /* WIN_CERT_TYPE_PKCS_SIGNED_DATA: an image's certificate, not a variable's */
	CHECK_EQ(siglist_auth_parse(v, 43, "x.auth", &a), EFI_LOAD_ERROR);
	CHECK_LOG("not a WIN_CERTIFICATE_UEFI_GUID");
}
