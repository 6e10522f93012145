/* LZMA decoder (lzma.h), written from the LZMA specification
 * (lzma-specification.txt): a range decoder of adaptive binary probabilities,
 * literals, matches and the four most recent distances ("reps"), twelve
 * states. Names follow the specification's. */
#include "lzma.h"

#define N_STATES 12
#define PROB_BITS 11 /* kNumBitModelTotalBits */
#define MOVE_BITS 5  /* kNumMoveBits */
#define TOP (1u << 24)
#define END_POS_MODEL 14   /* kEndPosModelIndex: slots below use spec_pos */
#define FULL_DISTANCES 128 /* kNumFullDistances */
#define ALIGN_BITS 4

_Static_assert(LZMA_PB == 0, "one pos_state: no arrays by position");
_Static_assert(LZMA_LC + LZMA_LP <= LZMA_LIT_BITS && LZMA_AA64_LC + LZMA_AA64_LP <= LZMA_LIT_BITS, "literal tables");

struct len_probs {
	uint16_t choice, choice2, low[1 << 3], mid[1 << 3], high[1 << 8]; /* one pos_state: LZMA_PB 0 */
};

/* All uint16_t, no padding: initialized as one array. */
struct probs {
	uint16_t is_match[N_STATES], is_rep[N_STATES], is_rep_g0[N_STATES], is_rep_g1[N_STATES];
	uint16_t is_rep_g2[N_STATES], is_rep0_long[N_STATES];
	uint16_t pos_slot[4][1 << 6];
	uint16_t spec_pos[1 + FULL_DISTANCES - END_POS_MODEL];
	uint16_t align[1 << ALIGN_BITS];
	struct len_probs len, rep_len;
	uint16_t literal[0x300 << LZMA_LIT_BITS];
};

struct rc {
	const uint8_t *src;
	size_t len, pos;
	uint32_t range, code;
	bool bad; /* read past the end: every later check fails */
};

static void rc_shift(struct rc *rc)
{
	uint8_t b = 0;

	if (rc->pos < rc->len)
		b = rc->src[rc->pos++];
	else
		rc->bad = true;
	rc->code = rc->code << 8 | b;
}

static void rc_normalize(struct rc *rc)
{
	if (rc->range < TOP) {
		rc->range <<= 8;
		rc_shift(rc);
	}
}

static unsigned rc_bit(struct rc *rc, uint16_t *prob)
{
	uint32_t bound = (rc->range >> PROB_BITS) * *prob;
	unsigned bit = rc->code >= bound;

	if (bit) {
		rc->range -= bound;
		rc->code -= bound;
		*prob -= *prob >> MOVE_BITS;
	} else {
		rc->range = bound;
		*prob += ((1u << PROB_BITS) - *prob) >> MOVE_BITS;
	}
	rc_normalize(rc);
	return bit;
}

/* Bits of probability one half, most significant first. */
static uint32_t rc_direct(struct rc *rc, unsigned n)
{
	uint32_t v = 0;

	while (n--) {
		unsigned bit;

		rc->range >>= 1;
		bit = rc->code >= rc->range;
		if (bit)
			rc->code -= rc->range;
		v = v << 1 | bit;
		rc_normalize(rc);
	}
	return v;
}

/* A bit tree of @n levels, most significant bit first (BitTreeDecode), or
 * least significant first (BitTreeReverseDecode). */
static unsigned tree(struct rc *rc, uint16_t *probs, unsigned n)
{
	unsigned m = 1;

	for (unsigned i = 0; i < n; i++)
		m = m << 1 | rc_bit(rc, probs + m);
	return m - (1u << n);
}

static unsigned tree_reverse(struct rc *rc, uint16_t *probs, unsigned n)
{
	unsigned m = 1, v = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned bit = rc_bit(rc, probs + m);

		m = m << 1 | bit;
		v |= bit << i;
	}
	return v;
}

/* 0..271: a match is 2 longer. */
static unsigned length(struct rc *rc, struct len_probs *l)
{
	if (!rc_bit(rc, &l->choice))
		return tree(rc, l->low, 3);
	if (!rc_bit(rc, &l->choice2))
		return 8 + tree(rc, l->mid, 3);
	return 16 + tree(rc, l->high, 8);
}

