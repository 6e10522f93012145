/* console-mode (loader.conf(5)) and LoaderConfigConsoleMode (the Boot Loader
 * Interface): the value's forms and which text mode each one means, as
 * systemd-boot chooses it. UEFI 2.10 §12.4: mode 0 is 80x25, mode 1 80x50
 * where supported, modes from 2 on are the firmware's own; MaxMode counts them. */
#include "conmode.h"
#include "conf_line.h"

/* systemd-boot's "auto": a screen up to Full HD is fine as it is; above it,
 * a text area less than a tenth of the screen (in the firmware's 8x19 glyphs,
 * EDK2's) is too small to read. */
#define AUTO_OK_WIDTH 1920u
#define AUTO_OK_HEIGHT 1080u
#define FW_GLYPH_AREA (8u * 19u)
#define AUTO_AREA_RATIO 10u
#define MODE_80_50 1
#define MODE_FIRMWARE_FIRST 2

int32_t cmode_parse(const char *s)
{
	static const char *const words[] = {"keep", "auto", "max"};
	struct conf_kv kv = { .value = s, .value_len = strlen(s) };
	uint64_t n;

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(s, words[i]))
			return -1 - (int32_t)i;
	return conf_parse_uint(&kv, CMODE_NUMBER_MAX, &n) ? (int32_t)n : CMODE_INVALID;
}

static bool auto_keeps(const struct cmode_screen *s)
{
	uint64_t screen = (uint64_t)s->gop_width * s->gop_height;
	uint64_t text = (uint64_t)FW_GLYPH_AREA * MIN(s->cols, 0xffffu) * MIN(s->rows, 0xffffu);

	if (!screen)
		return false;
	if (s->gop_width <= AUTO_OK_WIDTH && s->gop_height <= AUTO_OK_HEIGHT)
		return true;
	return text && screen < AUTO_AREA_RATIO * text; /* "screen / text < 10" without a division */
}

static bool valid(const struct cmode_screen *s, int32_t m)
{
	return m >= 0 && m < s->max_mode && (m >= CMODE_VALID_BITS || (s->valid >> m & 1));
}

/* The first mode from @m on, going by @step, that the firmware accepts; 0
 * when there is none (UEFI 2.10 §12.4: every device supports mode 0). */
static int32_t valid_from(const struct cmode_screen *s, int32_t m, int step)
{
	for (; m >= 0 && m < s->max_mode; m += step)
		if (valid(s, m))
			return m;
	return 0;
}

int32_t cmode_target(int32_t request, const struct cmode_screen *s)
{
	if (s->max_mode <= 0)
		return -1;
	switch (request) {
	case CMODE_KEEP:
		return s->mode < 0 ? 0 : s->mode;
	case CMODE_NEXT:
		return s->mode == INT32_MAX ? 0 : valid_from(s, s->mode + 1, 1);
	case CMODE_MAX:
		return valid_from(s, s->max_mode - 1, -1);
	case CMODE_AUTO:
		if (s->mode >= 0 && auto_keeps(s))
			return s->mode;
		return valid(s, MODE_FIRMWARE_FIRST) ? MODE_FIRMWARE_FIRST : valid(s, MODE_80_50) ? MODE_80_50 : 0;
	default:
		return request < 0 ? -1 : request;
	}
}
