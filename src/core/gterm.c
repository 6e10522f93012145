/* The loader's own text screen (gterm.h): cells written as a Simple Text
 * Output console writes them (UEFI 2.10 §12.4), rendered with the loader's
 * font, each pixel repeated scale x scale times. */
#include "gterm.h"
#include "font.h"

_Static_assert(FONT_WIDTH == 8 && FONT_HEIGHT == 16, "gterm_row_pixels()");

#define FULL_HD_WIDTH 1920u
#define SCALE_UNIT_W 1280u
#define SCALE_UNIT_H 720u
#define SCALE_MIN 2u
#define SCALE_MAX 4u
#define SIDE_MAX 16384u /* pixels: beyond any screen; a firmware saying more is wrong */
#define ATTR_FG(a) ((a) & 0x0f)
#define ATTR_BG(a) (((a) >> 4) & 0x07)

/* The sixteen EFI text colours (§12.4 EFI_BLACK .. EFI_WHITE) as the VGA
 * palette has them, 0x00RRGGBB: a BLT pixel read as a little-endian word. */
static const uint32_t palette[16] = {
	0x000000, 0x0000aa, 0x00aa00, 0x00aaaa, 0xaa0000, 0xaa00aa, 0xaa5500, 0xaaaaaa,
	0x555555, 0x5555ff, 0x55ff55, 0x55ffff, 0xff5555, 0xff55ff, 0xffff55, 0xffffff,
};

uint32_t gterm_scale(uint32_t width, uint32_t height)
{
	if (width <= FULL_HD_WIDTH)
		return 0;
	return MAX(SCALE_MIN, MIN(SCALE_MAX, MIN(width / SCALE_UNIT_W, height / SCALE_UNIT_H)));
}

bool gterm_init(struct gterm *t, uint32_t width, uint32_t height, uint32_t scale)
{
	if (!scale || width > SIDE_MAX || height > SIDE_MAX)
		return false;
	*t = (struct gterm){
		.cols = width / FONT_WIDTH / scale,
		.rows = height / FONT_HEIGHT / scale,
		.scale = scale,
		.attr = 0x07, /* EFI_LIGHTGRAY on EFI_BLACK, the console's start */
	};
	return t->cols && t->rows;
}

static void dirty(struct gterm *t, uint32_t lo, uint32_t hi)
{
	if (t->dirty_lo >= t->dirty_hi)
		t->dirty_lo = lo, t->dirty_hi = hi;
	t->dirty_lo = MIN(t->dirty_lo, lo);
	t->dirty_hi = MAX(t->dirty_hi, hi);
}

static void blank(struct gterm *t, size_t from, size_t n)
{
	for (size_t i = from; i < from + n; i++)
		t->cells[i] = ' ' | t->attr << 8;
}

/* Only the rows up to the last one not blank in the new colours change: a
 * menu redrawn every second renders its own rows, not the whole screen. */
void gterm_clear(struct gterm *t)
{
	size_t n = gterm_cells(t);

	while (n > 0 && t->cells[n - 1] == (' ' | t->attr << 8))
		n--;
	blank(t, 0, n);
	t->x = t->y = 0;
	if (n)
		dirty(t, 0, (uint32_t)((n - 1) / t->cols + 1));
}

static void newline(struct gterm *t)
{
	if (++t->y < t->rows)
		return;
	t->y = t->rows - 1;
	memmove(t->cells, t->cells + t->cols, (gterm_cells(t) - t->cols) * sizeof(*t->cells));
	blank(t, gterm_cells(t) - t->cols, t->cols);
	dirty(t, 0, t->rows);
}

void gterm_putc(struct gterm *t, uint32_t c)
{
	if (c == '\r') {
		t->x = 0;
	} else if (c == '\n') {
		newline(t);
	} else if (c == '\b') {
		t->x -= t->x > 0;
	} else {
		if (t->x >= t->cols) {
			t->x = 0;
			newline(t);
		}
		if (c < 0x20 || c > 0x7e)
			c = '?';
		t->cells[(size_t)t->y * t->cols + t->x++] = (uint16_t)(c | t->attr << 8);
		dirty(t, t->y, t->y + 1);
	}
}

void gterm_render_row(const struct gterm *t, uint32_t row, uint32_t *px)
{
	const uint16_t *cells = t->cells + (size_t)row * t->cols;
	size_t line = (size_t)t->cols * FONT_WIDTH * t->scale;

	for (uint32_t gy = 0; gy < FONT_HEIGHT; gy++) {
		uint32_t *out = px + gy * t->scale * line, *p = out;

		for (uint32_t cx = 0; cx < t->cols; cx++) {
			uint8_t bits = font_glyph(cells[cx] & 0xff)[gy], attr = cells[cx] >> 8;

			for (int bit = FONT_WIDTH - 1; bit >= 0; bit--) {
				uint32_t color = palette[bits >> bit & 1 ? ATTR_FG(attr) : ATTR_BG(attr)];

				for (uint32_t k = 0; k < t->scale; k++)
					*p++ = color;
			}
		}
		for (uint32_t k = 1; k < t->scale; k++)
			memcpy(out + k * line, out, line * sizeof(*out));
	}
}
