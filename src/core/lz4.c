/* LZ4 block codec (lz4.h). The decoder runs in the packed loaders before
 * anything else (src/pack/unpack.c), on bytes covered by the loader's own
 * signature, and is still written as for hostile input: each count is checked
 * against what is left of both buffers before a byte moves. */
#include "lz4.h"

#define MIN_MATCH 4u
#define LAST_LITERALS 5u  /* the block format's end rules */
#define MATCH_LIMIT 12u
#define MAX_OFFSET 65535u
#define HASH_BITS 16u
#define CHAIN_DEPTH 256u
#define CUT_LENGTHS 64u

/* A length nibble of 15 continues in bytes of 255 until a smaller one. */
static bool read_length(const uint8_t **p, const uint8_t *end, size_t *len)
{
	uint8_t b;

	if (*len != 15)
		return true;
	do {
		if (*p >= end)
			return false;
		b = *(*p)++;
		if (*len > SIZE_MAX - b)
			return false;
		*len += b;
	} while (b == 255);
	return true;
}

EFI_STATUS lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len)
{
	const uint8_t *p = src, *end = src + src_len;
	size_t out = 0;

	while (p < end) {
		uint8_t token = *p++;
		size_t lit = token >> 4, match = token & 15, off;

		if (!read_length(&p, end, &lit) || lit > (size_t)(end - p) || lit > dst_len - out)
			return EFI_COMPROMISED_DATA;
		memcpy(dst + out, p, lit);
		p += lit;
		out += lit;
		if (p == end)
			break; /* the last sequence: literals only */
		if (end - p < 2)
			return EFI_COMPROMISED_DATA;
		off = (size_t)p[0] | (size_t)p[1] << 8;
		p += 2;
		if (!read_length(&p, end, &match) || off == 0 || off > out || dst_len - out < MIN_MATCH ||
		    match > dst_len - out - MIN_MATCH)
			return EFI_COMPROMISED_DATA;
		/* byte by byte: a match may overlap what it copies (off < length) */
		for (size_t i = 0; i < match + MIN_MATCH; i++, out++)
			dst[out] = dst[out - off];
		if (p == end)
			return EFI_COMPROMISED_DATA; /* the last sequence holds literals only */
	}
	return out == dst_len ? EFI_SUCCESS : EFI_COMPROMISED_DATA;
}

size_t lz4_encode_bound(size_t len)
{
	size_t extra = len / 255 + 16;

	return len > SIZE_MAX - extra ? 0 : len + extra;
}

static uint32_t hash4(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

	return (v * 2654435761u) >> (32 - HASH_BITS);
}

static uint8_t *put_length(uint8_t *o, size_t len)
{
	for (len -= 15; len >= 255; len -= 255)
		*o++ = 255;
	*o++ = (uint8_t)len;
	return o;
}

static uint8_t *put_sequence(uint8_t *o, const uint8_t *lit, size_t n_lit, size_t match, size_t off)
{
	size_t m = match ? match - MIN_MATCH : 0;
	uint8_t *token = o++;

	*token = (uint8_t)((n_lit < 15 ? n_lit : 15) << 4 | (m < 15 ? m : 15));
	if (n_lit >= 15)
		o = put_length(o, n_lit);
	memcpy(o, lit, n_lit);
	o += n_lit;
	if (!match)
		return o;
	*o++ = (uint8_t)off;
	*o++ = (uint8_t)(off >> 8);
	return m >= 15 ? put_length(o, m) : o;
}

/* The bytes a match of @n costs: token, offset, length bytes. */
static size_t match_cost(size_t n)
{
	return 3 + (n - MIN_MATCH >= 15 ? (n - MIN_MATCH - 15) / 255 + 1 : 0);
}

/* Per position: the longest earlier match (hash chains, newest first) and,
 * after the parse, the fewest bytes that encode the rest and the match
 * length chosen there (0: a literal). */
struct parse {
	size_t *len, *off, *best, *choice;
	int64_t *head, *prev;
};

static void parse_free(struct parse *p)
{
	mem_free(p->len);
	mem_free(p->off);
	mem_free(p->best);
	mem_free(p->choice);
	mem_free(p->head);
	mem_free(p->prev);
}

static bool parse_alloc(struct parse *p, size_t n)
{
	size_t words = n * sizeof(size_t);

	*p = (struct parse){ mem_zalloc(words), mem_zalloc(words), mem_alloc(words), mem_zalloc(words),
			     mem_alloc(sizeof(int64_t) << HASH_BITS), mem_alloc(n * sizeof(int64_t)) };
	if (p->len && p->off && p->best && p->choice && p->head && p->prev) {
		memset(p->head, 0xff, sizeof(int64_t) << HASH_BITS);
		return true;
	}
	parse_free(p);
	return false;
}

/* The longest match at each position where one may start (the format's end
 * rules: not in the last 12 bytes, not into the last 5). */
static void find_matches(struct parse *p, const uint8_t *src, size_t len)
{
	size_t match_end = len - LAST_LITERALS;

	for (size_t i = 0; i + MATCH_LIMIT <= len; i++) {
		uint32_t h = hash4(src + i);
		unsigned depth = 0;

		for (int64_t j = p->head[h]; j >= 0 && depth < CHAIN_DEPTH; j = p->prev[j], depth++) {
			size_t n = 0;

			if (i - (size_t)j > MAX_OFFSET)
				break;
			while (i + n < match_end && src[(size_t)j + n] == src[i + n])
				n++;
			if (n > p->len[i]) {
				p->len[i] = n;
				p->off[i] = i - (size_t)j;
			}
			if (i + n == match_end)
				break; /* none can be longer */
		}
		p->prev[i] = p->head[h];
		p->head[h] = (int64_t)i;
	}
}

/* Backwards: at each position a literal, or the match there, whole or cut
 * to a length from 4 to CUT_LENGTHS (a shorter one may let a better one start
 * sooner; past that the whole match wins, and trying every length of a long
 * run of zeros would take quadratic time). A literal
 * counts as one byte; the extra length bytes of long runs are too few to
 * change a choice. */
static void choose(struct parse *p, size_t len)
{
	p->best[len] = 0;
	for (size_t i = len; i-- > 0;) {
		p->best[i] = p->best[i + 1] + 1;
		for (size_t l = MIN_MATCH; l <= p->len[i]; l = l < CUT_LENGTHS || l == p->len[i] ? l + 1 : p->len[i]) {
			size_t cost = match_cost(l) + p->best[i + l];

			if (cost < p->best[i]) {
				p->best[i] = cost;
				p->choice[i] = l;
			}
		}
	}
}

size_t lz4_encode(const uint8_t *src, size_t len, uint8_t *dst)
{
	struct parse p;
	size_t anchor = 0, i = 0;
	uint8_t *o = dst;

	if (!parse_alloc(&p, len + 1))
		return 0;
	if (len >= MATCH_LIMIT) {
		find_matches(&p, src, len);
		choose(&p, len);
	}
	while (i < len) {
		if (!p.choice[i]) {
			i++;
			continue;
		}
		o = put_sequence(o, src + anchor, i - anchor, p.choice[i], p.off[i]);
		i += p.choice[i];
		anchor = i;
	}
	o = put_sequence(o, src + anchor, len - anchor, 0, 0);
	parse_free(&p);
	return (size_t)(o - dst);
}
