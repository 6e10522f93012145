/* RFC 1951 decoder (inflate.h). Huffman codes are canonical (§3.2.2), so a
 * table of how many codes each length has plus the symbols in code order is
 * enough to decode one bit at a time: no lookup tables to build or carry. */
#include "inflate.h"

#define MAX_BITS 15
#define N_LITLEN 288 /* 286 and 287 take part in the fixed code, never in data (§3.2.6) */
#define N_DIST 30

struct huffman {
	uint16_t count[MAX_BITS + 1];
	uint16_t symbol[N_LITLEN];
};

struct stream {
	const uint8_t *src;
	size_t src_len, pos;
	uint32_t bits;          /* read but not used, low bit first */
	unsigned n_bits;
	uint8_t *dst;
	size_t dst_len, out;
	bool bad;               /* read past the end: every later check fails */
	uint16_t length_base[29], dist_base[N_DIST];
};

static uint32_t get_bits(struct stream *s, unsigned n)
{
	uint32_t v;

	while (s->n_bits < n) {
		if (s->pos == s->src_len) {
			s->bad = true;
			return 0;
		}
		s->bits |= (uint32_t)s->src[s->pos++] << s->n_bits;
		s->n_bits += 8;
	}
	v = s->bits & ((1u << n) - 1);
	s->bits >>= n;
	s->n_bits -= n;
	return v;
}

/* §3.2.2: codes of each length are consecutive, and shorter ones come first.
 * A code must fill its code space, as zlib's decoder requires: never
 * over-subscribed, incomplete only with no code at all or one code of one bit
 * (§3.2.7: literals only; "a single code length of one, with one unused
 * code"). zlib refuses those two for the code-length code too; here such a
 * code gives 257 or more equal (or zero) literal/length lengths: refused. */
static bool build(struct huffman *h, const uint8_t *lengths, unsigned n)
{
	uint16_t offs[MAX_BITS + 1];
	int left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (unsigned i = 0; i < n; i++)
		h->count[lengths[i]]++;
	for (unsigned len = 1; len <= MAX_BITS; len++) {
		left = 2 * left - h->count[len];
		if (left < 0)
			return false; /* over-subscribed */
	}
	if (left && h->count[0] + h->count[1] != n)
		return false; /* incomplete */
	offs[1] = 0;
	for (unsigned len = 1; len < MAX_BITS; len++)
		offs[len + 1] = offs[len] + h->count[len];
	for (unsigned i = 0; i < n; i++)
		if (lengths[i])
			h->symbol[offs[lengths[i]]++] = (uint16_t)i;
	return true;
}

/* A symbol, or -1 for a code the table does not have (an incomplete code). */
static int decode(struct stream *s, const struct huffman *h)
{
	int code = 0, first = 0, index = 0;

	for (unsigned len = 1; len <= MAX_BITS; len++) {
		int count = h->count[len];

		code |= (int)get_bits(s, 1);
		if (code - first < count)
			return h->symbol[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

/* §3.2.5: lengths 3..258 and distances 1..32768 as base plus extra bits; the
 * extra bits grow by one every four (two) codes, so the bases follow. */
static unsigned length_extra(unsigned i)
{
	return i < 8 || i == 28 ? 0 : (i - 4) / 4;
}

static unsigned dist_extra(unsigned i)
{
	return i < 4 ? 0 : (i - 2) / 2;
}

static bool codes(struct stream *s, const struct huffman *lit, const struct huffman *dist)
{
	for (;;) {
		int sym = decode(s, lit);
		unsigned len, d;

		if (sym < 256) {
			if (sym < 0 || s->bad || s->out == s->dst_len)
				return false;
			s->dst[s->out++] = (uint8_t)sym;
			continue;
		}
		if (sym == 256)
			return !s->bad;
		if ((sym -= 257) >= 29)
			return false;
		len = s->length_base[sym] + get_bits(s, length_extra(sym));
		if ((sym = decode(s, dist)) < 0 || sym >= N_DIST)
			return false;
		d = s->dist_base[sym] + get_bits(s, dist_extra(sym));
		if (s->bad || d > s->out || len > s->dst_len - s->out)
			return false;
		for (; len; len--, s->out++) /* byte by byte: the copy may overlap itself */
			s->dst[s->out] = s->dst[s->out - d];
	}
}

/* §3.2.4: a byte-aligned length, its complement, the bytes. */
static bool stored(struct stream *s)
{
	unsigned len, nlen;

	s->bits = 0;
	s->n_bits = 0;
	len = get_bits(s, 16);
	nlen = get_bits(s, 16);
	if (s->bad || len != (~nlen & 0xffff) || len > s->src_len - s->pos || len > s->dst_len - s->out)
		return false;
	memcpy(s->dst + s->out, s->src + s->pos, len);
	s->pos += len;
	s->out += len;
	return true;
}

/* §3.2.6 */
static bool fixed(struct stream *s)
{
	struct huffman lit, dist;
	uint8_t l[N_LITLEN];

	for (unsigned i = 0; i < N_LITLEN; i++)
		l[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	build(&lit, l, N_LITLEN);
	memset(l, 5, 32); /* 30 and 31 complete the code; codes() refuses them */
	build(&dist, l, 32);
	return codes(s, &lit, &dist);
}

/* §3.2.7: the code lengths, themselves Huffman coded. */
static bool dynamic(struct stream *s)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	struct huffman lit, dist;
	uint8_t l[N_LITLEN + N_DIST] = { 0 };
	unsigned nlit = get_bits(s, 5) + 257, ndist = get_bits(s, 5) + 1, ncode = get_bits(s, 4) + 4;

	if (nlit > 286 || ndist > N_DIST)
		return false;
	for (unsigned i = 0; i < ncode; i++)
		l[order[i]] = (uint8_t)get_bits(s, 3);
	if (s->bad || !build(&lit, l, 19))
		return false;
	for (unsigned i = 0; i < nlit + ndist;) {
		int sym = decode(s, &lit);
		unsigned rep, val = 0;

		if (sym < 0 || s->bad)
			return false;
		if (sym < 16) {
			l[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (i == 0)
				return false;
			val = l[i - 1];
			rep = 3 + get_bits(s, 2);
		} else {
			rep = sym == 17 ? 3 + get_bits(s, 3) : 11 + get_bits(s, 7);
		}
		if (rep > nlit + ndist - i)
			return false;
		while (rep--)
			l[i++] = (uint8_t)val;
	}
	if (l[256] == 0 || !build(&lit, l, nlit) || !build(&dist, l + nlit, ndist))
		return false;
	return codes(s, &lit, &dist);
}

EFI_STATUS deflate_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len)
{
	struct stream s = { .src = src, .src_len = src_len, .dst = dst, .dst_len = dst_len };
	unsigned last, len = 3, d = 1;

	for (unsigned i = 0; i < 29; len += 1u << length_extra(i++))
		s.length_base[i] = (uint16_t)(i == 28 ? 258 : len);
	for (unsigned i = 0; i < N_DIST; d += 1u << dist_extra(i++))
		s.dist_base[i] = (uint16_t)d;

	do {
		bool ok;

		last = get_bits(&s, 1);
		switch (get_bits(&s, 2)) {
		case 0:
			ok = stored(&s);
			break;
		case 1:
			ok = fixed(&s);
			break;
		case 2:
			ok = dynamic(&s);
			break;
		default:
			ok = false;
		}
		if (!ok || s.bad)
			return EFI_COMPROMISED_DATA;
	} while (!last);
	return s.out == dst_len ? EFI_SUCCESS : EFI_COMPROMISED_DATA;
}
