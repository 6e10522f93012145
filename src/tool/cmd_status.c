/* handoff status: what booted and what will boot, like bootctl status. The
 * firmware and Secure Boot state (UEFI 2.10 §3.3 SecureBoot, SetupMode;
 * the keys and signatures: status_sb.c),
 * the loader that booted and what it chose (systemd's Boot Loader
 * Interface, LoaderInfo ... LoaderBootCountPath, and handoff's own
 * HandoffBootScheme), what the OS asked of the next boot, the ESP with the
 * loader installed there, and the entries as the loader sees them. */
#include "bless.h"
#include "efivarfs.h"
#include "entry.h"
#include "esp.h"
#include "json.h"
#include "loader_conf.h"
#include "pe_sig.h"
#include "random_seed.h"
#include "status_sb.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: handoff status [--esp DIR] [--boot DIR] [--json]\n\n"
	"Show the firmware, Secure Boot (its mode, whose keys PK, KEK and db hold, how\n"
	"the loaders and UKIs on the ESP are signed), the boot loader that started\n"
	"this system (LoaderInfo), the entry and boot scheme it used, boot counting,\n"
	"the requests for the next boot (set-default, set-oneshot, set-timeout), the\n"
	"ESP and whether handoff is installed there, whether the loader's editor is\n"
	"locked by a password (set-editor-password), whether a random seed reaches\n"
	"Linux (LoaderFeatures, LoaderSystemToken, loader/random-seed), and the boot\n"
	"entries.\n";

/* LoaderFeatures bit names, in the numbering of systemd's Boot Loader Interface. */
static const char *const feature_names[] = {
	"config-timeout", "config-timeout-one-shot", "entry-default", "entry-one-shot", "boot-counting",
	"xbootldr", "random-seed", "load-driver", "sort-key", "saved-entry", "devicetree",
	"secure-boot-enroll", "retain-shim", "menu-disable",
};

#define FEATURE_RANDOM_SEED (1ull << 6) /* feature_names[6] */

/* Boot Loader Interface string variables, in the order shown. */
static const struct {
	const char *var, *key, *label;
} bli_strings[] = {
	{ "LoaderInfo", "info", "Product" },
	{ "LoaderFirmwareType", "firmware_type", "Firmware" },
	{ "LoaderFirmwareInfo", "firmware_info", "Firmware info" },
	{ "LoaderImageIdentifier", "image", "Loader" },
	{ "LoaderDevicePartUUID", "device_part_uuid", "ESP PARTUUID" },
	{ "LoaderEntrySelected", "entry", "Current entry" },
	{ "HandoffBootScheme", "scheme", "Boot scheme" },
	{ "LoaderBootCountPath", "boot_count_path", "Boot count file" },
	{ "LoaderEntryDefault", "default", "Default (set)" },
	{ "LoaderEntryOneShot", "oneshot", "One-shot (set)" },
	{ "LoaderEntryLastBooted", "last_booted", "Last booted" },
	{ "LoaderConfigTimeout", "timeout", "Timeout (set)" },
	{ "LoaderConfigTimeoutOneShot", "timeout_oneshot", "One-shot timeout" },
};

struct status {
	bool efi;
	struct sb_status sb;      /* Secure Boot: its mode, keys, the signatures on the ESP */
	char *vars[sizeof(bli_strings) / sizeof(bli_strings[0])];
	uint64_t features;
	bool has_features;
	char *esp, *boot;
	bool esp_mounted, installed, current;
	bool conf_ok;             /* the ESP's loader.conf could be read: */
	struct loader_config conf; /* the editor's rules and password */
	struct bless_info bless;  /* LoaderBootCountPath's file and state */
	struct random_seed_status seed; /* LoaderSystemToken, ESP/loader/random-seed */
	char *bless_problem;      /* why LoaderBootCountPath could not be read, or NULL */
};

