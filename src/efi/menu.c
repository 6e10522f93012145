/* The text menu on the firmware console (mirrored to serial by OVMF): arrow
 * keys, Enter, digits, a countdown that any key stops, 'e' to edit the command
 * line when loader.conf says "editor yes" (after its editor-password, when it
 * sets one). Key codes: UEFI 2.10 §12.3. */
#include "loader.h"
#include "core/fmt.h"
#include "core/pbkdf2.h"
#include <efi/proto/simple_text_in.h>
#include <efi/proto/simple_text_out.h>

#define EDIT_MAX 4096
#define PASSWORD_WAIT_MAX_SHIFT 5 /* a wrong password waits 1, 2, 4 ... 32 s */
#define MAX_SHOWN 20
#define ONE_SECOND_US 1000000u

static void draw(const struct loader *l, size_t sel, uint32_t countdown, const char *status)
{
	const char *problems[8];
	size_t more, n_problems = con_problems(problems, ARRAY_SIZE(problems), &more);
	size_t first = sel >= MAX_SHOWN ? sel - MAX_SHOWN + 1 : 0;

	con_clear();
	con_print("handoff %s boot menu\n\n", HANDOFF_VERSION);
	for (size_t i = first; i < l->n_entries && i < first + MAX_SHOWN; i++) {
		_cleanup_free_ char *title = bls_display_title(l->entries[i]);
		if (i == sel)
			con_set_color(EFI_TEXT_ATTR(EFI_BLACK, EFI_LIGHTGRAY));
		con_print("%s %s\n", i == sel ? ">" : " ", title ? title : l->entries[i]->id);
		if (i == sel)
			con_set_color(EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	}
	con_print("\n");
	if (countdown != CFG_TIMEOUT_UNSET)
		con_print("Boot in %u s. ", countdown);
	con_print("Up/Down select, Enter boot%s, Esc exit.\n", l->editor ? ", e edit" : "");
	if (status)
		con_print("%s\n", status);
	for (size_t i = 0; i < n_problems; i++)
		con_print("%s%s\n", i ? "  " : "\nProblems: ", problems[i]);
	if (more)
		con_print("  (%zu more above)\n", more);
}

/* Where the UTF-8 sequence before @len (> 0) starts, so that an edit or a
 * cut never leaves half a character (the line must stay well-formed UTF-8:
 * cmdline_forms_make() refuses anything else). */
static size_t utf8_back(const char *buf, size_t len)
{
	do
		len--;
	while (len > 0 && ((uint8_t)buf[len] & 0xc0) == 0x80);
	return len;
}

/* Reads a line into @buf (@max bytes with the NUL; it starts with what @buf
 * holds), shown after "@prompt: " unless @hide; Enter ends it. Typed
 * characters are printable ASCII, so the line stays well-formed UTF-8.
 * Return: false when cancelled with Esc. */
static bool read_line(const char *prompt, char *buf, size_t max, bool hide)
{
	size_t len = strlen(buf);
	EFI_INPUT_KEY key;

	for (;;) {
		con_print("\r%s: %s \b", prompt, hide ? "" : buf);
		if (con_read_key(0, &key) != EFI_SUCCESS)
			continue;
		if (key.ScanCode == SCAN_ESC)
			return false;
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN || key.UnicodeChar == CHAR_LINEFEED)
			break;
		if (key.UnicodeChar == CHAR_BACKSPACE && len > 0) {
			len = utf8_back(buf, len);
			buf[len] = '\0';
			con_print(hide ? "" : "\b \b");
		} else if (key.UnicodeChar >= 0x20 && key.UnicodeChar < 0x7f && len + 1 < max) {
			buf[len++] = (char)key.UnicodeChar;
			buf[len] = '\0';
		}
	}
	con_print("\n");
	return true;
}

/* Line editor for the command line; NULL when cancelled with Esc. */
static char *edit_cmdline(const char *initial)
{
	char *buf = mem_alloc(EDIT_MAX);
	size_t len = strlen(initial);

	if (!buf)
		return NULL;
	if (len >= EDIT_MAX)
		len = utf8_back(initial, EDIT_MAX);
	memcpy(buf, initial, len);
	buf[len] = '\0';
	if (read_line("options", buf, EDIT_MAX, /* hide= */ false))
		return buf;
	mem_free(buf);
	return NULL;
}

