/* .pcrsig: signed PCR 11 policies as systemd-measure writes them
 * (--json=short: no blanks, keys in this order, lower-case hex, base64 with
 * padding, a final newline). Sizes are bounded before anything is written. */
#include "pcrsig.h"
#include "log.h"
#include "tcg_event.h"

#define BANK_NAME_MAX 16u

void base64_encode(const uint8_t *data, size_t n, char *ret)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < n ? (uint32_t)data[i + 1] << 8 : 0) |
			     (i + 2 < n ? data[i + 2] : 0);

		*ret++ = alphabet[v >> 18 & 63];
		*ret++ = alphabet[v >> 12 & 63];
		*ret++ = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
		*ret++ = i + 2 < n ? alphabet[v & 63] : '=';
	}
	*ret = '\0';
}

/* A writer that only counts when @buf is NULL (the first pass sizes the text). */
struct out {
	char *buf;
	size_t len;
};

static void put(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->buf)
		memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void put_hex(struct out *o, const uint8_t *d, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char pair[3] = { 0 };

	for (size_t i = 0; i < n; i++) {
		pair[0] = digits[d[i] >> 4];
		pair[1] = digits[d[i] & 15];
		put(o, pair);
	}
}

static void put_entry(struct out *o, const struct pcrsig_entry *e)
{
	char b64[(PCRSIG_SIG_MAX + 2) / 3 * 4 + 1];
	char pcr[4];

	base64_encode(e->sig, e->sig_size, b64);
	pcr[0] = (char)('0' + TPM_PCR_KERNEL_BOOT / 10);
	pcr[1] = (char)('0' + TPM_PCR_KERNEL_BOOT % 10);
	pcr[2] = '\0';
	put(o, "{\"pcrs\":[");
	put(o, pcr);
	put(o, "],\"pkfp\":\"");
	put_hex(o, e->pkfp, sizeof(e->pkfp));
	put(o, "\",\"pol\":\"");
	put_hex(o, e->pol, sizeof(e->pol));
	put(o, "\",\"sig\":\"");
	put(o, b64);
	put(o, "\"}");
}

static void put_all(struct out *o, const struct pcrsig_entry *e, size_t n)
{
	put(o, "{");
	for (size_t i = 0; i < n; i++) {
		bool first = i == 0 || strcmp(e[i].bank, e[i - 1].bank) != 0;

		if (first) {
			put(o, i ? "],\"" : "\"");
			put(o, e[i].bank);
			put(o, "\":[");
		} else {
			put(o, ",");
		}
		put_entry(o, &e[i]);
	}
	put(o, "]}\n");
}

/* Bank names are JSON keys written as they are: a-z and 0-9 only. */
static bool bank_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > BANK_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

static EFI_STATUS check_entries(const struct pcrsig_entry *e, size_t n)
{
	if (n == 0 || n > PCRSIG_ENTRIES_MAX)
		return log_error_status(EFI_INVALID_PARAMETER, ".pcrsig: %zu policies (1..%u)", n, PCRSIG_ENTRIES_MAX);
	for (size_t i = 0; i < n; i++) {
		if (!bank_name_ok(e[i].bank))
			return log_error_status(EFI_INVALID_PARAMETER, ".pcrsig: bad bank name");
		if (e[i].sig_size == 0 || e[i].sig_size > PCRSIG_SIG_MAX)
			return log_error_status(EFI_INVALID_PARAMETER, ".pcrsig: %s: signature of %zu bytes (1..%u)",
						e[i].bank, e[i].sig_size, PCRSIG_SIG_MAX);
		for (size_t k = 0; i > 0 && k < i - 1; k++)
			if (strcmp(e[k].bank, e[i].bank) == 0 && strcmp(e[i - 1].bank, e[i].bank) != 0)
				return log_error_status(EFI_INVALID_PARAMETER, ".pcrsig: bank %s given twice",
							e[i].bank);
	}
	return EFI_SUCCESS;
}

char *pcrsig_json(const struct pcrsig_entry *e, size_t n)
{
	struct out o = { 0 };

	if (EFI_ERROR(check_entries(e, n)))
		return NULL;
	/* bounded: n entries of a bounded bank name and signature each */
	put_all(&o, e, n);
	o.buf = mem_alloc(o.len + 1);
	if (!o.buf) {
		log_error(".pcrsig: out of memory for %zu bytes", o.len + 1);
		return NULL;
	}
	o.len = 0;
	put_all(&o, e, n);
	o.buf[o.len] = '\0';
	return o.buf;
}
