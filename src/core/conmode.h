/* loader.conf's console-mode and the LoaderConfigConsoleMode variable, as
 * systemd-boot reads them (loader.conf(5) "console-mode"): which text mode of
 * the firmware's Simple Text Output (UEFI 2.10 §12.4, QueryMode/SetMode) to
 * use. Pure: the firmware's answers come in as a struct cmode_screen. */
#ifndef CORE_CONMODE_H
#define CORE_CONMODE_H

#include "platform.h"

/* Besides mode numbers 0..CMODE_NUMBER_MAX: */
#define CMODE_KEEP (-1)    /* "keep": the firmware's mode (the default) */
#define CMODE_AUTO (-2)    /* "auto": cmode_target()'s heuristic */
#define CMODE_MAX (-3)     /* "max": the highest-numbered mode */
#define CMODE_NEXT (-4)    /* the menu's 'r': the mode after the current one */
#define CMODE_INVALID (-5) /* cmode_parse(): none of these */
#define CMODE_NUMBER_MAX INT32_MAX

/* What the firmware's console says (Mode->Mode, Mode->MaxMode, which of
 * modes 0..63 QueryMode() accepts, the size of the current one) and the
 * GOP's resolution (0x0 without one). */
struct cmode_screen {
	int32_t mode, max_mode;
	uint64_t valid;          /* bit N: QueryMode(N) succeeded */
	uint32_t cols, rows;
	uint32_t gop_width, gop_height;
};
#define CMODE_VALID_BITS 64

/**
 * cmode_parse() - a console-mode value: "0".."2147483647", "auto", "max" or
 * "keep", as loader.conf and LoaderConfigConsoleMode (a decimal number) give it.
 * Return: the mode number or CMODE_AUTO/MAX/KEEP; CMODE_INVALID otherwise.
 */
int32_t cmode_parse(const char *s);

/**
 * cmode_target() - the mode number to set for @request (a mode number or
 * CMODE_KEEP/AUTO/MAX/NEXT) on @screen. "keep" keeps the current mode, or
 * takes 0 when the firmware reports none (Mode < 0); "next" the next mode
 * QueryMode() accepts, after the last one 0 (a firmware may offer mode 2
 * but not 1, which does not fit its screen); "max" the highest it accepts;
 * "auto" keeps a mode whose text fills at least a tenth of a screen larger
 * than 1920x1080 (with the firmware's 8x19 glyphs) and else takes mode 2, 1
 * or 0, the first it accepts, as systemd-boot does.
 * Return: the mode number, or -1 when there is none to set (no modes).
 */
int32_t cmode_target(int32_t request, const struct cmode_screen *screen);

#endif
