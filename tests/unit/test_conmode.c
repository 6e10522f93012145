/* console-mode: its forms (loader.conf(5), LoaderConfigConsoleMode) and the
 * mode each one picks on a given console, as systemd-boot picks it. */
#include "test.h"
#include "core/conmode.h"

TEST(conmode_parse_forms)
{
	CHECK_EQ(cmode_parse("0"), 0);
	CHECK_EQ(cmode_parse("1"), 1);
	CHECK_EQ(cmode_parse("2"), 2);
	CHECK_EQ(cmode_parse("17"), 17);
	CHECK_EQ(cmode_parse("2147483647"), CMODE_NUMBER_MAX);
	CHECK_EQ(cmode_parse("keep"), CMODE_KEEP);
	CHECK_EQ(cmode_parse("auto"), CMODE_AUTO);
	CHECK_EQ(cmode_parse("max"), CMODE_MAX);
	CHECK_EQ(cmode_parse("2147483648"), CMODE_INVALID);
	CHECK_EQ(cmode_parse("99999999999999999999999"), CMODE_INVALID);
	CHECK_EQ(cmode_parse(""), CMODE_INVALID);
	CHECK_EQ(cmode_parse("-1"), CMODE_INVALID);
	CHECK_EQ(cmode_parse("1x"), CMODE_INVALID);
	CHECK_EQ(cmode_parse("Max"), CMODE_INVALID);
	CHECK_EQ(cmode_parse(" 1"), CMODE_INVALID);
}

/* OVMF at 3840x2160 with a serial console: modes 0..3, 80x25 current. */
static const struct cmode_screen fourk = {
	.mode = 0, .max_mode = 4, .valid = 0xf, .cols = 80, .rows = 25, .gop_width = 3840, .gop_height = 2160,
};

TEST(conmode_numbers_keep_max_next)
{
	struct cmode_screen s = fourk;

	CHECK_EQ(cmode_target(1, &s), 1);
	CHECK_EQ(cmode_target(7, &s), 7); /* SetMode() says whether it exists */
	CHECK_EQ(cmode_target(CMODE_KEEP, &s), 0);
	CHECK_EQ(cmode_target(CMODE_MAX, &s), 3);
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 1);
	s.mode = 3;
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 0); /* 'r' wraps around */
	CHECK_EQ(cmode_target(CMODE_KEEP, &s), 3);
	s.mode = -1; /* no valid mode: keep and next take 0 */
	CHECK_EQ(cmode_target(CMODE_KEEP, &s), 0);
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 0);
	s.max_mode = 0; /* no modes at all: nothing to set */
	CHECK_EQ(cmode_target(CMODE_KEEP, &s), -1);
	CHECK_EQ(cmode_target(CMODE_MAX, &s), -1);
	CHECK_EQ(cmode_target(1, &s), -1);
	CHECK_EQ(cmode_target(CMODE_INVALID, &fourk), -1);
}

/* OVMF at 1280x800: 80x50 does not fit, QueryMode(1) fails. */
TEST(conmode_next_and_max_skip_modes_the_firmware_refuses)
{
	struct cmode_screen s = fourk;

	s.valid = 0xd;
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 2);
	s.mode = 2;
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 3);
	s.mode = 3;
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 0);
	s.valid = 0x7; /* the last mode refused */
	CHECK_EQ(cmode_target(CMODE_MAX, &s), 2);
	s.mode = 2;
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 0);
	s.valid = 0; /* QueryMode refuses all: 0 is every console's */
	CHECK_EQ(cmode_target(CMODE_MAX, &s), 0);
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 0);
	s.max_mode = 70, s.mode = 63, s.valid = 1; /* beyond the 64 bits known: taken as offered */
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 64);
	CHECK_EQ(cmode_target(CMODE_MAX, &s), 69);
	s.max_mode = INT32_MAX, s.mode = INT32_MAX - 1; /* no overflow at the top */
	CHECK_EQ(cmode_target(CMODE_NEXT, &s), 0);
}

TEST(conmode_auto)
{
	struct cmode_screen s = fourk;

	/* 80x25 of 8x19 is 1/27 of 4K: too small, the firmware's first own mode */
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 2);
	s.max_mode = 2;
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 1);
	s.max_mode = 1;
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 0);
	s.max_mode = 4, s.valid = 0xb; /* no mode 2: 80x50 */
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 1);
	s.valid = 0x9; /* neither 2 nor 1 */
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 0);
	/* 480x113 fills the screen: kept */
	s = fourk;
	s.mode = 3, s.cols = 480, s.rows = 113;
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 3);
	s.cols = 160, s.rows = 54; /* 8,294,400 / (8*19*160*54) = 6 */
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 3);
	s.cols = 100, s.rows = 54; /* a ratio of 10 is not "less than 10": changed */
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 2);
	/* Full HD and below: whatever the mode, kept */
	s = fourk;
	s.gop_width = 1920, s.gop_height = 1080, s.mode = 1;
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 1);
	s.gop_width = 2560, s.gop_height = 1440, s.mode = 0; /* 80x25 is 1/12 of it */
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 2);
	/* a firmware's nonsense text size counts as a large one, without overflow */
	s = fourk;
	s.cols = s.rows = UINT32_MAX;
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 0);
	/* no GOP: the fallback */
	s = fourk;
	s.gop_width = s.gop_height = 0;
	CHECK_EQ(cmode_target(CMODE_AUTO, &s), 2);
}
