/* The PCR options of `uki` and `inspect --pcrs` (--pcr-banks, --phases, with
 * ukify's and systemd-measure's defaults and order), PCR 11 predicted from a
 * UKI file's own sections, and its rendering as systemd-measure calculate's. */
#include "pcr.h"
#include "json.h"
#include "core/tcg_event.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool bank_given(const struct pcr_opts *o, const struct pcr_bank *b)
{
	for (size_t i = 0; i < o->n_banks; i++)
		if (o->banks[i] == b)
			return true;
	return false;
}

int pcr_opts_add_banks(struct pcr_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;
	int r = 0;

	o->given = true;
	for (char *name = strtok_r(copy, ", \t\n", &save); name && r == 0; name = strtok_r(NULL, ", \t\n", &save)) {
		const struct pcr_bank *b = pcr_bank_find(name);

		if (!b)
			r = tool_usage("--pcr-banks: unknown PCR bank '%s' (sha1, sha256, sha384, sha512)", name);
		else if (!bank_given(o, b))
			o->banks[o->n_banks++] = b; /* at most PCR_BANKS_MAX distinct ones exist */
	}
	free(copy);
	return r;
}

int pcr_opts_add_phases(struct pcr_opts *o, const char *arg)
{
	struct diag_capture c;
	EFI_STATUS err;
	int r = 0;

	o->given = true;
	diag_capture_begin(&c);
	err = pcr_phases_add(&o->phases, arg, "--phases");
	diag_capture_end(&c);
	if (EFI_ERROR(err))
		r = c.n ? tool_usage("%s", c.lines[0]) : tool_usage("--phases: cannot read '%s'", arg);
	diag_capture_free(&c);
	return r;
}

static int bank_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct pcr_bank *const *)a)->name, (*(const struct pcr_bank *const *)b)->name);
}

int pcr_opts_finish(struct pcr_opts *o)
{
	if (o->n_banks == 0)
		o->banks[o->n_banks++] = &pcr_bank_sha256;
	/* systemd-measure sorts the banks by name, and .pcrsig keys follow that order */
	qsort(o->banks, o->n_banks, sizeof(o->banks[0]), bank_cmp);
	return EFI_ERROR(pcr_phases_finish(&o->phases)) ? EXIT_FAIL : 0;
}

void pcr_opts_free(struct pcr_opts *o)
{
	pcr_phases_free(&o->phases);
}

/* The sections exactly as the stub finds them in its loaded image: the same
 * parsers, on the file layout (pe_section_data() gives the same bytes). */
static int uki_sections_of(const uint8_t *img, size_t len, const char *name, uint32_t profile,
			   struct uki_sections *ret)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	EFI_STATUS err = pe_parse(img, len, name, pe);

	if (err == EFI_UNSUPPORTED)
		log_error("%s: not a PE/COFF image, so not a unified kernel image", name);
	else if (!EFI_ERROR(err))
		err = uki_parse_profile(pe, img, len, PE_LAYOUT_FILE, name, profile, ret);
	if (err == EFI_NOT_FOUND)
		log_error("%s: no .linux section: not a unified kernel image", name);
	free(pe);
	return EFI_ERROR(err) ? -1 : 0;
}

int pcr_predict(const uint8_t *img, size_t len, const char *name, uint32_t profile, const struct pcr_opts *o,
		struct pcr_prediction *ret)
{
	struct uki_sections u;

	if (uki_sections_of(img, len, name, profile, &u) < 0)
		return -1;
	memset(ret, 0, sizeof(*ret));
	for (size_t b = 0; b < o->n_banks; b++) {
		pcr_measure_uki(o->banks[b], &u, ret->base[b]);
		for (size_t i = 0; i < o->phases.n; i++) {
			memcpy(ret->value[b][i], ret->base[b], o->banks[b]->size);
			pcr_measure_phase(o->banks[b], ret->value[b][i], o->phases.v[i]);
		}
	}
	return 0;
}

static void hex(const uint8_t *d, size_t n, char *ret)
{
	for (size_t i = 0; i < n; i++)
		snprintf(ret + 2 * i, 3, "%02x", d[i]);
	ret[2 * n] = '\0';
}

void pcr_render_text(const struct pcr_prediction *p, const struct pcr_opts *o, struct strbuf *out)
{
	char h[2 * PCR_DIGEST_MAX + 1];

	sb_puts(out, "# PCR 11 after the stub\n");
	for (size_t b = 0; b < o->n_banks; b++) {
		hex(p->base[b], o->banks[b]->size, h);
		sb_printf(out, "11:%s=%s\n", o->banks[b]->name, h);
	}
	for (size_t i = 0; i < o->phases.n; i++) {
		sb_printf(out, "# PCR 11 in phase %s\n", o->phases.v[i]);
		for (size_t b = 0; b < o->n_banks; b++) {
			hex(p->value[b][i], o->banks[b]->size, h);
			sb_printf(out, "11:%s=%s\n", o->banks[b]->name, h);
		}
	}
}

void pcr_render_json(const struct pcr_prediction *p, const struct pcr_opts *o, struct strbuf *out)
{
	char h[2 * PCR_DIGEST_MAX + 1];
	struct json j;

	json_init(&j, out);
	json_obj_begin(&j, NULL);
	for (size_t b = 0; b < o->n_banks; b++) {
		json_arr_begin(&j, o->banks[b]->name);
		for (size_t i = 0; i < o->phases.n; i++) {
			hex(p->value[b][i], o->banks[b]->size, h);
			json_obj_begin(&j, NULL);
			json_str(&j, "phase", o->phases.v[i]);
			json_uint(&j, "pcr", TPM_PCR_KERNEL_BOOT);
			json_str(&j, "hash", h);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_obj_end(&j);
}
