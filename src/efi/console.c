/* Console: log lines and menu text on ConOut (OVMF mirrors it to the serial
 * port), or on the loader's own screen when it draws one (gfxcon.c); key
 * input with a timeout on ConIn. */
#include "firmware.h"
#include "core/fmt.h"
#include <efi/proto/simple_text_out.h>

#define CON_LINE_MAX 1024

/* gfxcon.c's screen while the loader draws the console; never in the stub. */
static const struct con_screen *screen;

void con_screen_set(const struct con_screen *s)
{
	screen = s;
}

static void con_out16(const CHAR16 *s)
{
	if (screen)
		screen->string(s);
	else
		ST->ConOut->OutputString(ST->ConOut, (CHAR16 *)s);
}

/* UTF-8 to the console, turning "\n" into "\r\n". */
static void con_write(const char *s)
{
	CHAR16 buf[CON_LINE_MAX];
	size_t n = 0;

	while (*s) {
		uint32_t c = utf8_next(&s);

		if (n + 3 >= ARRAY_SIZE(buf)) {
			buf[n] = 0;
			con_out16(buf);
			n = 0;
		}
		if (c == '\n')
			buf[n++] = '\r';
		buf[n++] = c > 0xffff ? 0xfffd : (CHAR16)c;
	}
	buf[n] = 0;
	con_out16(buf);
}

void con_print(const char *fmt, ...)
{
	char line[CON_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	con_write(line);
}

void con_clear(void)
{
	if (screen)
		screen->clear();
	else
		ST->ConOut->ClearScreen(ST->ConOut);
}

void con_set_color(unsigned attr)
{
	if (screen)
		screen->color(attr);
	else
		ST->ConOut->SetAttribute(ST->ConOut, attr);
}

/* The problems logged since the last con_forget_problems(), shown again under
 * the menu (which clears the screen). The first ones are kept: a failure is
 * logged where it happens, before any context, so they hold the cause. */
#define PROBLEMS_KEPT 8
#define PROBLEM_LEN 160
static char problems[PROBLEMS_KEPT][PROBLEM_LEN];
static size_t n_problems;

static void remember_problem(const char *line)
{
	if (n_problems < PROBLEMS_KEPT)
		fmt_snprintf(problems[n_problems], PROBLEM_LEN, "%s", line);
	n_problems++;
}

size_t con_problems(const char **ret, size_t max, size_t *ret_more)
{
	size_t n = MIN(n_problems, MIN(max, (size_t)PROBLEMS_KEPT));

	for (size_t i = 0; i < n; i++)
		ret[i] = problems[i];
	*ret_more = n_problems - n;
	return n;
}

void con_forget_problems(void)
{
	n_problems = 0;
}

/* What the problems of the current job are about ("entry 'Debian': "): set
 * once by the caller, so a failure is one line, its cause with its context,
 * not the cause and then a second line per caller (docs/style.md rule 6). */
static char log_context[96];

void con_log_context(const char *context)
{
	fmt_snprintf(log_context, sizeof(log_context), "%s", context ? context : "");
}

void log_write(enum log_level level, const char *line)
{
	static const char *const prefix[] = {"handoff: error: ", "handoff: warning: ", "handoff: ", "handoff: debug: "};
	char full[CON_LINE_MAX];

	if (level == LOG_DEBUG)
		return;
	if (level <= LOG_WARNING && log_context[0]) {
		fmt_snprintf(full, sizeof(full), "%s%s", log_context, line);
		line = full;
	}
	if (level <= LOG_WARNING) {
		remember_problem(line);
		con_set_color(level == LOG_ERROR ? EFI_TEXT_ATTR(EFI_LIGHTRED, EFI_BLACK)
						 : EFI_TEXT_ATTR(EFI_YELLOW, EFI_BLACK));
	}
	con_write(prefix[level]);
	con_write(line);
	con_write("\n");
	if (level <= LOG_WARNING)
		con_set_color(EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
}

EFI_STATUS con_read_key(uint64_t timeout_us, EFI_INPUT_KEY *ret)
{
	EFI_EVENT events[2] = { ST->ConIn->WaitForKey, NULL };
	UINTN n_events = 1, index;
	EFI_STATUS err;

	if (timeout_us) {
		err = BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &events[1]);
		if (EFI_ERROR(err))
			return err;
		BS->SetTimer(events[1], TimerRelative, timeout_us * 10); /* 100 ns units */
		n_events = 2;
	}
	err = BS->WaitForEvent(n_events, events, &index);
	if (events[1])
		BS->CloseEvent(events[1]);
	if (EFI_ERROR(err))
		return err;
	if (index == 1)
		return EFI_TIMEOUT;
	return ST->ConIn->ReadKeyStroke(ST->ConIn, ret);
}

#define ONE_SECOND_US 1000000u

bool con_countdown(const char *what, const char *name, uint32_t sec)
{
	EFI_INPUT_KEY key;
	bool done = true;

	for (; sec && done; sec--) {
		con_print("\r%s%s in %u s, any key aborts. ", what, name, sec);
		done = con_read_key(ONE_SECOND_US, &key) == EFI_TIMEOUT;
	}
	con_print("\n");
	return done;
}

/* Long enough to read why, short enough that an unattended machine moves on
 * to the firmware's next boot option. */
#define EXIT_PAUSE_SEC 10u

void con_pause_before_exit(void)
{
	EFI_INPUT_KEY key;

	con_print("Returning to the firmware in %u s (any key: now).\n", EXIT_PAUSE_SEC);
	con_read_key((uint64_t)EXIT_PAUSE_SEC * ONE_SECOND_US, &key);
}
