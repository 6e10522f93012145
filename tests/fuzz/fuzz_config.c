/* libFuzzer: loader.conf parser, and the same bytes as the values of the
 * Boot Loader Interface variables (bli_apply()). Besides memory safety,
 * checks what the parser promises: stored values are trimmed, non-empty,
 * NUL-free, well-formed UTF-8 (utf8_ref.h) and no longer than a line, one boot-partition GUID per 36
 * bytes; an editor-password within its bounds, or none, or malformed and
 * then the editor shut; retry-on-error within its bound and only from a line
 * naming it; and that bli_apply() leaves a valid entry index and timeout. */
#define _GNU_SOURCE /* memmem */
#include "core/bli.h"
#include "core/config.h"
#include "core/conmode.h"
#include "core/conf_line.h"
#include "core/bls.h"
#include "utf8_ref.h"
#include <stdlib.h>
#include <string.h>

static void check_value(const char *s)
{
	size_t n;

	if (!s)
		return;
	n = strlen(s);
	if (n == 0 || n > CONF_LINE_MAX || s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r' || !ref_utf8_valid((const uint8_t *)s, n, NULL))
		__builtin_trap();
}

/* Each NUL-separated piece of the input is one variable's value, as the
 * EFI glue hands them over (UTF-8, NUL-terminated, at most 512 bytes). */
static void fuzz_bli(const uint8_t *data, size_t size)
{
	static const char *const ids[] = { "arch", "debian-6.1.0-13-amd64", "fedora" };
	struct bls_entry e[3] = { { .id = (char *)ids[0] }, { .id = (char *)ids[1] }, { .id = (char *)ids[2] } };
	struct bls_entry *v[3] = { &e[0], &e[1], &e[2] };
	char *copy = malloc(size + 1), *vals[4] = { 0 }, *p;
	uint32_t timeout = 5;
	size_t idx = 2;

	if (!copy || size > 2048) {
		free(copy);
		return;
	}
	memcpy(copy, data, size);
	copy[size] = 0;
	p = copy;
	for (size_t i = 0; i < 4 && p <= copy + size; i++) {
		vals[i] = p;
		p += strlen(p) + 1;
	}
	struct bli_request req = { .timeout = vals[0], .timeout_oneshot = vals[1], .entry_default = vals[2],
				   .entry_oneshot = vals[3] };
	bli_apply(&req, v, 3, &timeout, &idx);
	if (idx >= 3 || (timeout > CFG_TIMEOUT_MENU_FORCE))
		__builtin_trap();
	free(copy);
}

/* editor-password: only from a line naming it; when read, within the bounds
 * and checked (at the cheapest iterations); malformed, the editor is shut. */
static void check_password(const struct loader_config *cfg, const uint8_t *data, size_t size)
{
	const struct cfg_password *pw = &cfg->editor_password;

	if (pw->set && !memmem(data, size, "editor-password", 15))
		__builtin_trap();
	if (pw->malformed && (!pw->set || cfg_editor_allowed(cfg, false) || cfg_password_check(pw, "", 0)))
		__builtin_trap();
	if (!pw->set || pw->malformed)
		return;
	if (pw->iterations < CFG_PW_ITERATIONS_MIN || pw->iterations > CFG_PW_ITERATIONS_MAX ||
	    pw->salt_len < CFG_PW_SALT_MIN || pw->salt_len > CFG_PW_SALT_MAX)
		__builtin_trap();
	if (pw->iterations <= 2 * CFG_PW_ITERATIONS_MIN)
		(void)cfg_password_check(pw, (const char *)data, MIN(size, CFG_PW_LEN_MAX));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct loader_config cfg;

	fuzz_bli(data, size);

	if (cfg_parse_loader_conf((const char *)data, size, "fuzz.conf", &cfg) != EFI_SUCCESS)
		return 0;
	check_value(cfg.default_glob);
	check_value(cfg.console_mode);
	if (cfg.console_mode) { /* the loader's reading of it: a mode number or one of the words */
		int32_t m = cmode_parse(cfg.console_mode);
		struct cmode_screen s = { .mode = 3, .max_mode = 4, .cols = 80, .rows = 25,
					  .gop_width = 3840, .gop_height = 2160 };
		int32_t t = cmode_target(m, &s);

		if (m < CMODE_INVALID || (m >= 0 ? t != m : m != CMODE_INVALID && (t < 0 || t >= s.max_mode)))
			__builtin_trap();
	}
	if (cfg.n_errors > size)
		__builtin_trap();
	/* each boot-partition GUID took 36 bytes of text */
	if ((cfg.n_boot_partitions && !cfg.boot_partitions) || cfg.n_boot_partitions > size / 36)
		__builtin_trap();
	check_password(&cfg, data, size);
	if (cfg.retry_sec > CFG_RETRY_SEC_MAX ||
	    ((cfg.retry_sec || cfg.retry_next) && !memmem(data, size, "retry-on-error", 14)))
		__builtin_trap();
	if (cfg.default_glob) /* the glob as the loader will use it */
		(void)glob_match(cfg.default_glob, "debian-6.1.0-13-amd64");
	cfg_free(&cfg);
	return 0;
}
