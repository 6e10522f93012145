/* Command-line parsing with the kernel's rules (lib/cmdline.c next_arg():
 * options are separated by spaces; double quotes group, and are removed). */
#include "cmdline.h"

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

static EFI_STATUS push(char ***v, size_t *n, char *s)
{
	char **grown = mem_alloc((*n + 1) * sizeof(char *));

	if (!grown)
		return EFI_OUT_OF_RESOURCES;
	if (*n)
		memcpy(grown, *v, *n * sizeof(char *));
	mem_free(*v);
	grown[(*n)++] = s;
	*v = grown;
	return EFI_SUCCESS;
}

EFI_STATUS cmdline_initrd_paths(const char *cmdline, char ***ret, size_t *ret_n)
{
	char **v = NULL, *opt;
	size_t n = 0;
	bool oom = false;

	while ((opt = next_option(&cmdline, &oom))) {
		if (strncmp(opt, "initrd=", 7) == 0 && opt[7]) {
			memmove(opt, opt + 7, strlen(opt + 7) + 1);
			if (push(&v, &n, opt) == EFI_SUCCESS)
				continue;
			oom = true;
		}
		mem_free(opt);
		if (oom)
			break;
	}
	if (oom) {
		cmdline_strv_free(v, n);
		return EFI_OUT_OF_RESOURCES;
	}
	*ret = v;
	*ret_n = n;
	return EFI_SUCCESS;
}

void cmdline_strv_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		mem_free(v[i]);
	mem_free(v);
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
