/* Command-line parsing with the kernel's rules (lib/cmdline.c next_arg():
 * options are separated by spaces; double quotes group, and are removed). */
#include "cmdline.h"
#include "array.h"
#include "log.h"
#include "str16.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next option as a new, unquoted string; *p moves past it. NULL at the end. */
static char *next_option(const char **p, bool *ret_oom)
{
	const char *s = *p;
	size_t n = 0;
	bool quoted = false;
	char *out;

	while (is_space(*s))
		s++;
	if (!*s)
		return NULL;
	out = mem_alloc(strlen(s) + 1);
	if (!out) {
		*ret_oom = true;
		return NULL;
	}
	for (; *s && (quoted || !is_space(*s)); s++) {
		if (*s == '"')
			quoted = !quoted;
		else
			out[n++] = *s;
	}
	out[n] = '\0';
	*p = s;
	return out;
}

EFI_STATUS cmdline_initrd_paths(const char *cmdline, char ***ret, size_t *ret_n)
{
	char **v = NULL, *opt;
	size_t n = 0;
	bool oom = false;

	while ((opt = next_option(&cmdline, &oom))) {
		if (strncmp(opt, "initrd=", 7) == 0 && opt[7]) {
			memmove(opt, opt + 7, strlen(opt + 7) + 1);
			if (array_append(&v, &n, sizeof(opt), &opt) == EFI_SUCCESS)
				continue;
			oom = true;
		}
		mem_free(opt);
		if (oom)
			break;
	}
	if (oom) {
		strv_free(v, n);
		return EFI_OUT_OF_RESOURCES;
	}
	*ret = v;
	*ret_n = n;
	return EFI_SUCCESS;
}

/* The kernel's next_arg() on [*p, ...): an option ends at whitespace outside
 * double quotes, which do not count; *p moves past it. */
static bool next_word(const char **p, char *buf, size_t size)
{
	const char *s = *p;
	size_t n = 0;
	bool quoted = false;

	while (is_space(*s))
		s++;
	for (; *s && (quoted || !is_space(*s)); s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (n < size - 1)
			buf[n++] = *s;
		else
			buf[0] = '\0'; /* longer than any option looked for: matches none */
	}
	buf[n] = '\0';
	*p = s;
	return n > 0 || *s;
}
/* parameq(): a parameter's name, '-' and '_' alike, then its end or '='. */
static bool option_is(const char *opt, const char *name)
{
	for (; *name; opt++, name++)
		if (*opt != *name && !(*opt == '-' && *name == '_'))
			return false;
	return *opt == '\0' || *opt == '=';
}

/* parse_option_str(): @item is one of the comma-separated words of @list. */
static bool list_has(const char *list, const char *item)
{
	for (const char *p = list;; p++) {
		const char *i = item;

		while (*i && *p == *i)
			p++, i++;
		if (!*i && (*p == ',' || *p == '\0'))
			return true;
		while (*p && *p != ',')
			p++;
		if (!*p)
			return false;
	}
}

unsigned cmdline_kernel_flags(const char *cmdline)
{
	unsigned flags = 0;
	char opt[64];

	while (next_word(&cmdline, opt, sizeof(opt)) && !(opt[0] == '-' && opt[1] == '-' && !opt[2])) {
		if (option_is(opt, "disable_mtrr_trim"))
			flags |= CMDLINE_DISABLE_MTRR_TRIM;
		if (option_is(opt, "noefi"))
			flags |= CMDLINE_EFI_NORUNTIME;
		if (option_is(opt, "efi") && opt[3] == '=') {
			if (list_has(opt + 4, "noruntime"))
				flags |= CMDLINE_EFI_NORUNTIME;
			if (list_has(opt + 4, "runtime"))
				flags &= ~CMDLINE_EFI_NORUNTIME;
		}
	}
	return flags;
}

char *cmdline_from_section(const uint8_t *data, size_t size)
{
	size_t n = 0;
	char *out;

	while (n < size && data[n])
		n++;
	while (n > 0 && is_space((char)data[n - 1]))
		n--;
	out = mem_alloc(n + 1);
	if (!out)
		return NULL;
	memcpy(out, data, n);
	out[n] = '\0';
	return out;
}

/* LoadOptions are UTF-16 (UEFI 2.10 §9.1: LoadOptionsSize in bytes), set by
 * whoever started the image: any size, odd, unterminated, at any alignment.
 * The line ends at a NUL or a line feed, as Linux's EFI stub reads them
 * (libstub efi_convert_cmdline()), so the line taken is the line it would use. */
static char *from_load_options(const uint8_t *opts, size_t size)
{
	char *s = str16le_to_8(opts, size / sizeof(CHAR16)), *lf = s ? strchr(s, '\n') : NULL;

	if (lf)
		*lf = '\0';
	return s;
}

bool cmdline_stub_takes_load_options(const uint8_t *load_options, size_t load_options_size, bool has_section,
				     bool secure_boot)
{
	bool have_opts = load_options && load_options_size >= sizeof(CHAR16) && get_le16(load_options) != 0;

	return have_opts && (!has_section || !secure_boot);
}

char *cmdline_for_stub(const uint8_t *load_options, size_t load_options_size, const uint8_t *section,
		       size_t section_size, bool secure_boot)
{
	if (cmdline_stub_takes_load_options(load_options, load_options_size, section != NULL, secure_boot))
		return from_load_options(load_options, load_options_size);
	return cmdline_from_section(section ? section : (const uint8_t *)"", section ? section_size : 0);
}

EFI_STATUS cmdline_check(const char *s, size_t n, const char *what)
{
	const char *lf = memchr(s, '\n', n), *bad;
	char why[UTF8_PROBLEM_MAX];

	if ((bad = utf8_problem(s, n, why)))
		return log_error_status(EFI_INVALID_PARAMETER, "%s: %s", what, bad);
	if (lf)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: line feed at byte offset %zu", what,
					(size_t)(lf - s));
	return EFI_SUCCESS;
}

EFI_STATUS cmdline_forms_make(const char *cmdline, struct cmdline_forms *ret)
{
	size_t len = strlen(cmdline);
	EFI_STATUS err = cmdline_check(cmdline, len, "command line");

	*ret = (struct cmdline_forms){ .utf8 = cmdline, .utf8_len = len };
	if (EFI_ERROR(err))
		return err;
	ret->utf16 = str8_to_16(cmdline, /* path= */ false);
	if (!ret->utf16)
		return log_error_status(EFI_OUT_OF_RESOURCES, "no memory for the command line");
	ret->utf16_size = (strlen16(ret->utf16) + 1) * sizeof(CHAR16);
	return EFI_SUCCESS;
}

void cmdline_forms_free(struct cmdline_forms *f)
{
	mem_free(f->utf16);
	f->utf16 = NULL;
}
