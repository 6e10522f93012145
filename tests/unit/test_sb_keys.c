/* Secure Boot key enrollment (loader.conf(5) secure-boot-enroll): when the
 * loader enrolls (mode x Setup Mode x virtual machine), the check of a .auth
 * file field by field, the entries systemd-boot would show, and the writes
 * against a fake firmware: db, dbx, KEK, PK in that order with the
 * attributes UEFI 2.10 §8.2.1 requires, nothing after a refusal, then a reset. */
#include "test.h"
#include "core/bls.h"
#include "core/sb_keys.h"
#include "efi/sb_write.h"
#include <efi/sig_list.h>
#include <stdlib.h>

TEST(sb_enroll_decide_every_mode)
{
	static const struct {
		enum cfg_sb_enroll mode;
		uint8_t setup_mode;
		bool safe;
		enum sb_enroll_do want;
	} cases[] = {
		{CFG_SB_ENROLL_OFF, 1, true, SB_ENROLL_NOTHING},
		{CFG_SB_ENROLL_OFF, 1, false, SB_ENROLL_NOTHING},
		{CFG_SB_ENROLL_MANUAL, 1, true, SB_ENROLL_ENTRIES},
		{CFG_SB_ENROLL_MANUAL, 1, false, SB_ENROLL_ENTRIES},
		{CFG_SB_ENROLL_IF_SAFE, 1, true, SB_ENROLL_AUTO},
		{CFG_SB_ENROLL_IF_SAFE, 1, false, SB_ENROLL_ENTRIES},
		{CFG_SB_ENROLL_FORCE, 1, true, SB_ENROLL_AUTO},
		{CFG_SB_ENROLL_FORCE, 1, false, SB_ENROLL_AUTO},
		/* User Mode (or a SetupMode that is not 1): never, in any mode */
		{CFG_SB_ENROLL_MANUAL, 0, true, SB_ENROLL_NOTHING},
		{CFG_SB_ENROLL_IF_SAFE, 0, true, SB_ENROLL_NOTHING},
		{CFG_SB_ENROLL_FORCE, 0, true, SB_ENROLL_NOTHING},
		{CFG_SB_ENROLL_FORCE, 0, false, SB_ENROLL_NOTHING},
		{CFG_SB_ENROLL_FORCE, 2, true, SB_ENROLL_NOTHING},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sb_vars sb = {.secure_boot = 0, .setup_mode = cases[i].setup_mode};

		CHECK_EQ(sb_enroll_decide(cases[i].mode, &sb, cases[i].safe), cases[i].want);
	}
}

#define X509_GUID 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a, 0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72
#define PKCS7_GUID 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49, 0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7

/* EFI_VARIABLE_AUTHENTICATION_2 at @b with @cert_len bytes of "SignedData":
 * where the data goes. */
static size_t put_descriptor(uint8_t *b, uint32_t cert_len)
{
	static const uint8_t head[40] = {
		0xe8, 0x07, 11, 30, 12, 34, 56, [16] = 0, [20] = 0x00, 0x02, 0xf1, 0x0e, PKCS7_GUID};

	memcpy(b, head, sizeof(head));
	put_le32(b + 16, 24 + cert_len);
	memset(b + 40, 0xa5, cert_len);
	if (cert_len)
		b[40] = 0x30; /* DER SEQUENCE */
	return 40 + cert_len;
}

/* An X.509 EFI_SIGNATURE_LIST of @n signatures of @size bytes (owner GUID included) at @b + @at. */
static size_t put_list(uint8_t *b, size_t at, uint32_t n, uint32_t size)
{
	static const uint8_t type[16] = {X509_GUID};

	memcpy(b + at, type, 16);
	put_le32(b + at + 16, 28 + n * size);
	put_le32(b + at + 20, 0);
	put_le32(b + at + 24, size);
	memset(b + at + 28, 0x5a, (size_t)n * size);
	return at + 28 + (size_t)n * size;
}