/* The distance less one; 0xffffffff is the end marker. */
static uint32_t distance(struct rc *rc, struct probs *p, unsigned len)
{
	unsigned slot = tree(rc, p->pos_slot[MIN(len, 3u)], 6), n;
	uint32_t d;

	if (slot < 4)
		return slot;
	n = (slot >> 1) - 1;
	d = (2u | (slot & 1)) << n;
	if (slot < END_POS_MODEL)
		return d + tree_reverse(rc, p->spec_pos + (d - slot), n);
	return d + (rc_direct(rc, n - ALIGN_BITS) << ALIGN_BITS) + tree_reverse(rc, p->align, ALIGN_BITS);
}

/* After a match (state 7 and up) the byte at rep0 steers the first bits. */
static uint8_t literal(struct rc *rc, uint16_t *probs, unsigned state, unsigned match_byte)
{
	unsigned sym = 1;

	if (state >= 7)
		do {
			unsigned match_bit = match_byte >> 7 & 1, bit;

			match_byte <<= 1;
			bit = rc_bit(rc, probs + 0x100 + (match_bit << 8) + sym);
			sym = sym << 1 | bit;
			if (bit != match_bit)
				break;
		} while (sym < 0x100);
	while (sym < 0x100)
		sym = sym << 1 | rc_bit(rc, probs + sym);
	return (uint8_t)sym;
}

EFI_STATUS lzma_decode_arch(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len, enum fw_arch fw)
{
	bool words = fw_is(fw, FW_AA64); /* a firmware build's own: its properties are constants */
	unsigned lc = words ? LZMA_AA64_LC : LZMA_LC, lpmask = (1u << (words ? LZMA_AA64_LP : LZMA_LP)) - 1;
	struct probs p;
	struct rc rc = { .src = src, .len = src_len, .range = 0xffffffff };
	uint32_t rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
	unsigned state = 0;
	size_t out = 0;

	for (size_t i = 0; i < sizeof(p) / sizeof(uint16_t); i++)
		((uint16_t *)&p)[i] = 1u << (PROB_BITS - 1);
	for (unsigned i = 0; i < 5; i++)
		rc_shift(&rc);
	/* the first byte is always 0, so the code starts below the range */
	if (rc.bad || src[0] != 0 || rc.code == rc.range)
		return EFI_COMPROMISED_DATA;
	while (out < dst_len) {
		size_t len = 1;

		if (!rc_bit(&rc, &p.is_match[state])) {
			unsigned prev = out ? dst[out - 1] : 0;

			/* the literal's state: its position's low lp bits, then the byte before's top lc */
			dst[out] = literal(&rc, p.literal + 0x300 * (((unsigned)out & lpmask) << lc | prev >> (8 - lc)),
					   state, rep0 < out ? dst[out - rep0 - 1] : 0);
			out++;
			state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
			continue;
		}
		if (!rc_bit(&rc, &p.is_rep[state])) { /* a match, at a new distance */
			rep3 = rep2;
			rep2 = rep1;
			rep1 = rep0;
			len += 1 + length(&rc, &p.len);
			state = state < 7 ? 7 : 10;
			rep0 = distance(&rc, &p, (unsigned)len - 2);
		} else if (!rc_bit(&rc, &p.is_rep_g0[state])) { /* rep0 again */
			if (!rc_bit(&rc, &p.is_rep0_long[state]))
				state = state < 7 ? 9 : 11; /* one byte */
			else {
				len += 1 + length(&rc, &p.rep_len);
				state = state < 7 ? 8 : 11;
			}
		} else { /* rep1, rep2 or rep3, which becomes rep0 */
			uint32_t d;

			if (!rc_bit(&rc, &p.is_rep_g1[state])) {
				d = rep1;
			} else {
				if (!rc_bit(&rc, &p.is_rep_g2[state])) {
					d = rep2;
				} else {
					d = rep3;
					rep3 = rep2;
				}
				rep2 = rep1;
			}
			rep1 = rep0;
			rep0 = d;
			len += 1 + length(&rc, &p.rep_len);
			state = state < 7 ? 8 : 11;
		}
		/* the end marker (0xffffffff) and distances before the start fail here */
		if (rc.bad || rep0 >= out || len > dst_len - out)
			return EFI_COMPROMISED_DATA;
		for (; len; len--, out++) /* byte by byte: the copy may overlap itself */
			dst[out] = dst[out - rep0 - 1];
	}
	/* finished (the code back to 0) at the stream's last byte */
	return rc.bad || rc.code != 0 || rc.pos != src_len ? EFI_COMPROMISED_DATA : EFI_SUCCESS;
}

EFI_STATUS lzma_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len)
{
	return lzma_decode_arch(src, src_len, dst, dst_len, FW_X64);
}
