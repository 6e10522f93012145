/* src/core/sidecar.c: which companion files of a UKI systemd-stub takes,
 * and where it puts and measures them (its generate_sidecar_initrds()). */
#include "test.h"
#include "core/sidecar.h"

TEST(sidecar_specs_are_systemd_stubs)
{
	static const struct sidecar_spec want[_SIDECAR_MAX] = {
		{ NULL, ".cred", NULL, ".extra/credentials", 0500, 0400, 12, "Credentials initrd" },
		{ "\\loader\\credentials", ".cred", NULL, ".extra/global_credentials", 0500, 0400, 12,
		  "Global credentials initrd" },
		{ NULL, ".raw", ".confext.raw", ".extra/sysext", 0555, 0444, 13, "System extension initrd" },
		{ NULL, ".confext.raw", NULL, ".extra/confext", 0555, 0444, 12, "Configuration extension initrd" },
	};

	for (enum sidecar_kind k = 0; k < _SIDECAR_MAX; k++) {
		const struct sidecar_spec *s = sidecar_spec(k), *w = &want[k];

		CHECK(w->dir ? s->dir && strcmp(s->dir, w->dir) == 0 : s->dir == NULL);
		CHECK_STR(s->suffix, w->suffix);
		CHECK(w->exclude ? s->exclude && strcmp(s->exclude, w->exclude) == 0 : s->exclude == NULL);
		CHECK_STR(s->target, w->target);
		CHECK_EQ(s->dir_mode, w->dir_mode);
		CHECK_EQ(s->file_mode, w->file_mode);
		CHECK_EQ(s->pcr, w->pcr);
		CHECK_STR(s->desc, w->desc);
	}
	CHECK(sidecar_spec(_SIDECAR_MAX) == NULL);
}

TEST(sidecar_takes_what_systemd_stub_takes)
{
	CHECK(sidecar_takes(SIDECAR_CREDENTIALS, "a.cred"));
	CHECK(sidecar_takes(SIDECAR_CREDENTIALS, "A.CRED"));
	CHECK(!sidecar_takes(SIDECAR_CREDENTIALS, ".hidden.cred"));
	CHECK(!sidecar_takes(SIDECAR_CREDENTIALS, "caf\xc3\xa9.cred")); /* not ASCII */
	CHECK(!sidecar_takes(SIDECAR_CREDENTIALS, "a.cred.txt"));
	CHECK(!sidecar_takes(SIDECAR_CREDENTIALS, ""));
	/* *.raw is a system extension (the older spelling), but not *.confext.raw */
	CHECK(sidecar_takes(SIDECAR_SYSEXT, "tools.sysext.raw"));
	CHECK(sidecar_takes(SIDECAR_SYSEXT, "tools.raw"));
	CHECK(!sidecar_takes(SIDECAR_SYSEXT, "etc.confext.raw"));
	CHECK(!sidecar_takes(SIDECAR_SYSEXT, "etc.CONFEXT.RAW"));
	CHECK(sidecar_takes(SIDECAR_CONFEXT, "etc.confext.raw"));
	CHECK(!sidecar_takes(SIDECAR_CONFEXT, "tools.raw"));
	CHECK(!sidecar_takes(_SIDECAR_MAX, "a.cred"));
}

TEST(sidecar_takes_names_up_to_255_bytes)
{
	char name[300];

	memset(name, 'a', sizeof(name));
	memcpy(name + 250, ".cred", 6); /* 255 bytes */
	CHECK(sidecar_takes(SIDECAR_GLOBAL_CREDENTIALS, name));
	memset(name, 'a', sizeof(name));
	memcpy(name + 251, ".cred", 6); /* 256 */
	CHECK(!sidecar_takes(SIDECAR_GLOBAL_CREDENTIALS, name));
}
