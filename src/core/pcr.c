/* PCR 11 predicted on the host: the stub's section measurements (through
 * uki_measure_sections(), shared with handoff's stub), systemd-pcrphase's
 * phase words, and the TPM2_PolicyPCR digest (TPM 2.0 Part 3 §23.7) that
 * signed PCR policies sign. */
#include "pcr.h"
#include "tcg_event.h"

static void sha256_parts(const struct pcr_part *parts, size_t n, uint8_t *ret)
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	for (size_t i = 0; i < n; i++)
		sha256_update(&ctx, parts[i].data, parts[i].size);
	sha256_final(&ctx, ret);
}

const struct pcr_bank pcr_bank_sha256 = {
	.name = "sha256", .alg = TPM_ALG_SHA256, .size = SHA256_DIGEST_SIZE, .hash = sha256_parts,
};

void pcr_measure(const struct pcr_bank *b, uint8_t *pcr, const void *data, size_t size)
{
	uint8_t digest[PCR_DIGEST_MAX];
	struct pcr_part parts[2] = { { data, size }, { digest, b->size } };

	b->hash(&parts[0], 1, digest);
	parts[0] = (struct pcr_part){ pcr, b->size };
	b->hash(parts, 2, digest);
	memcpy(pcr, digest, b->size);
}

struct measure_ctx {
	const struct pcr_bank *bank;
	uint8_t *pcr;
};

static EFI_STATUS measure_section(void *ctx, const char *desc, const void *data, size_t size)
{
	struct measure_ctx *m = ctx;

	(void)desc; /* the name is the event's description in a TPM log; here nothing logs */
	pcr_measure(m->bank, m->pcr, data, size);
	return EFI_SUCCESS;
}

void pcr_measure_uki(const struct pcr_bank *b, const struct uki_sections *u, uint8_t *ret)
{
	struct measure_ctx m = { b, ret };

	memset(ret, 0, b->size);
	uki_measure_sections(u, measure_section, &m);
}

void pcr_measure_phase(const struct pcr_bank *b, uint8_t *pcr, const char *phase)
{
	const char *word = phase;

	for (const char *p = phase;; p++) {
		if (*p != ':' && *p != '\0')
			continue;
		if (p > word)
			pcr_measure(b, pcr, word, (size_t)(p - word));
		if (*p == '\0')
			break;
		word = p + 1;
	}
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

void pcr_policy_pcr11(const struct pcr_bank *b, const uint8_t *value, uint8_t ret[SHA256_DIGEST_SIZE])
{
	/* policyDigest_old (a fresh session: zeros) || TPM_CC || TPML_PCR_SELECTION || pcrDigest */
	uint8_t msg[SHA256_DIGEST_SIZE + 4 + TPML_PCR_SELECTION_SIZE(1) + SHA256_DIGEST_SIZE];
	uint8_t *sel = msg + SHA256_DIGEST_SIZE + 4;

	memset(msg, 0, sizeof(msg));
	put_be32(msg + SHA256_DIGEST_SIZE, TPM_CC_PolicyPCR);
	put_be32(sel, 1);                      /* count */
	put_be16(sel + 4, b->alg);             /* TPMS_PCR_SELECTION.hash */
	sel[6] = TPM_PCR_SELECT_SIZE;          /* sizeofSelect */
	sel[7 + TPM_PCR_KERNEL_BOOT / 8] = 1u << (TPM_PCR_KERNEL_BOOT % 8);
	/* pcrDigest: the selected PCR values concatenated, hashed with the
	 * session's algorithm (Part 3 §23.7.1), SHA-256 for systemd's policies */
	sha256(value, b->size, sel + TPML_PCR_SELECTION_SIZE(1));
	sha256(msg, sizeof(msg), ret);
}
