/* libFuzzer: what `handoff uki --phases`/`inspect --pcrs` read. The input is
 * a --phases argument, a NUL, then an image: the phases must come out
 * normalized (known words joined by single colons, sorted, unique) or be
 * refused; the image goes through pe_parse/uki_parse and the PCR 11
 * prediction, each phase and its policy digest; .pcrsig is written for the
 * result with signatures cut from the input (of the input's length modulo
 * PCRSIG_SIG_MAX + 2, so every size from none to one too many is reached),
 * and must be the JSON shape systemd reads, or refused when the size is. */
#include "core/pcr.h"
#include "core/pcrsig.h"
#include <stdlib.h>

static bool word_ok(const char *w, size_t n)
{
	static const char *const words[] = { "enter-initrd", "leave-initrd", "sysinit", "ready", "shutdown", "final" };

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return false;
}

static void check_phases(const struct pcr_phases *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const char *s = p->v[i], *w = s;

		if (i > 0 && strcmp(p->v[i - 1], s) >= 0)
			abort();
		for (const char *c = s;; c++) {
			if (*c != ':' && *c != '\0')
				continue;
			if (!word_ok(w, (size_t)(c - w)))
				abort();
			if (*c == '\0')
				break;
			w = c + 1;
		}
	}
}

static void check_json(const char *json, size_t n_entries)
{
	size_t len = strlen(json), objects = 0;

	if (len < 3 || json[0] != '{' || strcmp(json + len - 3, "]}\n") != 0)
		abort();
	for (const char *c = json; (c = strstr(c, "{\"pcrs\":[11],\"pkfp\":\"")); c++)
		objects++;
	if (objects != n_entries)
		abort();
}

static void predict(const uint8_t *img, size_t len, const struct pcr_phases *phases)
{
	static struct pe_info pe;
	static uint8_t values[PCR_PHASES_MAX][PCR_DIGEST_MAX];
	struct pcrsig_entry e[PCR_PHASES_MAX];
	struct uki_sections u;
	uint8_t base[PCR_DIGEST_MAX];
	size_t sig_size = len % (PCRSIG_SIG_MAX + 2);
	char *json;

	if (pe_parse(img, len, "fuzz", &pe) != EFI_SUCCESS || uki_parse(&pe, img, len, PE_LAYOUT_FILE, "fuzz", &u))
		return;
	pcr_measure_uki(&pcr_bank_sha256, &u, base);
	for (size_t i = 0; i < phases->n; i++) {
		memcpy(values[i], base, SHA256_DIGEST_SIZE);
		pcr_measure_phase(&pcr_bank_sha256, values[i], phases->v[i]);
		e[i] = (struct pcrsig_entry){ .bank = "sha256", .sig = img, .sig_size = sig_size };
		memcpy(e[i].pkfp, base, sizeof(e[i].pkfp));
		pcr_policy_pcr11(&pcr_bank_sha256, values[i], e[i].pol);
	}
	json = pcrsig_json(e, phases->n);
	if (json)
		check_json(json, phases->n);
	else if (sig_size > 0 && sig_size <= PCRSIG_SIG_MAX)
		abort();
	mem_free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t arg_len = nul ? (size_t)(nul - data) : size;
	char *arg = malloc(arg_len + 1);
	struct pcr_phases p = { 0 };

	if (!arg)
		return 0;
	memcpy(arg, data, arg_len);
	arg[arg_len] = '\0';
	if (pcr_phases_add(&p, arg, "--phases") == EFI_SUCCESS && pcr_phases_finish(&p) == EFI_SUCCESS) {
		check_phases(&p);
		if (nul)
			predict(nul + 1, size - arg_len - 1, &p);
	}
	pcr_phases_free(&p);
	free(arg);
	return 0;
}
