/* The loader's own text screen (src/core/gterm.c): when it is used, what
 * writing does to the cells, and the exact pixels a row renders to, with the
 * build's font (console-setup's Uni2-Fixed16). */
#include "test.h"
#include "core/gterm.h"
#include <stdlib.h>

#define WHITE_ON_BLUE 0x1f
#define FG 0xffffff /* EFI_WHITE */
#define BG 0x0000aa /* EFI_BLUE */

/* 'A' and 'b' (not symmetric: which way a glyph's bits go) of
 * Uni2-Fixed16, as its PSF file has them. */
static const char *const glyph_a[16] = {
	"........", "........", "........", "........", "...##...", "..#..#..", "..#..#..", ".#....#.",
	".#....#.", ".######.", ".#....#.", ".#....#.", ".#....#.", ".#....#.", "........", "........",
};
static const char *const glyph_b[16] = {
	"........", "........", "........", ".#......", ".#......", ".#......", ".#.###..", ".##...#.",
	".#....#.", ".#....#.", ".#....#.", ".#....#.", ".##...#.", ".#.###..", "........", "........",
};

static struct gterm make(uint32_t w, uint32_t h, uint32_t scale)
{
	struct gterm t;

	CHECK(gterm_init(&t, w, h, scale));
	t.cells = calloc(gterm_cells(&t), sizeof(*t.cells));
	gterm_clear(&t);
	t.dirty_lo = t.dirty_hi = 0;
	return t;
}

static const char *row_text(const struct gterm *t, uint32_t row)
{
	static char buf[64];

	for (uint32_t i = 0; i < t->cols && i < sizeof(buf) - 1; i++)
		buf[i] = (char)(t->cells[row * t->cols + i] & 0xff);
	buf[MIN(t->cols, sizeof(buf) - 1)] = '\0';
	return buf;
}

static void put(struct gterm *t, const char *s)
{
	while (*s)
		gterm_putc(t, (uint8_t)*s++);
}

TEST(gterm_scale_by_screen)
{
	CHECK_EQ(gterm_scale(1920, 1080), 0); /* the firmware's own text */
	CHECK_EQ(gterm_scale(1280, 800), 0);
	CHECK_EQ(gterm_scale(1921, 1080), 2);
	CHECK_EQ(gterm_scale(2560, 1440), 2);
	CHECK_EQ(gterm_scale(3840, 2160), 3); /* 24x48 cells: 160x45 */
	CHECK_EQ(gterm_scale(3840, 1080), 2); /* too low for 3x: 33 rows at 2x */
	CHECK_EQ(gterm_scale(5120, 2880), 4);
	CHECK_EQ(gterm_scale(7680, 4320), 4);
}

TEST(gterm_grid_size)
{
	struct gterm t;

	CHECK(gterm_init(&t, 3840, 2160, 3));
	CHECK_EQ(t.cols, 160);
	CHECK_EQ(t.rows, 45);
	CHECK_EQ(gterm_cells(&t), 7200);
	CHECK_EQ(gterm_row_pixels(&t), 3840 * 48);
	CHECK(gterm_init(&t, 2561, 1441, 2));
	CHECK_EQ(t.cols, 160);
	CHECK_EQ(t.rows, 45);
	CHECK(!gterm_init(&t, 15, 2160, 2)); /* not one cell */
	CHECK(!gterm_init(&t, 3840, 2160, 0));
	CHECK(!gterm_init(&t, 16385, 2160, 2)); /* a firmware's nonsense */
	CHECK(!gterm_init(&t, UINT32_MAX, UINT32_MAX, 4));
}

