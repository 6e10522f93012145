/* libFuzzer: the move plan of a kernel that is not relocatable
 * (src/core/relocate.c). Input: target address and size (8 + 8 bytes LE),
 * a descriptor-size selector and a count of kept ranges (1 + 1), the kept
 * ranges (16 bytes each), then the memory map. Invariants: move_check()
 * reads no byte past the map (ASan), and an accepted move lies within 2^64,
 * touches no kept range and only bytes that descriptors of a free type
 * describe and no other descriptor does (checked here independently, at every
 * point where the map can change); a refusal names something that meets the
 * target. */
#include "core/relocate.h"
#include <stdlib.h>

#define HEAD 18u
#define KEEP_MAX_IN 8u

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool free_type(const EFI_MEMORY_DESCRIPTOR *d)
{
	return !(d->Attribute & EFI_MEMORY_SP) &&
	       (d->Type == EfiLoaderCode || d->Type == EfiLoaderData || d->Type == EfiBootServicesCode ||
		d->Type == EfiBootServicesData || d->Type == EfiConventionalMemory);
}

struct map {
	const uint8_t *buf;
	size_t n, desc_size;
};

/* Descriptor @i as [start, end) (end saturated at 2^64 - 1: such maps are refused anyway). */
static void get(const struct map *m, size_t i, EFI_MEMORY_DESCRIPTOR *d, uint64_t *end)
{
	memcpy(d, m->buf + i * m->desc_size, sizeof(*d));
	*end = d->NumberOfPages > (UINT64_MAX - d->PhysicalStart) >> 12 ? UINT64_MAX
									  : d->PhysicalStart + (d->NumberOfPages << 12);
}

/* Is @p described by a free descriptor and by no other? */
static bool point_free(const struct map *m, uint64_t p)
{
	bool covered = false;

	for (size_t i = 0; i < m->n; i++) {
		EFI_MEMORY_DESCRIPTOR d;
		uint64_t end;

		get(m, i, &d, &end);
		if (d.PhysicalStart <= p && p < end) {
			if (!free_type(&d))
				return false;
			covered = true;
		}
	}
	return covered;
}

static void check_accepted(const struct map *m, uint64_t dst, uint64_t size, const struct move_keep *k)
{
	uint64_t end = dst + size;

	if (!size || size > UINT64_MAX - dst)
		abort();
	for (size_t i = 0; i < k->n; i++)
		if (move_overlaps(k->r[i].addr, k->r[i].size, dst, size))
			abort();
	if (!point_free(m, dst))
		abort();
	for (size_t i = 0; i < m->n; i++) {
		EFI_MEMORY_DESCRIPTOR d;
		uint64_t d_end;

		get(m, i, &d, &d_end);
		if ((d.PhysicalStart > dst && d.PhysicalStart < end && !point_free(m, d.PhysicalStart)) ||
		    (d_end > dst && d_end < end && !point_free(m, d_end)))
			abort();
	}
}

static void check_refused(enum move_block why, const struct move_verdict *v, uint64_t dst, uint64_t size)
{
	if (why != v->why)
		abort();
	if ((why == MOVE_KEPT || why == MOVE_MEMORY_TYPE) && !move_overlaps(v->addr, v->size, dst, size))
		abort();
	if (why == MOVE_UNMAPPED && (v->addr < dst || v->addr - dst >= size || !v->size || v->size > size))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct move_keep k = { 0 };
	struct move_verdict v;
	struct map m;
	uint64_t dst, size;
	size_t n_keep, off;
	enum move_block why;

	if (len < HEAD)
		return 0;
	dst = le64(data);
	size = le64(data + 8);
	m.desc_size = data[16] & 4 ? 32 : 40 + 8u * (data[16] & 3); /* 32: smaller than the struct */
	n_keep = data[17] % (KEEP_MAX_IN + 1);
	off = HEAD + 16 * n_keep;
	if (len < off)
		return 0;
	for (size_t i = 0; i < n_keep; i++)
		move_keep_add(&k, le64(data + HEAD + 16 * i), le64(data + HEAD + 16 * i + 8), "kept");
	m.buf = data + off;
	m.n = (len - off) / m.desc_size;
	why = move_check(dst, size, m.buf, len - off, m.desc_size, &k, &v);
	if (why == MOVE_OK && m.desc_size >= sizeof(EFI_MEMORY_DESCRIPTOR))
		check_accepted(&m, dst, size, &k);
	else if (why == MOVE_OK)
		abort();
	else
		check_refused(why, &v, dst, size);
	return 0;
}