static uint8_t buf[4096];

/* A good one: signed, one list of one 800-byte certificate. */
static size_t good_auth(void)
{
	memset(buf, 0, sizeof(buf));
	return put_list(buf, put_descriptor(buf, 1200), 1, 816);
}

TEST(sb_auth_check_accepts_what_the_firmware_takes)
{
	size_t len = good_auth(), at;

	CHECK_EQ(len, 40 + 1200 + 28 + 816);
	CHECK_EQ(sb_auth_check(buf, len, "PK.auth", true), EFI_SUCCESS);
	CHECK_EQ(sb_auth_check(buf, len, "db.auth", false), EFI_SUCCESS);
	/* db and KEK: several lists, several signatures, a header; unsigned is the firmware's call */
	at = put_list(buf, put_list(buf, put_descriptor(buf, 0), 3, 48), 1, 816);
	put_le32(buf + at - 28 - 816 + 20, 8); /* SignatureHeaderSize 8 in the last list ... */
	put_le32(buf + at - 28 - 816 + 16, 28 + 8 + 816);
	CHECK_EQ(sb_auth_check(buf, at + 8, "db.auth", false), EFI_SUCCESS); /* ... its 8 bytes in the list */
	CHECK_EQ(test_log_count(), 0);
}

TEST(sb_auth_check_refuses_each_broken_field)
{
	static const struct {
		const char *what;
		size_t at;      /* the byte changed */
		uint32_t value; /* written there (le32, or one byte when byte) */
		bool byte;
		const char *log;
	} cases[] = {
		{ "Pad1", 7, 1, true, "PK.auth: byte 7: not a valid EFI_VARIABLE_AUTHENTICATION_2" },
		{ "Nanosecond", 8, 500, false, "PK.auth: byte 8: not a valid EFI_VARIABLE_AUTHENTICATION_2" },
		{ "TimeZone", 12, 0x7ff, false, "PK.auth: byte 12: not a valid EFI_VARIABLE_AUTHENTICATION_2" },
		{ "Daylight", 14, 1, true, "PK.auth: byte 14: not a valid EFI_VARIABLE_AUTHENTICATION_2" },
		{ "Pad2", 15, 1, true, "PK.auth: byte 15: not a valid EFI_VARIABLE_AUTHENTICATION_2" },
		{ "dwLength short", 16, 23, false, "PK.auth: byte 16: not a valid EFI_VARIABLE_AUTHENTICATION_2" },
		{ "dwLength past the end", 16, 2084 - 15, false, "PK.auth: byte 16: not a valid" },
		{ "dwLength huge", 16, 0xffffffff, false, "PK.auth: byte 16: not a valid" },
		{ "wRevision", 20, 0x0100, false, "PK.auth: byte 16: not a valid" },
		{ "wCertificateType", 22, 0x0002, false, "PK.auth: byte 16: not a valid" },
		{ "CertType", 24, 0x4aafd29c, false, "PK.auth: byte 16: not a valid" },
		{ "CertData not DER", 40, 0x31, true, "PK.auth: byte 16: not a valid" },
		{ "SignatureListSize short", 1240 + 16, 27, false, "byte 1240: not a valid EFI_SIGNATURE_LIST" },
		{ "SignatureListSize long", 1240 + 16, 28 + 817, false, "PK.auth: byte 1240: not a valid" },
		{ "SignatureListSize wraps", 1240 + 16, 0xfffffff0, false, "PK.auth: byte 1240: not a valid" },
		{ "SignatureHeaderSize: no room", 1240 + 20, 817, false, "PK.auth: byte 1240: not a valid" },
		{ "SignatureHeaderSize huge", 1240 + 20, 0xffffffff, false, "PK.auth: byte 1240: not a valid" },
		{ "SignatureHeaderSize: all", 1240 + 20, 816, false, "byte 1240: not a valid variable: no signature" },
		{ "SignatureSize 0", 1240 + 24, 0, false, "PK.auth: byte 1240: not a valid EFI_SIGNATURE_LIST" },
		{ "SignatureSize: an owner only", 1240 + 24, 16, false, "PK.auth: byte 1240: not a valid" },
		{ "SignatureSize: no whole number", 1240 + 24, 815, false, "PK.auth: byte 1240: not a valid" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t len = good_auth();

		if (cases[i].byte)
			buf[cases[i].at] = (uint8_t)cases[i].value;
		else
			put_le32(buf + cases[i].at, cases[i].value);
		test_log_reset();
		if (sb_auth_check(buf, len, "PK.auth", true) != EFI_INVALID_PARAMETER)
			test_fail(__FILE__, __LINE__, "%s: accepted", cases[i].what);
		if (!test_log_contains(cases[i].log))
			test_fail(__FILE__, __LINE__, "%s: no log line \"%s\"", cases[i].what, cases[i].log);
		CHECK_EQ(test_log_count(), 1);
	}
}

TEST(sb_auth_check_sizes_and_the_platform_key)
{
	static const struct {
		size_t len;
		const char *log;
	} cuts[] = {
		{ 0, "x.auth: byte 0: not a valid EFI_VARIABLE_AUTHENTICATION_2" },
		{ 39, "x.auth: byte 0: not a valid EFI_VARIABLE_AUTHENTICATION_2" },     /* too short for one */
		{ 1239, "x.auth: byte 16: not a valid EFI_VARIABLE_AUTHENTICATION_2" },  /* CertData cut */
		{ 1240, "x.auth: byte 1240: not a valid variable: no signature in it" }, /* no list after it */
		{ 1267, "x.auth: byte 1240: not a valid EFI_SIGNATURE_LIST" },           /* its header cut */
		{ 2083, "x.auth: byte 1240: not a valid EFI_SIGNATURE_LIST" },           /* its last byte */
	};
	size_t len = good_auth(), at;

	/* cut anywhere: refused, never read past the end (ASan) */
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, buf, n);
		CHECK_EQ(sb_auth_check(copy, n, "x.auth", false), EFI_INVALID_PARAMETER);
		free(copy);
		test_log_reset();
	}
	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
		CHECK_EQ(sb_auth_check(buf, cuts[i].len, "x.auth", false), EFI_INVALID_PARAMETER);
		CHECK_LOG(cuts[i].log);
		test_log_reset();
	}
	/* a trailing piece of a list */
	CHECK_EQ(sb_auth_check(buf, len + 5, "x.auth", false), EFI_INVALID_PARAMETER);
	CHECK_LOG("x.auth: byte 2084: not a valid EFI_SIGNATURE_LIST");
	/* larger than SB_AUTH_MAX: refused before anything is looked at */
	test_log_reset();
	CHECK_EQ(sb_auth_check(buf, SB_AUTH_MAX + 1, "x.auth", false), EFI_INVALID_PARAMETER);
	CHECK_LOG("x.auth: byte 0: not a valid EFI_VARIABLE_AUTHENTICATION_2");
	/* PK: unsigned (Custom Mode would be needed), two signatures, two lists: refused; KEK may */
	len = put_list(buf, put_descriptor(buf, 0), 1, 816);
	test_log_reset();
	CHECK_EQ(sb_auth_check(buf, len, "PK.auth", true), EFI_INVALID_PARAMETER);
	CHECK_LOG("PK.auth: byte 0: not a valid PK: unsigned or not one signature");
	CHECK_EQ(sb_auth_check(buf, len, "KEK.auth", false), EFI_SUCCESS);
	len = put_list(buf, put_descriptor(buf, 100), 2, 816);
	CHECK_EQ(sb_auth_check(buf, len, "PK.auth", true), EFI_INVALID_PARAMETER);
	CHECK_EQ(sb_auth_check(buf, len, "KEK.auth", false), EFI_SUCCESS);
	at = put_list(buf, put_list(buf, put_descriptor(buf, 100), 1, 816), 1, 816);
	CHECK_EQ(sb_auth_check(buf, at, "PK.auth", true), EFI_INVALID_PARAMETER);
	CHECK_EQ(sb_auth_check(buf, at, "KEK.auth", false), EFI_SUCCESS);
	/* an empty list beside a full one is no harm (as siglist_parse() and the firmware take it) */
	at = put_list(buf, put_list(buf, put_descriptor(buf, 100), 0, 48), 1, 816);
	CHECK_EQ(sb_auth_check(buf, at, "PK.auth", true), EFI_SUCCESS);
	at = put_list(buf, put_descriptor(buf, 100), 0, 48);
	test_log_reset();
	CHECK_EQ(sb_auth_check(buf, at, "db.auth", false), EFI_INVALID_PARAMETER);
	CHECK_LOG("db.auth: byte 140: not a valid variable: no signature in it");
}

