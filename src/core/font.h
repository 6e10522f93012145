/* The loader's own 8x16 bitmap font: printable ASCII, one byte a pixel row,
 * the leftmost pixel in bit 7 (the PSF console fonts' layout). The glyphs are
 * generated at build time from console-setup's Uni2-Fixed16 (scripts/mkfont.py). */
#ifndef CORE_FONT_H
#define CORE_FONT_H

#include "platform.h"

#define FONT_WIDTH 8
#define FONT_HEIGHT 16

/**
 * font_glyph() - the FONT_HEIGHT rows of code point @c; '?' for anything
 * outside U+0020..U+007E.
 */
const uint8_t *font_glyph(uint32_t c);

#endif
