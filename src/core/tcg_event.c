/* Building EFI_TCG2_EVENT records (TCG EFI Protocol §6.6.5): a packed
 * 18-byte header {Size, {HeaderSize, HeaderVersion, PCRIndex, EventType}}
 * followed by the event data that goes into the log (the digest extended into
 * the PCR is of the measured buffer, not of this data). */
#include "tcg_event.h"
#include <efi/proto/tcg2.h>

/* Header for an event with @data_size bytes of data; NULL when out of memory or too big. */
static uint8_t *event_alloc(uint32_t pcr, uint32_t type, size_t data_size, size_t *ret_size)
{
	size_t size = offsetof(EFI_TCG2_EVENT, Event) + data_size;
	uint8_t *e;

	if (data_size > UINT32_MAX - offsetof(EFI_TCG2_EVENT, Event))
		return NULL;
	e = mem_zalloc(size);
	if (!e)
		return NULL;
	put_le32(e + offsetof(EFI_TCG2_EVENT, Size), (uint32_t)size);
	put_le32(e + offsetof(EFI_TCG2_EVENT, Header) + offsetof(EFI_TCG2_EVENT_HEADER, HeaderSize),
		 sizeof(EFI_TCG2_EVENT_HEADER));
	put_le16(e + offsetof(EFI_TCG2_EVENT, Header) + offsetof(EFI_TCG2_EVENT_HEADER, HeaderVersion),
		 EFI_TCG2_EVENT_HEADER_VERSION);
	put_le32(e + offsetof(EFI_TCG2_EVENT, Header) + offsetof(EFI_TCG2_EVENT_HEADER, PCRIndex), pcr);
	put_le32(e + offsetof(EFI_TCG2_EVENT, Header) + offsetof(EFI_TCG2_EVENT_HEADER, EventType), type);
	*ret_size = size;
	return e;
}

uint8_t *tcg_event_new_tagged(uint32_t pcr, uint32_t tag_id, const char *desc, size_t *ret_size)
{
	size_t desc_size = strlen(desc) + 1;
	uint8_t *e = event_alloc(pcr, EV_EVENT_TAG, offsetof(TCG_PCClientTaggedEvent, TaggedEventData) + desc_size,
				 ret_size);
	uint8_t *d;

	if (!e)
		return NULL;
	d = e + offsetof(EFI_TCG2_EVENT, Event);
	put_le32(d + offsetof(TCG_PCClientTaggedEvent, TaggedEventID), tag_id);
	put_le32(d + offsetof(TCG_PCClientTaggedEvent, TaggedEventDataSize), (uint32_t)desc_size);
	memcpy(d + offsetof(TCG_PCClientTaggedEvent, TaggedEventData), desc, desc_size);
	return e;
}

uint8_t *tcg_event_new_ipl(uint32_t pcr, const uint16_t *desc16, size_t desc_bytes, size_t *ret_size)
{
	uint8_t *e = event_alloc(pcr, EV_IPL, desc_bytes, ret_size);
	uint8_t *d;

	if (!e)
		return NULL;
	d = e + offsetof(EFI_TCG2_EVENT, Event);
	for (size_t i = 0; i < desc_bytes / 2; i++)
		put_le16(d + 2 * i, desc16[i]);
	return e;
}

uint8_t *tcg_event_new_ipl_ascii(uint32_t pcr, const char *desc, size_t *ret_size)
{
	size_t n = strlen(desc) + 1;
	_cleanup_free_ uint16_t *w = mem_alloc(n * sizeof(uint16_t));

	if (!w)
		return NULL;
	for (size_t i = 0; i < n; i++)
		w[i] = (uint8_t)desc[i];
	return tcg_event_new_ipl(pcr, w, n * sizeof(uint16_t), ret_size);
}

/* UINTN as the firmware this was built for has it: 8 bytes, or 4 on IA-32. */
static size_t put_uintn(uint8_t *p, uint64_t v)
{
	if (sizeof(UINTN) == 8)
		put_le64(p, v);
	else
		put_le32(p, (uint32_t)v);
	return sizeof(UINTN);
}

uint8_t *tcg_event_new_image(uint32_t pcr, uint64_t addr, uint64_t len, const void *dp, size_t dp_len,
			     size_t *ret_size)
{
	size_t head = sizeof(uint64_t) + 3 * sizeof(UINTN);
	uint8_t *e = dp_len > SIZE_MAX / 2 ? NULL : event_alloc(pcr, EV_EFI_BOOT_SERVICES_APPLICATION, head + dp_len,
								 ret_size);
	uint8_t *d;

	if (!e)
		return NULL;
	d = e + offsetof(EFI_TCG2_EVENT, Event);
	put_le64(d, addr);               /* ImageLocationInMemory */
	d += 8;
	d += put_uintn(d, len);          /* ImageLengthInMemory */
	d += put_uintn(d, 0);            /* ImageLinkTimeAddress */
	d += put_uintn(d, dp_len);       /* LengthOfDevicePath */
	if (dp_len)
		memcpy(d, dp, dp_len);
	return e;
}

/* TPM 2.0 Part 2 §6.3 TPM_ALG_ID: the digest sizes an event log may carry. */
static size_t digest_size(uint16_t alg)
{
	switch (alg) {
	case 0x0004: return 20;  /* SHA1 */
	case 0x000b: return 32;  /* SHA256 */
	case 0x000c: return 48;  /* SHA384 */
	case 0x000d: return 64;  /* SHA512 */
	case 0x0012: return 32;  /* SM3_256 */
	default: return 0;
	}
}

#define TCG2_MAX_DIGESTS 8u

size_t tcg2_event_size(const uint8_t *ev, size_t max)
{
	size_t off = 12; /* pcrIndex, eventType, digests.count */
	uint32_t n_digests;

	if (max < off)
		return 0;
	n_digests = get_le32(ev + 8);
	if (n_digests == 0 || n_digests > TCG2_MAX_DIGESTS)
		return 0;
	for (uint32_t i = 0; i < n_digests; i++) {
		size_t d;

		if (!range_ok(off, 2, max) || (d = digest_size(get_le16(ev + off))) == 0 || !range_ok(off + 2, d, max))
			return 0;
		off += 2 + d;
	}
	if (!range_ok(off, 4, max) || !range_ok(off + 4, get_le32(ev + off), max))
		return 0;
	return off + 4 + get_le32(ev + off);
}

size_t tcg2_events_size(const uint8_t *events, size_t max, uint64_t n)
{
	size_t off = 0;

	for (uint64_t i = 0; i < n; i++) {
		size_t e = tcg2_event_size(events + off, max - off);

		if (e == 0)
			return 0;
		off += e;
	}
	return off;
}