TEST(sb_keys_entry_as_systemd_boot)
{
	struct bls_entry **v = NULL;
	size_t n = 0;

	CHECK_EQ(bls_add_sb_keys_entry("auto", &v, &n), EFI_SUCCESS);
	CHECK_EQ(bls_add_sb_keys_entry("My Keys", &v, &n), EFI_SUCCESS);
	CHECK_EQ(n, 2);
	CHECK_STR(v[0]->id, "secure-boot-keys-auto");
	CHECK_STR(v[0]->title, "Enroll Secure Boot keys: auto");
	CHECK_STR(v[0]->path, "\\loader\\keys\\auto");
	CHECK_STR(v[1]->title, "Enroll Secure Boot keys: My Keys");
	CHECK_STR(v[1]->path, "\\loader\\keys\\My Keys");
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(v[i]->type, BLS_AUTO);
		CHECK_EQ(v[i]->auto_action, BLS_AUTO_SB_KEYS);
		CHECK(!v[i]->kernel && !v[i]->efi);
		bls_entry_free(v[i]);
		free(v[i]);
	}
	free(v);
}

/* The fake firmware's runtime services: every SetVariable() and the reset. */
#define MAX_CALLS 8
static struct {
	EFI_RUNTIME_SERVICES rt;
	int n_set;
	struct {
		CHAR16 name[8];
		EFI_GUID guid;
		uint32_t attributes;
		UINTN size;
		const void *data;
	} set[MAX_CALLS];
	int refuse; /* SetVariable() number that fails (1-based; 0: none) */
	int n_reset;
	EFI_RESET_TYPE reset;
} fw;

