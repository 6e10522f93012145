/* libFuzzer: loader.conf parser. Besides memory safety, checks what the
 * parser promises: stored values are trimmed, non-empty, NUL-free and no
 * longer than a line. */
#include "core/config.h"
#include "core/conf_line.h"
#include "core/bls.h"

static void check_value(const char *s)
{
	size_t n;

	if (!s)
		return;
	n = strlen(s);
	if (n == 0 || n > CONF_LINE_MAX || s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r')
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct loader_config cfg;

	if (cfg_parse_loader_conf((const char *)data, size, "fuzz.conf", &cfg) != EFI_SUCCESS)
		return 0;
	check_value(cfg.default_glob);
	check_value(cfg.console_mode);
	if (cfg.n_errors > size)
		__builtin_trap();
	if (cfg.default_glob) /* the glob as the loader will use it */
		(void)glob_match(cfg.default_glob, "debian-6.1.0-13-amd64");
	cfg_free(&cfg);
	return 0;
}