/* timeout 0 boots at once, unless a key is already waiting (README "Configuration": timeout). */
static bool key_pending(void)
{
	EFI_INPUT_KEY key;

	return ST->ConIn->ReadKeyStroke(ST->ConIn, &key) == EFI_SUCCESS;
}

/* loader.conf's editor-password, when set, is asked for (not shown); a wrong
 * one waits 1, 2, 4 ... 32 s, longer each time this boot, keys typed meanwhile
 * dropped. The typed password is wiped once checked. */
static bool editor_unlock(struct loader *l)
{
	char pw[CFG_PW_LEN_MAX + 1] = "";
	uint32_t wait_sec = 1u << MIN(l->editor_failures, PASSWORD_WAIT_MAX_SHIFT);
	bool typed, ok;

	if (!l->cfg.editor_password.set)
		return true;
	typed = read_line("Password", pw, sizeof(pw), /* hide= */ true);
	ok = typed && cfg_password_check(&l->cfg.editor_password, pw, strlen(pw));
	mem_wipe(pw, sizeof(pw));
	if (ok || !typed)
		return ok;
	l->editor_failures++;
	con_print("Wrong password, wait %u s.\n", wait_sec);
	BS->Stall(wait_sec * ONE_SECOND_US);
	while (key_pending())
		;
	return false;
}

static uint32_t initial_countdown(const struct loader *l)
{
	uint32_t t = l->cfg.timeout_sec;

	if (l->force_menu || t == CFG_TIMEOUT_MENU_FORCE)
		return CFG_TIMEOUT_UNSET; /* no countdown: wait for the user */
	return t == CFG_TIMEOUT_UNSET ? 0 : t;
}

static size_t menu_run(struct loader *l, uint32_t countdown, char **ret_cmdline)
{
	size_t sel = l->default_idx;
	const char *status = NULL;
	EFI_INPUT_KEY key;

	for (;;) {
		EFI_STATUS err;

		draw(l, sel, countdown, status);
		err = con_read_key(countdown == CFG_TIMEOUT_UNSET ? 0 : ONE_SECOND_US, &key);
		if (err == EFI_TIMEOUT) {
			if (--countdown == 0) {
				l->unattended = true;
				return sel;
			}
			continue;
		}
		countdown = CFG_TIMEOUT_UNSET; /* any key stops the countdown */
		if (EFI_ERROR(err))
			continue;
		if (key.ScanCode == SCAN_UP && sel > 0)
			sel--;
		else if (key.ScanCode == SCAN_DOWN && sel + 1 < l->n_entries)
			sel++;
		else if (key.ScanCode == SCAN_HOME)
			sel = 0;
		else if (key.ScanCode == SCAN_END)
			sel = l->n_entries - 1;
		else if (key.UnicodeChar >= '1' && key.UnicodeChar <= '9' &&
			 (size_t)(key.UnicodeChar - '1') < l->n_entries)
			return key.UnicodeChar - '1';
		else if (key.UnicodeChar == CHAR_CARRIAGE_RETURN || key.UnicodeChar == CHAR_LINEFEED)
			return sel;
		else if (key.ScanCode == SCAN_ESC || key.UnicodeChar == 'q')
			return MENU_EXIT;
		else if ((status = menu_console_key(key.UnicodeChar)))
			continue;
		else if (key.UnicodeChar == 'e' && l->editor) {
			const struct bls_entry *e = l->entries[sel];

			if (l->secure_boot && e->uki_cmdline) {
				log_warning("'%s': Secure Boot locks the command line of this unified kernel image",
					    e->id);
				continue;
			}
			if (!editor_unlock(l))
				continue;
			*ret_cmdline = edit_cmdline(e->options ? e->options : "");
			if (*ret_cmdline)
				return sel;
		}
	}
}

size_t menu_choose(struct loader *l, char **ret_cmdline)
{
	uint32_t countdown = initial_countdown(l);
	size_t idx;

	*ret_cmdline = NULL;
	l->unattended = false;
	if (l->n_entries == 0) {
		log_error("no boot entries: nothing in \\loader\\entries\\*.conf or \\EFI\\Linux\\*.efi");
		con_pause_before_exit();
		return MENU_EXIT;
	}
	if (countdown == 0 && !key_pending()) {
		l->unattended = true;
		return l->default_idx;
	}
	menu_console_start(l);
	idx = menu_run(l, countdown == 0 ? CFG_TIMEOUT_UNSET : countdown, ret_cmdline);
	menu_console_save();
	return idx;
}