static EFI_STATUS EFIAPI fake_set_variable(CHAR16 *name, const EFI_GUID *guid, UINT32 attributes, UINTN size,
					   void *data)
{
	int i = fw.n_set++;

	if (i < MAX_CALLS) {
		for (size_t k = 0; k < 7 && name[k]; k++)
			fw.set[i].name[k] = name[k];
		fw.set[i].guid = *guid;
		fw.set[i].attributes = attributes;
		fw.set[i].size = size;
		fw.set[i].data = data;
	}
	return fw.n_set == fw.refuse ? EFI_SECURITY_VIOLATION : EFI_SUCCESS;
}

static VOID EFIAPI fake_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, VOID *data)
{
	fw.n_reset++;
	fw.reset = type;
}

static void fw_init(int refuse)
{
	memset(&fw, 0, sizeof(fw));
	fw.rt.SetVariable = fake_set_variable;
	fw.rt.ResetSystem = fake_reset;
	fw.refuse = refuse;
}

static const EFI_GUID db_guid = {0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}};
static const EFI_GUID global_guid = {0x8be4df61, 0x93ca, 0x11d2, {0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c}};

static void check_set(int i, const char *name, const EFI_GUID *guid, const struct sb_key_file *f)
{
	for (size_t k = 0; k <= strlen(name); k++)
		CHECK_EQ(fw.set[i].name[k], (CHAR16)name[k]);
	CHECK_MEM(&fw.set[i].guid, guid, sizeof(*guid));
	CHECK_EQ(fw.set[i].attributes, 0x27); /* NV | BS | RT | TIME_BASED_AUTHENTICATED_WRITE_ACCESS */
	CHECK_EQ(fw.set[i].size, f->size);
	CHECK(fw.set[i].data == f->data);
}

