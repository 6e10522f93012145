/* The glyph table of the loader's bitmap font (font.h), 95 glyphs of 16
 * bytes; the packed loader's LZMA stream compresses it with the code. */
#include "font.h"

#define FONT_FIRST 0x20
#define FONT_LAST 0x7e

static const uint8_t glyphs[FONT_LAST - FONT_FIRST + 1][FONT_HEIGHT] = {
#include "font8x16.h"
};

const uint8_t *font_glyph(uint32_t c)
{
	if (c < FONT_FIRST || c > FONT_LAST)
		c = '?';
	return glyphs[c - FONT_FIRST];
}
