/* Boot Loader Interface requests (src/core/bli.c): which variable wins over
 * which and over loader.conf, one-shot "0", and bad values reported by name
 * and ignored. */
#include "test.h"
#include "core/bli.h"
#include "core/config.h"
#include <stdlib.h>
#include <string.h>

/* Entries in sorted order: ids as handoff makes them (no ".conf"). */
static const char *const ids[] = { "arch", "debian-6.1", "debian-6.12", "fedora" };
#define N_IDS 4

struct fixture {
	struct bls_entry e[N_IDS];
	struct bls_entry *v[N_IDS];
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < N_IDS; i++) {
		f->e[i].id = (char *)ids[i];
		f->e[i].type = BLS_TYPE1;
		f->v[i] = &f->e[i];
	}
}

/* Runs bli_apply() from loader.conf's timeout 5 and default index 3 (fedora). */
static void apply(const struct bli_request *req, uint32_t *timeout, size_t *idx)
{
	struct fixture f;

	fixture_init(&f);
	*timeout = 5;
	*idx = 3;
	test_log_reset();
	bli_apply(req, f.v, N_IDS, timeout, idx);
}

TEST(bli_nothing_set_keeps_loader_conf)
{
	struct bli_request req = { 0 };
	uint32_t t;
	size_t i;

	apply(&req, &t, &i);
	CHECK_EQ(t, 5);
	CHECK_EQ(i, 3);
	CHECK_EQ(test_log_count(), 0);
}

TEST(bli_timeout_precedence)
{
	struct bli_request req = { .timeout = "12" };
	uint32_t t;
	size_t i;

	apply(&req, &t, &i);
	CHECK_EQ(t, 12);                         /* bootctl set-timeout 12 */
	req.timeout_oneshot = "3";
	apply(&req, &t, &i);
	CHECK_EQ(t, 3);                          /* systemctl reboot --boot-loader-menu=3 */
	req.timeout_oneshot = "0";
	apply(&req, &t, &i);
	CHECK_EQ(t, CFG_TIMEOUT_MENU_FORCE);     /* --boot-loader-menu=0: no countdown */
	req = (struct bli_request){ .timeout = "0" };
	apply(&req, &t, &i);
	CHECK_EQ(t, 0);                          /* set-timeout 0: boot at once */
	req.timeout = "menu-force";
	apply(&req, &t, &i);
	CHECK_EQ(t, CFG_TIMEOUT_MENU_FORCE);
	req.timeout_oneshot = "menu-hidden";
	apply(&req, &t, &i);
	CHECK_EQ(t, 0);
	CHECK_EQ(i, 3);
	CHECK_EQ(test_log_count(), 0);
}

TEST(bli_entry_precedence)
{
	struct bli_request req = { .entry_default = "debian-6.1" };
	uint32_t t;
	size_t i;

	apply(&req, &t, &i);
	CHECK_EQ(i, 1);
	req.entry_default = "debian-6.12.conf";  /* systemd-boot's ids keep ".conf" */
	apply(&req, &t, &i);
	CHECK_EQ(i, 2);
	req.entry_oneshot = "arch";
	apply(&req, &t, &i);
	CHECK_EQ(i, 0);                          /* one-shot over default */
	req.entry_default = NULL;
	req.entry_oneshot = "debian-*";          /* matched as loader.conf's default: first in order */
	apply(&req, &t, &i);
	CHECK_EQ(i, 1);
	CHECK_EQ(t, 5);
	CHECK_EQ(test_log_count(), 0);
}