/* Is the ESP's handoffx64.efi this version's loader (signed or not)? */
static void check_installed(struct status *s)
{
	char *path = path_join(s->esp, "EFI/handoff/handoffx64.efi"), *mine;
	struct diag_capture quiet;
	uint8_t *buf = NULL, *cur = NULL;
	size_t len = 0, cur_len = 0;

	s->installed = is_file(path);
	diag_capture_begin(&quiet);
	mine = s->installed ? loader_find(NULL) : NULL;
	if (mine && read_file(mine, TOOL_READ_MAX, &buf, &len) == 0 &&
	    read_file(path, TOOL_READ_MAX, &cur, &cur_len) == 0)
		s->current = pe_same_image(cur, cur_len, buf, len);
	diag_capture_end(&quiet);
	diag_capture_free(&quiet);
	free(cur);
	free(buf);
	free(mine);
	free(path);
}

/* Boot counting as `handoff bless --status` sees it; a malformed variable is shown, not fatal. */
static void bless_status_load(struct status *s, const char *esp_opt, const char *boot_opt)
{
	struct diag_capture cap;

	diag_capture_begin(&cap);
	if (bless_load(esp_opt, boot_opt, &s->bless) < 0)
		s->bless_problem = xstrdup(cap.n ? cap.lines[cap.n - 1] : "malformed");
	diag_capture_end(&cap);
	diag_capture_free(&cap);
}

static void status_load(struct status *s, const char *esp_opt, const char *boot_opt)
{
	size_t len = 0;
	uint8_t *f;

	s->efi = is_dir(efivars_dir());
	for (size_t i = 0; s->efi && i < sizeof(bli_strings) / sizeof(bli_strings[0]); i++)
		s->vars[i] = efivar_read_str(bli_strings[i].var, LOADER_GUID_STR);
	f = s->efi ? efivar_read("LoaderFeatures", LOADER_GUID_STR, &len) : NULL;
	if (f && len == 8) {
		s->features = get_le64(f);
		s->has_features = true;
	}
	free(f);
	s->esp = esp_locate(esp_opt, /* quiet= */ true);
	if (s->esp) {
		s->esp_mounted = esp_is_mounted(s->esp);
		s->boot = boot_entries_dir(boot_opt, s->esp);
		check_installed(s);
		s->conf_ok = loader_conf_read(s->esp, &s->conf) == 0;
	}
	if (s->efi)
		bless_status_load(s, esp_opt, boot_opt);
	random_seed_status(s->esp, s->efi, &s->seed);
	sb_status_load(&s->sb, s->efi, s->esp);
}

static void status_free(struct status *s)
{
	for (size_t i = 0; i < sizeof(bli_strings) / sizeof(bli_strings[0]); i++)
		free(s->vars[i]);
	free(s->esp);
	free(s->boot);
	bless_info_free(&s->bless);
	free(s->bless_problem);
	sb_status_free(&s->sb);
	cfg_free(&s->conf);
}

static bool booted_by_handoff(const struct status *s)
{
	return s->vars[0] && strncmp(s->vars[0], "handoff ", 8) == 0;
}

static void json_tristate(struct json *j, const char *key, int v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_bool(j, key, v == 1);
}

/* The file @name beside the booted one, in the partition that holds it. */
static char *bless_file(const struct bless_info *b, const char *name)
{
	return xasprintf("%s/%s%s%s", b->root ? b->root : "?", b->dir, *b->dir ? "/" : "", name);
}

static const char *bless_name_now(const struct bless_info *b)
{
	return b->state == BLESS_GOOD ? b->good : b->state == BLESS_BAD ? b->bad : b->booted;
}

static void render_json_counting(const struct bless_info *b, const char *problem, struct json *j)
{
	char *file;

	if (!b->var && !problem) {
		json_null(j, "boot_counting");
		return;
	}
	json_obj_begin(j, "boot_counting");
	json_str(j, "path", b->var);
	json_str(j, "problem", problem);
	json_str(j, "entry", b->id);
	file = b->root ? bless_file(b, bless_name_now(b)) : NULL;
	json_str(j, "file", file);
	free(file);
	json_str(j, "state", problem ? NULL : bless_state_name(b->state));
	json_uint(j, "tries_left", b->left);
	json_uint(j, "tries_done", b->done);
	json_str(j, "marked_by", bless_by());
	json_obj_end(j);
}

