/* Boot phase paths for signed PCR 11 policies: parsed as ukify's --phases
 * (blank- or comma-separated paths), normalized as systemd-measure's --phase
 * (empty words dropped), checked against the words systemd-pcrphase extends
 * (systemd-pcrphase.service(8)), and ordered as systemd-measure signs them. */
#include "pcr.h"
#include "log.h"

static const char *const known_words[] = { "enter-initrd", "leave-initrd", "sysinit", "ready", "shutdown", "final" };

static const char *const default_phases[] = {
	"enter-initrd",
	"enter-initrd:leave-initrd",
	"enter-initrd:leave-initrd:sysinit",
	"enter-initrd:leave-initrd:sysinit:ready",
};

static bool known_word(const char *w, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_words); i++)
		if (strlen(known_words[i]) == n && memcmp(known_words[i], w, n) == 0)
			return true;
	return false;
}

static bool is_separator(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ',';
}

/* @s (@len bytes) as "a:b:c": words checked, empty ones dropped. */
static EFI_STATUS phase_normalize(const char *s, size_t len, const char *what, char **ret)
{
	_cleanup_free_ char *out = mem_alloc(len + 1);
	size_t n = 0;

	if (!out)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", what);
	for (size_t i = 0, w; i < len; i = w + 1) {
		for (w = i; w < len && s[w] != ':'; w++)
			;
		if (w == i)
			continue;
		if (!known_word(s + i, w - i))
			return log_error_status(EFI_INVALID_PARAMETER,
						"%s: '%.*s' is not a boot phase (enter-initrd, leave-initrd, sysinit, "
						"ready, shutdown, final)",
						what, (int)(w - i), s + i);
		if (n)
			out[n++] = ':';
		memcpy(out + n, s + i, w - i);
		n += w - i;
	}
	if (n == 0)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: '%.*s' names no boot phase", what, (int)len, s);
	out[n] = '\0';
	*ret = TAKE_PTR(out);
	return EFI_SUCCESS;
}

static EFI_STATUS phases_push(struct pcr_phases *p, char *phase, const char *what)
{
	if (p->n == PCR_PHASES_MAX) {
		mem_free(phase);
		return log_error_status(EFI_INVALID_PARAMETER, "%s: more than %u boot phases", what, PCR_PHASES_MAX);
	}
	p->v[p->n++] = phase;
	return EFI_SUCCESS;
}

EFI_STATUS pcr_phases_add(struct pcr_phases *p, const char *arg, const char *what)
{
	for (size_t i = 0, end; arg[i]; i = end) {
		char *phase;
		EFI_STATUS err;

		if (is_separator(arg[i])) {
			end = i + 1;
			continue;
		}
		for (end = i; arg[end] && !is_separator(arg[end]); end++)
			;
		err = phase_normalize(arg + i, end - i, what, &phase);
		if (!EFI_ERROR(err))
			err = phases_push(p, phase, what);
		if (EFI_ERROR(err))
			return err;
	}
	return EFI_SUCCESS;
}

static char *str_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = mem_alloc(n);

	return d ? memcpy(d, s, n) : NULL;
}

EFI_STATUS pcr_phases_finish(struct pcr_phases *p)
{
	size_t kept = 0;

	if (p->n == 0)
		for (size_t i = 0; i < ARRAY_SIZE(default_phases); i++) {
			p->v[i] = str_dup(default_phases[i]);
			if (!p->v[i])
				return log_error_status(EFI_OUT_OF_RESOURCES, "phases: out of memory");
			p->n = i + 1;
		}
	/* insertion sort by byte value (systemd's strv_sort), then unique */
	for (size_t i = 1; i < p->n; i++)
		for (size_t k = i; k > 0 && strcmp(p->v[k - 1], p->v[k]) > 0; k--) {
			char *t = p->v[k];

			p->v[k] = p->v[k - 1];
			p->v[k - 1] = t;
		}
	for (size_t i = 0; i < p->n; i++) {
		if (kept && strcmp(p->v[kept - 1], p->v[i]) == 0)
			mem_free(p->v[i]);
		else
			p->v[kept++] = p->v[i];
	}
	p->n = kept;
	return EFI_SUCCESS;
}

void pcr_phases_free(struct pcr_phases *p)
{
	for (size_t i = 0; i < p->n; i++)
		mem_free(p->v[i]);
	p->n = 0;
}
