/* libFuzzer, issue 21: what is measured is what the kernel reads. The input,
 * cut at line feeds, becomes the "options" lines of an entry parsed by the
 * real BLS reader; the command line it yields, the input itself, and the
 * lines the stub takes (from LoadOptions or a .cmdline) go through
 * cmdline_forms_make(). For every line it accepts, the UTF-16 it measures
 * (PCR 9 and 12) and hands over as LoadOptions, decoded as Linux's EFI stub
 * decodes it (utf8_ref.h), is byte for byte the UTF-8 that handover and
 * legacy put at cmd_line_ptr, and the line itself. No line that fails an
 * independent UTF-8 check (or holds a line feed) is ever accepted, and no
 * options line that fails it reaches an entry's command line. */
#include "core/bls.h"
#include "core/cmdline.h"
#include "core/conf_line.h"
#include "utf8_ref.h"
#include <stdlib.h>

#define MAX_LINES 16
#define ENTRY_HEAD "linux /k\n"
#define OPTIONS_KEY "options "

/* The bytes each scheme's kernel reads equal the bytes measured. */
static void check_forms(const struct cmdline_forms *f, const char *line)
{
	size_t n_units = f->utf16_size / 2, units, len;
	uint8_t *linux_view = malloc(n_units * 3 + 1);
	bool lone;

	if (f->utf8 != line || f->utf8_len != strlen(line) || f->utf16_size % 2 || n_units == 0)
		abort();
	if (f->utf16[n_units - 1] != 0) /* measured with its NUL, as Linux's stub and systemd-boot do */
		abort();
	/* stub scheme: the kernel decodes the very LoadOptions that were measured */
	len = ref_linux_cmdline((const uint8_t *)f->utf16, f->utf16_size, linux_view, &units, &lone);
	if (lone || units != n_units - 1) /* no lone surrogate; nothing ends it before its NUL */
		abort();
	/* handover and legacy: cmd_line_ptr holds utf8[0..utf8_len], NUL included */
	if (len != f->utf8_len || memcmp(linux_view, f->utf8, len + 1) != 0)
		abort();
	free(linux_view);
}

/* cmdline_forms_make() accepts exactly the lines an independent check does. */
static void check_line(const char *line, bool must_pass)
{
	struct cmdline_forms f;
	size_t n = strlen(line);
	bool ok = ref_utf8_valid((const uint8_t *)line, n, NULL) && !memchr(line, '\n', n);
	EFI_STATUS err = cmdline_forms_make(line, &f);

	if ((err == EFI_SUCCESS) != ok || (must_pass && !ok))
		abort();
	if (err == EFI_SUCCESS)
		check_forms(&f, line);
	else if (f.utf16 || err != EFI_INVALID_PARAMETER)
		abort(); /* a refused line has no form to measure or hand over */
	cmdline_forms_free(&f);
}

static bool is_conf_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* What conf_line.h says becomes of "options <piece>": appended to @want, or
 * skipped (too long, a NUL, not UTF-8, no value). */
static void model_options_line(const uint8_t *p, size_t n, char *want, size_t *want_len)
{
	size_t line_len = strlen(OPTIONS_KEY) + n - (n && p[n - 1] == '\r'); /* a CRLF's CR is the line end */
	size_t a = 0, b = n;

	if (line_len > CONF_LINE_MAX || memchr(p, 0, n) || !ref_utf8_valid(p, n, NULL))
		return;
	while (a < b && is_conf_blank((char)p[a]))
		a++;
	while (b > a && is_conf_blank((char)p[b - 1]))
		b--;
	if (a == b)
		return;
	if (*want_len)
		want[(*want_len)++] = ' ';
	memcpy(want + *want_len, p + a, b - a);
	*want_len += b - a;
}

static void check_entry(const uint8_t *data, size_t size)
{
	/* each line: the key, its piece and a line feed (sizeof counts the NUL for it) */
	size_t cap = sizeof(ENTRY_HEAD) + size + MAX_LINES * sizeof(OPTIONS_KEY), len, want_len = 0;
	char *text = malloc(cap), *want = malloc(size + MAX_LINES + 1);
	struct bls_entry e;
	size_t pos = 0;

	memcpy(text, ENTRY_HEAD, strlen(ENTRY_HEAD));
	len = strlen(ENTRY_HEAD);
	for (unsigned i = 0; i < MAX_LINES && pos <= size; i++) {
		const uint8_t *lf = memchr(data + pos, '\n', size - pos);
		size_t n = lf ? (size_t)(lf - data - pos) : size - pos;

		memcpy(text + len, OPTIONS_KEY, strlen(OPTIONS_KEY));
		len += strlen(OPTIONS_KEY);
		memcpy(text + len, data + pos, n);
		len += n;
		text[len++] = '\n';
		model_options_line(data + pos, n, want, &want_len);
		pos += n + 1;
	}
	want[want_len] = '\0';
	if (bls_parse_entry(text, len, "e.conf", "e.conf", &e) != EFI_SUCCESS)
		abort(); /* it has "linux": it always parses */
	if (strcmp(e.options ? e.options : "", want) != 0)
		abort(); /* an ill-formed options line was used, or a good one lost */
	if (e.options)
		check_line(e.options, /* must_pass= */ true);
	bls_entry_free(&e);
	free(want);
	free(text);
}

/* The stub's line: from LoadOptions it always passes; from a .cmdline
 * exactly when that section's text does. */
static void check_stub(const uint8_t *data, size_t size)
{
	char *from_opts = cmdline_for_stub(data, size, NULL, 0, false);
	char *from_section = cmdline_for_stub(NULL, 0, data, size, true);

	if (!from_opts || !from_section)
		abort();
	check_line(from_opts, /* must_pass= */ true);
	check_line(from_section, /* must_pass= */ false);
	free(from_opts);
	free(from_section);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *raw = malloc(size + 1);

	memcpy(raw, data, size);
	raw[size] = '\0';
	check_line(raw, /* must_pass= */ false);
	check_entry(data, size);
	check_stub(data, size);
	free(raw);
	return 0;
}
