/* libFuzzer target for `handoff inspect`: the core parsers it drives
 * (image_identify, bz_parse, pe_parse, uki_parse, osrel_parse) plus the
 * tool's own checks and both renderers (linked from the Makefile's
 * FUZZ_TOOL_SRCS). Beyond not crashing, the JSON must be valid UTF-8 without
 * raw control characters, and the text report must be printable ASCII lines;
 * pe_same_image() (install and update compare loaders with it) is symmetric. */
#include "tool/inspect.h"
#include "tool/pe_sig.h"
#include "core/str16.h"

static size_t utf8_seq(const uint8_t *s, size_t n)
{
	uint32_t cp;

	return utf8_decode(s, n, &cp);
}

static void check_json(const struct strbuf *sb)
{
	const uint8_t *s = (const uint8_t *)sb_str(sb);

	for (size_t i = 0; i < sb->len;) {
		size_t l = utf8_seq(s + i, sb->len - i);
		if (l == 0 || (s[i] < 0x20 && s[i] != '\n'))
			__builtin_trap();
		i += l;
	}
}

static void check_text(const struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++) {
		uint8_t c = (uint8_t)sb->buf[i];
		if ((c < 0x20 && c != '\n') || c >= 0x7f)
			__builtin_trap();
	}
}

/* pe_same_image() gives the same answer whichever image comes first. */
static void check_same_image(const uint8_t *data, size_t size)
{
	bool self = pe_same_image(data, size, data, size);
	size_t cut = size > 16 ? size - 16 : 0;

	if (self != pe_same_image(data, size, data, size))
		__builtin_trap();
	if (pe_same_image(data, size, data, cut) != pe_same_image(data, cut, data, size))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inspect_result r;
	struct strbuf json = { 0 }, text = { 0 };

	if (inspect_image(data, size, "fuzz", &r) == EFI_SUCCESS) {
		inspect_render_json(&r, &json);
		inspect_render_text(&r, &text);
		check_json(&json);
		check_text(&text);
	}
	inspect_result_free(&r);
	check_same_image(data, size);
	sb_free(&json);
	sb_free(&text);
	return 0;
}
