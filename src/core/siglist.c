/* EFI_SIGNATURE_LIST (UEFI 2.10 §32.4.1) and the authenticated-write
 * serialization of §8.2.2 (siglist.h). The writers size their output in a
 * first pass over the same code that fills it in the second; every size
 * read is checked against what is left of the buffer before it is used. */
#include "siglist.h"
#include "array.h"
#include "gpt.h"
#include "log.h"

#define LIST_HEADER_SIZE sizeof(EFI_SIGNATURE_LIST)
#define OWNER_SIZE sizeof(EFI_GUID)
#define AUTH_HEADER_SIZE sizeof(EFI_VARIABLE_AUTHENTICATION_2)
#define TIME_SIZE sizeof(EFI_TIME)
#define CERT_HEADER_SIZE sizeof(WIN_CERTIFICATE_UEFI_GUID)

static const EFI_GUID cert_x509 = EFI_CERT_X509_GUID;
static const EFI_GUID cert_type_pkcs7 = EFI_CERT_TYPE_PKCS7_GUID;

/* The signatures of the list at @p (@size bytes, checked), appended to *@v. */
static EFI_STATUS parse_list(const uint8_t *p, uint32_t size, const char *name, size_t at,
			     struct siglist_entry **v, size_t *n)
{
	uint32_t header = get_le32(p + offsetof(EFI_SIGNATURE_LIST, SignatureHeaderSize));
	uint32_t sig = get_le32(p + offsetof(EFI_SIGNATURE_LIST, SignatureSize));
	uint32_t body;