static uint8_t data[4][64];

/* The files as sb_enroll() hands them over: db, dbx (when @dbx), KEK, PK. */
static void files_init(struct sb_key_file files[SB_N_KEYS], bool dbx)
{
	static char *paths[] = {"\\loader\\keys\\auto\\db.auth", "\\loader\\keys\\auto\\dbx.auth",
				"\\loader\\keys\\auto\\KEK.auth", "\\loader\\keys\\auto\\PK.auth"};

	for (size_t i = 0; i < SB_N_KEYS; i++)
		files[i] = (struct sb_key_file){.data = data[i], .size = 10 + i, .path = paths[i]};
	if (!dbx)
		files[SB_KEY_DBX] = (struct sb_key_file){0};
}

TEST(sb_keys_write_order_attributes_then_reset)
{
	struct sb_key_file files[SB_N_KEYS];

	files_init(files, true);
	fw_init(0);
	CHECK_EQ(sb_keys_write(&fw.rt, files, false), EFI_DEVICE_ERROR); /* the fake reset returns */
	CHECK_EQ(fw.n_set, 4);
	check_set(0, "db", &db_guid, &files[SB_KEY_DB]);
	check_set(1, "dbx", &db_guid, &files[SB_KEY_DBX]);
	check_set(2, "KEK", &global_guid, &files[SB_KEY_KEK]);
	check_set(3, "PK", &global_guid, &files[SB_KEY_PK]);
	CHECK_EQ(fw.n_reset, 1);
	CHECK_EQ(fw.reset, EfiResetCold);
	CHECK_LOG("Secure Boot keys enrolled");
	CHECK_LOG("ResetSystem returned");
	/* no dbx.auth: db, KEK, PK; secure-boot-enroll-action shutdown powers off */
	files_init(files, false);
	fw_init(0);
	sb_keys_write(&fw.rt, files, true);
	CHECK_EQ(fw.n_set, 3);
	check_set(0, "db", &db_guid, &files[SB_KEY_DB]);
	check_set(1, "KEK", &global_guid, &files[SB_KEY_KEK]);
	check_set(2, "PK", &global_guid, &files[SB_KEY_PK]);
	CHECK_EQ(fw.n_reset, 1);
	CHECK_EQ(fw.reset, EfiResetShutdown);
}

TEST(sb_keys_write_stops_at_a_refusal)
{
	struct sb_key_file files[SB_N_KEYS];

	for (int refuse = 1; refuse <= 3; refuse++) {
		files_init(files, false);
		fw_init(refuse);
		test_log_reset();
		CHECK_EQ(sb_keys_write(&fw.rt, files, false), EFI_SECURITY_VIOLATION);
		CHECK_EQ(fw.n_set, refuse); /* nothing after the refused one: PK never without db and KEK */
		CHECK_EQ(fw.n_reset, 0);
		CHECK_EQ(test_log_count(), 1);
	}
	CHECK_LOG("\\loader\\keys\\auto\\PK.auth: SetVariable: EFI_SECURITY_VIOLATION");
	CHECK_LOG("(still in Setup Mode)");
	files_init(files, false);
	fw_init(2);
	test_log_reset();
	sb_keys_write(&fw.rt, files, false);
	CHECK_LOG("\\loader\\keys\\auto\\KEK.auth: SetVariable: EFI_SECURITY_VIOLATION");
}
