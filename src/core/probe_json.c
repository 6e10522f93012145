/* The probe's one output line, `HANDOFF-PROBE {json}` (docs/probe.md):
 * the fields the tests read, then extra detail (addresses, header
 * fields seen, setup_data types). Strings are escaped to printable ASCII so
 * the line survives any serial capture. */
#include "probe_check.h"
#include "fmt.h"

struct jout {
	char *buf;
	size_t size, len;
};

static void put(struct jout *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct jout *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->len < o->size ? o->size - o->len : 0;

	va_start(ap, fmt);
	o->len += fmt_vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
}

/* RFC 8259 §7: quote, backslash and control characters escaped; bytes
 * outside printable ASCII as \u00XX too. */
static void put_string(struct jout *o, const char *s)
{
	put(o, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			put(o, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			put(o, "\\u%04x", ch);
		else
			put(o, "%c", ch);
	}
	put(o, "\"");
}

static const char *screen_name(uint8_t video_type)
{
	switch (video_type) {
	case VIDEO_TYPE_EFI:
		return "efi";
	case VIDEO_TYPE_VLFB:
		return "vesa";
	case 0:
		return "none";
	}
	return "other";
}

static void put_errors(struct jout *o, uint32_t errors)
{
	bool first = true;

	put(o, "\"errors\":[");
	for (unsigned e = 0; e < PROBE_ERR__MAX; e++) {
		if (!(errors & (1u << e)))
			continue;
		put(o, "%s\"%s\"", first ? "" : ",", probe_error_name((enum probe_error)e));
		first = false;
	}
	put(o, "]");
}

static void put_details(struct jout *o, const struct probe_report *r)
{
	put(o, ",\"version\":\"%#x\",\"type_of_loader\":\"%#x\",\"loadflags\":\"%#x\",\"secure_boot\":%u", r->version,
	    r->type_of_loader, r->loadflags, r->secure_boot);
	put(o, ",\"kernel_addr\":\"%#llx\",\"boot_params\":\"%#llx\",\"initrd_addr\":\"%#llx\"",
	    (unsigned long long)r->kernel_addr, (unsigned long long)r->bp_addr, (unsigned long long)r->initrd_addr);
	put(o, ",\"relocatable\":%s,\"pref_address\":\"%#llx\"", r->fixed ? "false" : "true",
	    (unsigned long long)r->pref_address);
	put(o, ",\"efi_systab_revision\":\"%#x\",\"fw_bits\":%u,\"video_type\":\"%#x\",\"cmdline_truncated\":%s",
	    r->efi_systab_revision, r->fw_bits, r->video_type, r->cmdline_truncated ? "true" : "false");
	if (r->hdr_mismatch_at)
		put(o, ",\"hdr_mismatch_at\":\"%#x\"", r->hdr_mismatch_at);
	if (r->rng_seed)
		put(o, ",\"rng_seed\":%u,\"rng_seed_sha256\":\"%s\"", r->rng_seed_size, r->rng_seed_sha256);
	put(o, ",\"setup_data\":[");
	for (unsigned i = 0; i < r->n_setup_data; i++)
		put(o, "%s%u", i ? "," : "", r->setup_data_types[i]);
	put(o, "]");
}

size_t probe_report_json(const struct probe_report *r, char *buf, size_t size)
{
	struct jout o = { .buf = buf, .size = size };

	if (size)
		buf[0] = '\0';
	put(&o, "HANDOFF-PROBE {\"entry\":\"%s\",\"cmdline\":", probe_entry_name(r->entry));
	put_string(&o, r->cmdline);
	put(&o, ",\"initrd_size\":%llu,\"initrd_sha256\":\"%s\"", (unsigned long long)r->initrd_size, r->initrd_sha256);
	put(&o, ",\"e820\":%u,\"efi_systab\":%s,\"efi_memmap\":%u,\"efi_sig\":", r->e820_entries,
	    r->efi_systab ? "true" : "false", r->efi_memmap);
	put_string(&o, r->efi_sig);
	put(&o, ",\"screen\":\"%s\",", screen_name(r->video_type));
	put_errors(&o, r->errors);
	put_details(&o, r);
	put(&o, "}");
	return o.len;
}