TEST(bli_bad_values_are_reported_and_ignored)
{
	struct bli_request req = { .timeout = "soon", .entry_default = "gone" };
	uint32_t t;
	size_t i;

	apply(&req, &t, &i);
	CHECK_EQ(t, 5);
	CHECK_EQ(i, 3);
	CHECK_LOG("LoaderConfigTimeout 'soon' is not a number of seconds");
	CHECK_LOG("LoaderEntryDefault 'gone' matches no boot entry, ignored");
	CHECK_EQ(test_log_count(), 2);

	/* a bad one-shot falls back to the persistent variable, not to loader.conf */
	req = (struct bli_request){ .timeout = "7", .timeout_oneshot = "-1", .entry_default = "arch",
				    .entry_oneshot = "" };
	apply(&req, &t, &i);
	CHECK_EQ(t, 7);
	CHECK_EQ(i, 0);
	CHECK_LOG("LoaderConfigTimeoutOneShot '-1' is not");
	CHECK_LOG("LoaderEntryOneShot '' matches no boot entry");
	req = (struct bli_request){ .timeout = "4294967295" };  /* above the largest count of seconds */
	apply(&req, &t, &i);
	CHECK_EQ(t, 5);
	CHECK_LOG("LoaderConfigTimeout '4294967295' is not");
}

TEST(bli_no_entries)
{
	struct bli_request req = { .entry_oneshot = "arch" };
	uint32_t t = 5;
	size_t i = SIZE_MAX;

	test_log_reset();
	bli_apply(&req, NULL, 0, &t, &i);
	CHECK_EQ(i, SIZE_MAX);
	CHECK_LOG("LoaderEntryOneShot 'arch' matches no boot entry");
}

TEST(bli_request_free_resets)
{
	struct bli_request req = { .timeout = malloc(2), .entry_oneshot = malloc(3) };

	bli_request_free(&req);
	CHECK(req.timeout == NULL && req.entry_oneshot == NULL && req.timeout_oneshot == NULL);
}

TEST(bli_default_saved_variable)
{
	/* bootctl set-default @saved: LoaderEntryLastBooted chooses. */
	struct bli_request req = { .entry_default = "@saved", .last_booted = "debian-6.12" };
	struct fixture f;
	uint32_t t = 5;
	size_t i = 3;

	fixture_init(&f);
	CHECK(!bli_apply(&req, f.v, N_IDS, &t, &i));
	CHECK_EQ(i, 2);
	req.last_booted = NULL; /* nothing booted yet: loader.conf's choice stays, silently */
	i = 3;
	test_log_reset();
	bli_apply(&req, f.v, N_IDS, &t, &i);
	CHECK_EQ(i, 3);
	CHECK_EQ(test_log_count(), 0);
	req.last_booted = "gone"; /* an entry since removed: reported, loader.conf's choice stays */
	bli_apply(&req, f.v, N_IDS, &t, &i);
	CHECK_EQ(i, 3);
	CHECK_LOG("LoaderEntryLastBooted 'gone' matches no boot entry, ignored");
	req = (struct bli_request){ .entry_oneshot = "arch", .entry_default = "@saved", .last_booted = "fedora" };
	CHECK(bli_apply(&req, f.v, N_IDS, &t, &i)); /* the one-shot wins and says so */
	CHECK_EQ(i, 0);
}

TEST(bli_saved_action_rules)
{
	struct bli_request none = { 0 };
	struct bli_request var_saved = { .entry_default = "@saved", .last_booted = "arch" };
	struct bli_request var_glob = { .entry_default = "debian-*", .last_booted = "arch" };
	struct bli_request cfg_only = { .last_booted = "arch" };

	CHECK_EQ(bli_saved_action(&none, false, "arch", false), BLI_SAVED_KEEP);      /* nothing to drop */
	CHECK_EQ(bli_saved_action(&none, true, "arch", false), BLI_SAVED_SET);        /* default @saved */
	CHECK_EQ(bli_saved_action(&cfg_only, true, "arch", false), BLI_SAVED_KEEP);   /* already remembered */
	CHECK_EQ(bli_saved_action(&cfg_only, true, "fedora", false), BLI_SAVED_SET);
	CHECK_EQ(bli_saved_action(&cfg_only, false, "fedora", false), BLI_SAVED_DELETE); /* no longer used */
	CHECK_EQ(bli_saved_action(&var_saved, false, "fedora", false), BLI_SAVED_SET);
	CHECK_EQ(bli_saved_action(&var_glob, true, "fedora", false),
		 BLI_SAVED_DELETE); /* the variable beats loader.conf */
	CHECK_EQ(bli_saved_action(&var_saved, true, "fedora", true), BLI_SAVED_KEEP);   /* a one-shot boot */
}