static void render_text_counting(const struct bless_info *b, const char *problem, struct strbuf *sb)
{
	char *file = b->root ? bless_file(b, bless_name_now(b)) : NULL;

	if (problem)
		sb_printf(sb, "  %16s: %s\n", "Boot counting", problem);
	else if (b->state == BLESS_INDETERMINATE)
		sb_printf(sb, "  %16s: entry %s, %u tr%s left, %u done; marked good by %s once boot-complete.target "
			  "is reached\n", "Boot counting", b->id, b->left, b->left == 1 ? "y" : "ies", b->done,
			  bless_by());
	else if (b->state == BLESS_GOOD || b->state == BLESS_BAD)
		sb_printf(sb, "  %16s: entry %s, marked %s (%s)\n", "Boot counting", b->id,
			  bless_state_name(b->state), file);
	else if (b->var)
		sb_printf(sb, "  %16s: entry %s, but none of %s, %s, %s is on the ESP or at /boot\n", "Boot counting",
			  b->id, b->booted, b->good, b->bad);
	free(file);
}

/* A seed reaches Linux when the loader passes one (LoaderFeatures' random-seed
 * bit) and the ESP has a seed file for it, as bootctl status reads it; the
 * firmware's RNG alone is enough too, which the OS cannot see. */
static bool seed_passed(const struct status *s)
{
	return s->has_features && (s->features & FEATURE_RANDOM_SEED) && s->seed.size >= RANDOM_SEED_SIZE;
}

static void render_json_seed(const struct status *s, struct json *j)
{
	json_obj_begin(j, "random_seed");
	json_bool(j, "passed", seed_passed(s));
	json_bool(j, "system_token", s->seed.token);
	if (s->seed.size >= 0)
		json_uint(j, "file_size", (uint64_t)s->seed.size);
	else
		json_null(j, "file_size");
	json_obj_end(j);
}

static void render_text_seed(const struct status *s, struct strbuf *sb)
{
	sb_printf(sb, "  %16s: %s; LoaderSystemToken %s; ", "Random seed",
		  seed_passed(s) ? "passed to Linux by the loader" : "not passed by this loader",
		  s->seed.token ? "set" : "not set");
	if (s->seed.size >= 0)
		sb_printf(sb, RANDOM_SEED_FILE " %lld bytes\n", s->seed.size);
	else
		sb_puts(sb, "no " RANDOM_SEED_FILE " (handoff random-seed writes one)\n");
}

static bool editor_allowed(const struct status *s)
{
	return cfg_editor_allowed(&s->conf, s->sb.mode[SB_MODE_SECURE_BOOT] == 1);
}

/* The loader's editor as loader.conf and Secure Boot make it (README "Configuration": editor, editor-password). */
static void render_json_editor(const struct status *s, struct json *j)
{
	const struct cfg_password *pw = &s->conf.editor_password;

	if (!s->conf_ok) {
		json_null(j, "editor");
		return;
	}
	json_obj_begin(j, "editor");
	json_bool(j, "enabled", editor_allowed(s));
	json_bool(j, "locked", pw->set);
	json_bool(j, "password_malformed", pw->malformed);
	if (pw->set && !pw->malformed)
		json_uint(j, "iterations", pw->iterations);
	else
		json_null(j, "iterations");
	json_obj_end(j);
}

static void render_text_editor(const struct status *s, struct strbuf *sb)
{
	const struct cfg_password *pw = &s->conf.editor_password;

	if (!s->conf_ok)
		sb_printf(sb, "  %16s: unknown (" LOADER_CONF " unreadable)\n", "Editor");
	else if (pw->malformed)
		sb_printf(sb, "  %16s: locked for good: the editor-password line is malformed, no password opens it "
			  "(handoff set-editor-password writes a good one)\n", "Editor");
	else if (!editor_allowed(s))
		sb_printf(sb, "  %16s: off (%s)\n", "Editor",
			  s->conf.editor_set ? "editor no" : "Secure Boot, and no 'editor yes'");
	else if (pw->set)
		sb_printf(sb, "  %16s: locked by editor-password (" CFG_PW_SCHEME ", %u iterations)\n", "Editor",
			  pw->iterations);
	else
		sb_printf(sb, "  %16s: on, not locked (handoff set-editor-password locks it)\n", "Editor");
}