	if (header > size - LIST_HEADER_SIZE)
		return log_error_status(EFI_LOAD_ERROR, "%s: list at %#zx: SignatureHeaderSize %u past its %u bytes",
					name, at, header, size);
	body = size - (uint32_t)LIST_HEADER_SIZE - header;
	if (sig <= OWNER_SIZE || body % sig)
		return log_error_status(EFI_LOAD_ERROR, "%s: list at %#zx: SignatureSize %u does not divide the %u "
					"bytes of signatures (or holds no more than the owner)", name, at, sig, body);
	for (uint32_t off = (uint32_t)LIST_HEADER_SIZE + header; off < size; off += sig) {
		struct siglist_entry e = { .data = p + off + OWNER_SIZE, .size = sig - OWNER_SIZE };

		memcpy(&e.type, p, sizeof(e.type));
		memcpy(&e.owner, p + off, sizeof(e.owner));
		if (array_append(v, n, sizeof(e), &e) != EFI_SUCCESS)
			return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

EFI_STATUS siglist_parse(const uint8_t *buf, size_t len, const char *name, struct siglist_entry **ret,
			 size_t *ret_n)
{
	struct siglist_entry *v = NULL;
	size_t n = 0, off = 0;
	EFI_STATUS err = EFI_SUCCESS;

	if (len > SIGLIST_MAX)
		err = log_error_status(EFI_LOAD_ERROR, "%s: %zu bytes, more than %u", name, len, SIGLIST_MAX);
	while (err == EFI_SUCCESS && off < len) {
		uint32_t size;

		if (len - off < LIST_HEADER_SIZE) {
			err = log_error_status(EFI_LOAD_ERROR, "%s: %zu stray bytes at %#zx", name, len - off, off);
			break;
		}
		size = get_le32(buf + off + offsetof(EFI_SIGNATURE_LIST, SignatureListSize));
		if (size < LIST_HEADER_SIZE || size > len - off)
			err = log_error_status(EFI_LOAD_ERROR, "%s: list at %#zx: SignatureListSize %u outside the "
					       "%zu bytes left", name, off, size, len - off);
		else
			err = parse_list(buf + off, size, name, off, &v, &n);
		off += size;
	}
	if (err != EFI_SUCCESS) {
		mem_free(v);
		return err;
	}
	*ret = v;
	*ret_n = n;
	return EFI_SUCCESS;
}

/* A writer that only counts while @buf is NULL (the first pass); 64 bits,
 * so that the count cannot wrap on IA-32 before two_pass() refuses it. */
struct out {
	uint8_t *buf;
	uint64_t len;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->buf && n)
		memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static void put32(struct out *o, uint32_t v)
{
	uint8_t b[4];

	put_le32(b, v);
	put(o, b, sizeof(b));
}

/* How many entries from @e on share a list with it. */
static size_t run_length(const struct siglist_entry *e, size_t n)
{
	size_t k = 1;

	if (guid_equal(&e->type, &cert_x509))
		return 1;
	while (k < n && guid_equal(&e[k].type, &e->type) && e[k].size == e->size)
		k++;
	return k;
}

static void write_lists(const struct siglist_entry *e, size_t n, struct out *o)
{
	for (size_t i = 0, k; i < n; i += k) {
		k = run_length(e + i, n - i);
		put(o, &e[i].type, sizeof(e[i].type));
		put32(o, (uint32_t)(LIST_HEADER_SIZE + k * (OWNER_SIZE + e[i].size)));
		put32(o, 0);
		put32(o, (uint32_t)(OWNER_SIZE + e[i].size));
		for (size_t j = i; j < i + k; j++) {
			put(o, &e[j].owner, sizeof(e[j].owner));
			put(o, e[j].data, e[j].size);
		}
	}
}

/* The two passes: size (refused past SIGLIST_MAX), allocate, fill. */
static EFI_STATUS two_pass(void (*fill)(const void *ctx, struct out *o), const void *ctx, uint8_t **ret,
			   size_t *ret_len)
{
	struct out o = { 0 };

	fill(ctx, &o);
	if (o.len > SIGLIST_MAX)
		return EFI_INVALID_PARAMETER;
	o.buf = mem_alloc(o.len ? (size_t)o.len : 1);
	if (!o.buf)
		return EFI_OUT_OF_RESOURCES;
	o.len = 0;
	fill(ctx, &o);
	*ret = o.buf;
	*ret_len = (size_t)o.len;
	return EFI_SUCCESS;
}

struct lists_ctx {
	const struct siglist_entry *e;
	size_t n;
};

static void fill_lists(const void *ctx, struct out *o)
{
	const struct lists_ctx *c = ctx;

	write_lists(c->e, c->n, o);
}

EFI_STATUS siglist_build(const struct siglist_entry *e, size_t n, uint8_t **ret, size_t *ret_len)
{
	struct lists_ctx c = { e, n };

	for (size_t i = 0; i < n; i++)
		if (e[i].size > SIGLIST_MAX)
			return EFI_INVALID_PARAMETER; /* before any sum could overflow */
	if (n > SIGLIST_MAX)
		return EFI_INVALID_PARAMETER;
	return two_pass(fill_lists, &c, ret, ret_len);
}

/* EFI_TIME as its 16 bytes (§8.3), field by field. */
static void put_time(struct out *o, const EFI_TIME *t)
{
	uint8_t b[TIME_SIZE] = { 0 };

	put_le16(b, t->Year);
	b[2] = t->Month;
	b[3] = t->Day;
	b[4] = t->Hour;
	b[5] = t->Minute;
	b[6] = t->Second;
	b[7] = t->Pad1;
	put_le32(b + 8, t->Nanosecond);
	put_le16(b + 12, (uint16_t)t->TimeZone);
	b[14] = t->Daylight;
	b[15] = t->Pad2;
	put(o, b, sizeof(b));
}

struct payload_ctx {
	const char *var;
	const EFI_GUID *vendor;
	uint32_t attributes;
	const EFI_TIME *time;
	const uint8_t *data;
	size_t len;
};

static void fill_payload(const void *ctx, struct out *o)
{
	const struct payload_ctx *c = ctx;

	for (const char *s = c->var; *s; s++) {
		uint8_t u[2] = { (uint8_t)*s, 0 };

		put(o, u, sizeof(u));
	}
	put(o, c->vendor, sizeof(*c->vendor));
	put32(o, c->attributes);
	put_time(o, c->time);
	put(o, c->data, c->len);
}

EFI_STATUS siglist_auth_payload(const char *var, const EFI_GUID *vendor, uint32_t attributes, const EFI_TIME *time,
				const uint8_t *data, size_t len, uint8_t **ret, size_t *ret_len)
{
	struct payload_ctx c = { var, vendor, attributes, time, data, len };
	size_t n = strlen(var);

	for (size_t i = 0; i < n; i++)
		if ((uint8_t)var[i] >= 0x80)
			return EFI_INVALID_PARAMETER;
	if (len > SIGLIST_MAX || n > SIGLIST_MAX)
		return EFI_INVALID_PARAMETER;
	return two_pass(fill_payload, &c, ret, ret_len);
}

struct auth_ctx {
	const EFI_TIME *time;
	const uint8_t *pkcs7, *data;
	size_t pkcs7_len, len;
};

static void fill_auth(const void *ctx, struct out *o)
{
	const struct auth_ctx *c = ctx;
	uint8_t hdr[sizeof(WIN_CERTIFICATE)];

	put_time(o, c->time);
	put_le32(hdr, (uint32_t)(CERT_HEADER_SIZE + c->pkcs7_len));
	put_le16(hdr + 4, WIN_CERT_REVISION_2_0);
	put_le16(hdr + 6, WIN_CERT_TYPE_EFI_GUID);
	put(o, hdr, sizeof(hdr));
	put(o, &cert_type_pkcs7, sizeof(cert_type_pkcs7));
	put(o, c->pkcs7, c->pkcs7_len);
	put(o, c->data, c->len);
}

EFI_STATUS siglist_auth_build(const EFI_TIME *time, const uint8_t *pkcs7, size_t pkcs7_len, const uint8_t *data,
			      size_t len, uint8_t **ret, size_t *ret_len)
{
	struct auth_ctx c = { time, pkcs7, data, pkcs7_len, len };

	if (pkcs7_len > SIGLIST_MAX || len > SIGLIST_MAX)
		return EFI_INVALID_PARAMETER;
	return two_pass(fill_auth, &c, ret, ret_len);
}

static void get_time(const uint8_t *b, EFI_TIME *t)
{
	*t = (EFI_TIME){ .Year = get_le16(b), .Month = b[2], .Day = b[3], .Hour = b[4], .Minute = b[5],
			 .Second = b[6], .Pad1 = b[7], .Nanosecond = get_le32(b + 8),
			 .TimeZone = (INT16)get_le16(b + 12), .Daylight = b[14], .Pad2 = b[15] };
}

EFI_STATUS siglist_auth_parse(const uint8_t *buf, size_t len, const char *name, struct siglist_auth *ret)
{
	const uint8_t *cert = buf + TIME_SIZE;
	uint32_t length;
	EFI_GUID type;

	if (len < AUTH_HEADER_SIZE)
		return log_error_status(EFI_LOAD_ERROR, "%s: %zu bytes, shorter than an "
					"EFI_VARIABLE_AUTHENTICATION_2 (%zu)", name, len, AUTH_HEADER_SIZE);
	length = get_le32(cert);
	memcpy(&type, cert + offsetof(WIN_CERTIFICATE_UEFI_GUID, CertType), sizeof(type));
	if (get_le16(cert + 4) != WIN_CERT_REVISION_2_0 || get_le16(cert + 6) != WIN_CERT_TYPE_EFI_GUID ||
	    !guid_equal(&type, &cert_type_pkcs7))
		return log_error_status(EFI_LOAD_ERROR, "%s: not a WIN_CERTIFICATE_UEFI_GUID of revision 2.0 "
					"holding a PKCS#7 signature", name);
	if (length < CERT_HEADER_SIZE || length > len - TIME_SIZE)
		return log_error_status(EFI_LOAD_ERROR, "%s: dwLength %u outside the file's %zu bytes", name,
					length, len);
	get_time(buf, &ret->time);
	ret->pkcs7 = cert + CERT_HEADER_SIZE;
	ret->pkcs7_len = length - CERT_HEADER_SIZE;
	ret->data = cert + length;
	ret->data_len = len - TIME_SIZE - length;
	return EFI_SUCCESS;
}
