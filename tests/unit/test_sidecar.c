/* src/core/sidecar.c: which companion files of a UKI systemd-stub takes,
 * and where it puts and measures them (its generate_sidecar_initrds()). */
#include "test.h"
#include "core/sidecar.h"

TEST(sidecar_specs_are_systemd_stubs)
{
	const struct sidecar_spec *c = sidecar_spec(SIDECAR_CREDENTIALS), *g = sidecar_spec(SIDECAR_GLOBAL_CREDENTIALS);
	const struct sidecar_spec *s = sidecar_spec(SIDECAR_SYSEXT), *x = sidecar_spec(SIDECAR_CONFEXT);

	CHECK(c->dir == NULL);
	CHECK_STR(c->target, ".extra/credentials");
	CHECK_EQ(c->dir_mode, 0500u);
	CHECK_EQ(c->file_mode, 0400u);
	CHECK_EQ(c->pcr, 12u);
	CHECK_STR(c->desc, "Credentials initrd");
	CHECK_STR(g->dir, "\\loader\\credentials");
	CHECK_STR(g->target, ".extra/global_credentials");
	CHECK_EQ(g->dir_mode, 0500u);
	CHECK_EQ(g->file_mode, 0400u);
	CHECK_EQ(g->pcr, 12u);
	CHECK_STR(g->desc, "Global credentials initrd");
	CHECK(s->dir == NULL);
	CHECK_STR(s->target, ".extra/sysext");
	CHECK_EQ(s->dir_mode, 0555u);
	CHECK_EQ(s->file_mode, 0444u);
	CHECK_EQ(s->pcr, 13u);
	CHECK_STR(s->desc, "System extension initrd");
	CHECK(x->dir == NULL);
	CHECK_STR(x->target, ".extra/confext");
	CHECK_EQ(x->pcr, 12u);
	CHECK_STR(x->desc, "Configuration extension initrd");
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