static void render_json(const struct status *s, struct strbuf *out)
{
	struct json j;

	json_init(&j, out);
	json_obj_begin(&j, NULL);
	json_bool(&j, "efi", s->efi);
	json_tristate(&j, "secure_boot", s->sb.mode[SB_MODE_SECURE_BOOT]);
	json_tristate(&j, "setup_mode", s->sb.mode[SB_MODE_SETUP]);
	sb_status_render_json(&s->sb, &j);
	json_bool(&j, "booted_by_handoff", booted_by_handoff(s));
	json_obj_begin(&j, "loader");
	for (size_t i = 0; i < sizeof(bli_strings) / sizeof(bli_strings[0]); i++)
		json_str(&j, bli_strings[i].key, s->vars[i]);
	json_arr_begin(&j, "features");
	for (size_t b = 0; s->has_features && b < 64; b++)
		if (s->features & (1ull << b))
			json_str(&j, NULL,
				 b < sizeof(feature_names) / sizeof(feature_names[0]) ? feature_names[b] : "unknown");
	json_arr_end(&j);
	json_obj_end(&j);
	render_json_counting(&s->bless, s->bless_problem, &j);
	render_json_seed(s, &j);
	json_obj_begin(&j, "esp");
	json_str(&j, "path", s->esp);
	json_bool(&j, "mounted", s->esp_mounted);
	json_bool(&j, "installed", s->installed);
	json_bool(&j, "current", s->current);
	json_str(&j, "boot", s->boot);
	render_json_editor(s, &j);
	json_obj_end(&j);
	if (s->esp)
		entries_render(s->esp, s->boot, &j, "entries", NULL);
	json_obj_end(&j);
	sb_putc(out, '\n');
}

static void render_text(const struct status *s, struct strbuf *sb)
{
	static const char *const yesno[] = { "no", "yes" };

	sb_printf(sb, "System:\n  Booted with UEFI: %s\n", yesno[s->efi]);
	if (s->efi)
		sb_printf(sb, "       Secure Boot: %s (%s)\n",
			  s->sb.mode[SB_MODE_SECURE_BOOT] == 1 ? "enabled" : "disabled", sb_status_mode_text(&s->sb));
	sb_status_render_text(&s->sb, sb);
	sb_printf(sb, "\nCurrent boot loader:%s\n", s->vars[0] ? "" : " none reported (no LoaderInfo)");
	for (size_t i = 0; i < sizeof(bli_strings) / sizeof(bli_strings[0]); i++)
		if (s->vars[i])
			sb_printf(sb, "  %16s: %s\n", bli_strings[i].label, s->vars[i]);
	if (s->has_features) {
		sb_printf(sb, "  %16s:", "Features");
		for (size_t b = 0; b < sizeof(feature_names) / sizeof(feature_names[0]); b++)
			if (s->features & (1ull << b))
				sb_printf(sb, " %s", feature_names[b]);
		sb_putc(sb, '\n');
	}
	render_text_counting(&s->bless, s->bless_problem, sb);
	render_text_seed(s, sb);
	sb_printf(sb, "\nEFI system partition:\n");
	if (!s->esp) {
		sb_puts(sb, "  none found (mount it at /efi, /boot/efi or /boot, or give --esp DIR)\n");
		return;
	}
	sb_printf(sb, "  %16s: %s%s\n", "Path", s->esp, s->esp_mounted ? "" : " (a directory, not a mounted ESP)");
	sb_printf(sb, "  %16s: %s\n", "handoff",
		  !s->installed ? "not installed"
		  : s->current	? "installed, this version"
				: "installed, another version (handoff update)");
	if (s->boot)
		sb_printf(sb, "  %16s: %s/loader/entries\n", "Entries in place", s->boot);
	render_text_editor(s, sb);
	sb_status_render_signatures(&s->sb, sb);
	sb_puts(sb, "\nBoot loader entries:\n");
	entries_render(s->esp, s->boot, NULL, NULL, sb);
}

int cmd_status(int argc, char **argv)
{
	struct listing_opts o;
	struct status s = { 0 };
	struct strbuf out = { 0 };
	int r = parse_listing_opts(argc, argv, help, &o);

	if (r >= 0)
		return r;
	if (o.esp && !is_dir(o.esp))
		return tool_fail("%s: not a directory", o.esp);
	status_load(&s, o.esp, o.boot);
	(o.json ? render_json : render_text)(&s, &out);
	fwrite(sb_str(&out), 1, out.len, stdout);
	sb_free(&out);
	status_free(&s);
	return EXIT_OK;
}
