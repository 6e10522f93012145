/* The text mode of the menu's console, as systemd-boot sets it (loader.conf(5)
 * "console-mode", the menu's 'r' and 'R'): loader.conf's mode, or the one the
 * LoaderConfigConsoleMode variable saved, set with ConOut->SetMode (UEFI 2.10
 * §12.4); then the loader's own drawing on screens wider than Full HD. */
#include "loader.h"
#include "loader_vars.h"
#include "boot.h"
#include "core/conmode.h"
#include "core/fmt.h"
#include <efi/proto/simple_text_out.h>

#define VAR_NAME u"LoaderConfigConsoleMode"

static int32_t initial_mode;         /* the firmware's, for 'R' without console-mode */
static int32_t conf = CMODE_KEEP;    /* loader.conf's console-mode */
static int32_t var_mode = CMODE_KEEP; /* what LoaderConfigConsoleMode says (keep: unset) ... */
static int32_t var_saved = CMODE_KEEP; /* ... and what it said when read */
static char status[32];

static int32_t conf_mode(const struct loader *l)
{
	const char *s = l->cfg.console_mode;
	int32_t m = s ? cmode_parse(s) : CMODE_KEEP;

	if (m != CMODE_INVALID)
		return m;
	log_warning("loader.conf: console-mode %s: not a number, auto, max or keep", s);
	return CMODE_KEEP;
}

/* Sets the mode @request means; when the firmware refuses, back to the
 * mode it had (systemd-boot's change_mode()). */
static EFI_STATUS set_mode(int32_t request)
{
	SIMPLE_TEXT_OUTPUT_MODE *m = ST->ConOut->Mode;
	struct cmode_screen s = { .mode = m->Mode, .max_mode = m->MaxMode };
	struct fb_info fb;
	UINTN cols = 0, rows = 0;
	int32_t target;
	EFI_STATUS err;

	if (gop_framebuffer(&fb))
		s.gop_width = fb.width, s.gop_height = fb.height;
	for (int32_t i = 0; i < MIN(m->MaxMode, CMODE_VALID_BITS); i++)
		if (ST->ConOut->QueryMode(ST->ConOut, (UINTN)i, &cols, &rows) == EFI_SUCCESS) {
			s.valid |= 1ull << i;
			if (i == m->Mode)
				s.cols = (uint32_t)cols, s.rows = (uint32_t)rows;
		}
	target = cmode_target(request, &s);
	if (target < 0) /* no modes at all: nothing to keep */
		return request == CMODE_KEEP ? EFI_SUCCESS : EFI_UNSUPPORTED;
	if (target == s.mode)
		return EFI_SUCCESS;
	err = ST->ConOut->SetMode(ST->ConOut, (UINTN)target);
	if (EFI_ERROR(err))
		ST->ConOut->SetMode(ST->ConOut, s.mode < 0 ? 0 : (UINTN)s.mode);
	return err;
}

void menu_console_start(const struct loader *l)
{
	static bool started;
	EFI_STATUS err;

	if (!started) {
		_cleanup_free_ char *v = loader_var_get_str(VAR_NAME);
		int32_t m = v ? cmode_parse(v) : CMODE_KEEP;

		started = true;
		initial_mode = ST->ConOut->Mode->Mode;
		conf = conf_mode(l);
		if (m >= 0)
			var_mode = var_saved = m;
	}
	err = set_mode(var_mode != CMODE_KEEP ? var_mode : conf);
	con_graphics_start();
	if (EFI_ERROR(err))
		log_error_status(err, "cannot set the console mode: %m");
}

const char *menu_console_key(CHAR16 c)
{
	EFI_STATUS err;

	if (c == 'r') {
		err = set_mode(CMODE_NEXT);
		if (!EFI_ERROR(err))
			var_mode = ST->ConOut->Mode->Mode;
	} else if (c == 'R') {
		var_mode = CMODE_KEEP;
		err = set_mode(conf == CMODE_KEEP ? initial_mode : conf);
	} else {
		return NULL;
	}
	con_graphics_start();
	fmt_snprintf(status, sizeof(status), EFI_ERROR(err) ? "Console mode %d kept." : "Console mode %d.",
		     ST->ConOut->Mode->Mode);
	return status;
}

void menu_console_save(void)
{
	char s[12];

	if (var_mode == var_saved)
		return;
	var_saved = var_mode;
	if (var_mode == CMODE_KEEP) {
		loader_var_delete(VAR_NAME);
		return;
	}
	fmt_snprintf(s, sizeof(s), "%d", var_mode); /* systemd's efivar_set_uint_string(): decimal UCS-2 */
	loader_var_set_str_attr(VAR_NAME, s, VAR_NON_VOLATILE);
}
