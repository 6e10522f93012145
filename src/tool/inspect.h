/* What `handoff inspect` reports about an image, gathered by the same core
 * parsers the loader uses, and rendered as text or JSON into a buffer (so the
 * renderers can be fuzzed without a file system). */
#ifndef TOOL_INSPECT_H
#define TOOL_INSPECT_H

#include "core/osrel.h"
#include "core/plan.h"
#include "core/uki.h"
#include "tool.h"

enum inspect_format { INSPECT_BZIMAGE, INSPECT_PE, INSPECT_UKI };

/* A section of a unified kernel image, located in the file. */
struct inspect_blob {
	const uint8_t *data;
	size_t size;
	bool present;
};

/* One profile of a multi-profile UKI, as the stub boots it (uki_parse_profile()). */
struct inspect_profile {
	struct inspect_blob cmdline;
	struct osrel info;         /* its .profile: ID=, TITLE= */
};

struct inspect_result {
	const char *name;
	size_t file_size;
	enum inspect_format format;
	struct image_info img;     /* the file itself: schemes come from here */
	bool has_kernel;           /* bz below is valid (the file, or a UKI's .linux) */
	bool arm64_image;          /* an arm64 kernel Image: its header's magic (the PE/COFF one's machine: img.pe) */
	struct bz_info bz;
	bool is_signed;            /* Authenticode: a WIN_CERT_TYPE_PKCS_SIGNED_DATA certificate */
	struct inspect_blob sbat;
	struct inspect_blob kernel, initrd, ucode, cmdline, osrel, uname; /* UKI sections */
	bool linux_arm64;          /* the UKI's .linux is an arm64 Image (else a bzImage: bz) */
	bool handoff_stub;         /* the UKI's stub is handoff's (uki_stub_is_handoff()) */
	struct osrel os;           /* .osrel parsed (UKI) */
	struct inspect_profile *profiles; /* n_profiles (.profile sections): profile 0, 1, ... */
	uint32_t n_profiles;
};

/**
 * inspect_image() - identify and check @buf, and describe it in @ret.
 * Malformed input (a broken PE header behind "MZ", overlapping sections, a
 * bad certificate table, a UKI whose .linux is no bzImage) fails with one
 * logged line. Return: EFI_SUCCESS or EFI_LOAD_ERROR.
 */
EFI_STATUS inspect_image(const uint8_t *buf, size_t len, const char *name, struct inspect_result *ret);

/** inspect_result_free() - free what inspect_image() allocated (safe after a failure). */
void inspect_result_free(struct inspect_result *r);

/** inspect_render_json() - the JSON object of @r (keys as in docs/handoff.1). */
void inspect_render_json(const struct inspect_result *r, struct strbuf *out);
/** inspect_render_text() - the human-readable report of @r. */
void inspect_render_text(const struct inspect_result *r, struct strbuf *out);

/** inspect_format_name() - "bzImage", "pe" or "uki". */
const char *inspect_format_name(enum inspect_format f);

#endif
