/* A text screen the loader draws itself on a GOP framebuffer wider than Full
 * HD, where the firmware's 8x19 text is too small to read: a grid of cells
 * (what Simple Text Output's OutputString, ClearScreen and SetAttribute did
 * to it, UEFI 2.10 §12.4) rendered with font.h's glyphs scaled 2x to 4x,
 * into 32-bit pixels in EFI_GRAPHICS_OUTPUT_BLT_PIXEL's order (§12.9:
 * blue, green, red, reserved), a text row at a time. Pure: the caller Blt()s. */
#ifndef CORE_GTERM_H
#define CORE_GTERM_H

#include "platform.h"

struct gterm {
	uint32_t cols, rows, scale;
	uint32_t x, y;                /* the cursor */
	uint8_t attr;                 /* EFI_TEXT_ATTR(): foreground bits 0-3, background 4-6 */
	uint32_t dirty_lo, dirty_hi;  /* the rows to render again: [lo, hi) */
	uint16_t *cells;              /* cols * rows: the character, attr << 8 */
};

/**
 * gterm_scale() - how much to scale the font on a @width x @height screen:
 * 0 up to 1920 pixels wide (the firmware's text is readable there), else the
 * screen's size over 1280x720, 2 to 4 (3 at 3840x2160: 24x48-pixel cells).
 */
uint32_t gterm_scale(uint32_t width, uint32_t height);

/**
 * gterm_init() - a grid filling @width x @height at @scale, its cells not
 * yet set (@t->cells is the caller's, gterm_cells() of them; then
 * gterm_clear()). Return: false when not one cell fits, @scale is 0 or a
 * side is over 16384 pixels.
 */
bool gterm_init(struct gterm *t, uint32_t width, uint32_t height, uint32_t scale);

/** gterm_cells() - how many cells @t->cells must hold. */
static inline size_t gterm_cells(const struct gterm *t)
{
	return (size_t)t->cols * t->rows;
}

/** gterm_row_pixels() - the pixels one text row renders to (gterm_render_row(): 8x16 glyphs). */
static inline size_t gterm_row_pixels(const struct gterm *t)
{
	return (size_t)t->cols * 8 * 16 * t->scale * t->scale;
}

/**
 * gterm_clear() - every cell a blank in the current colours, the cursor
 * home; the rows to render again are those that were not all such blanks.
 */
void gterm_clear(struct gterm *t);

/**
 * gterm_putc() - write @c at the cursor as a text console does: '\r', '\n'
 * (scrolling at the last row), '\b'; printable ASCII, anything else as '?',
 * wrapping at the last column.
 */
void gterm_putc(struct gterm *t, uint32_t c);

/**
 * gterm_render_row() - text row @row into @px (gterm_row_pixels() of them:
 * cols * 8 * scale wide, 16 * scale high, rows packed).
 */
void gterm_render_row(const struct gterm *t, uint32_t row, uint32_t *px);

#endif