TEST(gterm_writes_like_a_console)
{
	struct gterm t = make(6 * 8 * 2, 3 * 16 * 2, 2); /* 6x3 */

	put(&t, "ab\rX\n");
	CHECK_STR(row_text(&t, 0), "Xb    ");
	CHECK_EQ(t.x, 1); /* "\n" alone moves down only */
	CHECK_EQ(t.y, 1);
	CHECK_EQ(t.dirty_lo, 0);
	CHECK_EQ(t.dirty_hi, 1);
	put(&t, "\r123456789");
	CHECK_STR(row_text(&t, 1), "123456");
	CHECK_STR(row_text(&t, 2), "789   ");
	put(&t, "\b\bz\xc3\t");
	CHECK_STR(row_text(&t, 2), "7z??  ");
	CHECK_EQ(t.dirty_hi, 3);
	t.dirty_lo = t.dirty_hi = 0;
	put(&t, "\r\nlast"); /* scrolls: every row again */
	CHECK_STR(row_text(&t, 0), "123456");
	CHECK_STR(row_text(&t, 1), "7z??  ");
	CHECK_STR(row_text(&t, 2), "last  ");
	CHECK_EQ(t.dirty_lo, 0);
	CHECK_EQ(t.dirty_hi, 3);
	put(&t, "\r\n"); /* scrolls again: the last row blank */
	CHECK_STR(row_text(&t, 1), "last  ");
	t.dirty_lo = t.dirty_hi = 0;
	gterm_clear(&t);
	CHECK_STR(row_text(&t, 0), "      ");
	CHECK_STR(row_text(&t, 1), "      ");
	CHECK_EQ(t.dirty_lo, 0); /* rows 0 and 1 change, blank row 2 does not */
	CHECK_EQ(t.dirty_hi, 2);
	t.dirty_lo = t.dirty_hi = 0;
	gterm_clear(&t); /* all blank already: nothing to render */
	CHECK_EQ(t.dirty_hi, 0);
	t.attr = WHITE_ON_BLUE; /* new colours: every row */
	gterm_clear(&t);
	CHECK_EQ(t.dirty_hi, 3);
	CHECK_STR(row_text(&t, 2), "      ");
	CHECK_EQ(t.cells[17], ' ' | WHITE_ON_BLUE << 8);
	CHECK_EQ(t.x, 0);
	CHECK_EQ(t.y, 0);
	put(&t, "\b"); /* stays at the left edge */
	CHECK_EQ(t.x, 0);
	free(t.cells);
}

/* "A " in white on blue at 3x: every glyph pixel a 3x3 block, the blank
 * cell all background. */
TEST(gterm_renders_exact_pixels)
{
	struct gterm t = make(2 * 8 * 3, 16 * 3, 3);
	size_t n = gterm_row_pixels(&t);
	uint32_t *px = malloc(n * sizeof(*px));
	unsigned wrong = 0;

	CHECK_EQ(n, 48 * 48);
	t.attr = WHITE_ON_BLUE;
	put(&t, "A ");
	memset(px, 0xee, n * sizeof(*px));
	gterm_render_row(&t, 0, px);
	for (uint32_t y = 0; y < 48; y++)
		for (uint32_t x = 0; x < 48; x++) {
			uint32_t want = x < 24 && glyph_a[y / 3][x / 3] == '#' ? FG : BG;

			wrong += px[y * 48 + x] != want;
		}
	CHECK_EQ(wrong, 0);
	CHECK_EQ(px[4 * 3 * 48 + 3 * 3], FG);     /* the apex's left pixel, top-left of its block */
	CHECK_EQ(px[(4 * 3 + 2) * 48 + 3 * 3 + 2], FG);
	CHECK_EQ(px[4 * 3 * 48 + 3 * 3 - 1], BG); /* just left of it */
	free(px);
	free(t.cells);
}

/* The default colours (light grey on black), a second row of a grid, 'b'. */
TEST(gterm_renders_second_row_in_console_colours)
{
	struct gterm t = make(8 * 2, 2 * 16 * 2, 2);
	size_t n = gterm_row_pixels(&t);
	uint32_t *px = calloc(n, sizeof(*px));
	unsigned lit = 0, wrong = 0;

	put(&t, "\nb");
	gterm_render_row(&t, 0, px); /* row 0: blank */
	for (size_t i = 0; i < n; i++)
		wrong += px[i] != 0;
	gterm_render_row(&t, 1, px);
	for (uint32_t y = 0; y < 32; y++)
		for (uint32_t x = 0; x < 16; x++) {
			bool on = glyph_b[y / 2][x / 2] == '#';

			wrong += px[y * 16 + x] != (on ? 0xaaaaaau : 0);
			lit += on;
		}
	CHECK_EQ(wrong, 0);
	CHECK_EQ(lit, 25 * 4); /* 'b' has 25 pixels */
	free(px);
	free(t.cells);
}
