/* handoff set-editor-password: loader.conf's editor-password line, which
 * makes the loader's command-line editor ask for a password (README
 * "Configuration"). The hash is PBKDF2-HMAC-SHA256 (src/core/pbkdf2.c, the
 * loader's own code) over a password read without echo, with a random salt
 * (getrandom(2)); src/core/config.c reads the line back as the loader will. */
#include "esp.h"
#include "loader_conf.h"
#include "core/config.h"
#include "core/pbkdf2.h"
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <termios.h>
#include <unistd.h>

#define PW_SALT_SIZE 16u /* 128 bits (NIST SP 800-132 §5.1) */
#define PW_ITERATIONS_DEFAULT 1000000u
#define PW_ITERATIONS_TEXT "1000000"
#define PW_KEY "editor-password"

static const char help[] =
	"Usage: handoff set-editor-password [--esp DIR] [--iterations N] [--remove]\n\n"
	"Lock the loader's command-line editor ('e' in the menu) with a password:\n"
	"the line 'editor-password pbkdf2-sha256:ITERATIONS:SALT:HASH' in\n"
	"ESP/loader/loader.conf, the file's other lines and mode kept. The password\n"
	"is read twice without echo from the terminal, or once, one line, from\n"
	"standard input when that is not a terminal (for scripts). The loader's\n"
	"keyboard types printable ASCII only, so the password is that.\n"
	"  --esp DIR       the ESP (default: recorded by handoff install, or found)\n"
	"  --iterations N  PBKDF2 rounds (default " PW_ITERATIONS_TEXT ", about a second of the\n"
	"                  loader's time on a PC; " CFG_PW_ITERATIONS_TEXT ")\n"
	"  --remove        drop the line: the editor asks for no password\n";

static struct termios saved_tty;

/* A signal while echo is off: echo back on, then die of the signal. */
static void restore_tty(int sig)
{
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tty);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void echo_off(bool off)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP };
	struct termios t = saved_tty;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], off ? restore_tty : SIG_DFL);
	t.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, off ? &t : &saved_tty);
}

/* One line of stdin into @buf (@size bytes), byte by byte (no stdio buffer
 * keeps a copy), without its LF or CRLF. Return: its length, -1 at once at
 * the end of input, -2 when longer than @size - 1. */
static ssize_t read_line(char *buf, size_t size)
{
	size_t n = 0;
	char c;
	ssize_t r;

	while ((r = read(STDIN_FILENO, &c, 1)) == 1 || (r < 0 && errno == EINTR)) {
		if (r < 0)
			continue;
		if (c == '\n')
			break;
		if (n + 1 >= size)
			return -2;
		buf[n++] = c;
	}
	if (r == 0 && n == 0)
		return -1;
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return (ssize_t)n;
}

/* Printable ASCII, 1..CFG_PW_LEN_MAX characters (@len from read_line()). Return: 0 or -1 (printed). */
static int password_check(const char *pw, ssize_t len)
{
	if (len == -1)
		return tool_fail("no password given (end of input)"), -1;
	if (len == 0)
		return tool_fail("the password is empty"), -1;
	if (len == -2 || len > (ssize_t)CFG_PW_LEN_MAX)
		return tool_fail("the password is longer than " CFG_PW_LEN_MAX_TEXT " characters"), -1;
	for (const char *p = pw; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return tool_fail("the password holds a character the loader's keyboard cannot type (printable "
					 "ASCII only)"), -1;
	return 0;
}

/* The password into @pw (CFG_PW_LEN_MAX + 2 bytes), asked twice on a
 * terminal (@again: the second answer). Return: 0 or -1 (printed). */
static int password_get(char *pw, char *again)
{
	bool tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_tty) == 0;
	ssize_t len, len2 = 0;

	if (tty) {
		echo_off(true); /* first: what is typed after the prompt is not echoed */
		fputs("Editor password: ", stderr);
	}
	len = read_line(pw, CFG_PW_LEN_MAX + 2);
	if (tty && len > 0) {
		fputs("\nAgain: ", stderr);
		len2 = read_line(again, CFG_PW_LEN_MAX + 2);
	}
	if (tty) {
		echo_off(false);
		fputc('\n', stderr);
	}
	if (password_check(pw, len) < 0)
		return -1;
	if (tty && (len2 != len || strcmp(pw, again) != 0))
		return tool_fail("the two passwords differ"), -1;
	return 0;
}

/* "editor-password pbkdf2-sha256:N:SALT:HASH" for @pw, with a fresh salt. */
static char *password_line(const char *pw, uint32_t iterations)
{
	uint8_t salt[PW_SALT_SIZE], hash[SHA256_DIGEST_SIZE];
	char salt_hex[2 * PW_SALT_SIZE + 1], hash_hex[SHA256_HEX_SIZE];

	if (getrandom(salt, sizeof(salt), 0) != (ssize_t)sizeof(salt)) {
		tool_fail("getrandom: %s", strerror(errno));
		return NULL;
	}
	pbkdf2_sha256(pw, strlen(pw), salt, sizeof(salt), iterations, hash, sizeof(hash));
	hex_encode(salt, sizeof(salt), salt_hex);
	sha256_hex(hash, hash_hex);
	return xasprintf(PW_KEY " " CFG_PW_SCHEME ":%u:%s:%s", iterations, salt_hex, hash_hex);
}

static int parse(int argc, char **argv, const char **esp, uint32_t *iterations, bool *remove)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "iterations", required_argument, NULL, 'i' },
		{ "remove", no_argument, NULL, 'r' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	char *end;
	unsigned long n;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h')
			return fputs(help, stdout), -1;
		if (c == '?' || c == ':')
			return usage_bad_option(c, argv);
		*esp = c == 'e' ? optarg : *esp;
		*remove |= c == 'r';
		if (c != 'i')
			continue;
		errno = 0;
		n = strtoul(optarg, &end, 10);
		if (errno || *end || optarg[0] < '0' || optarg[0] > '9' || n < CFG_PW_ITERATIONS_MIN ||
		    n > CFG_PW_ITERATIONS_MAX)
			return tool_usage("--iterations '%s': a number from %u to %u", optarg, CFG_PW_ITERATIONS_MIN,
					  CFG_PW_ITERATIONS_MAX);
		*iterations = (uint32_t)n;
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	return 0;
}

static int set_password(const char *esp, uint32_t iterations)
{
	char pw[CFG_PW_LEN_MAX + 2] = "", again[CFG_PW_LEN_MAX + 2] = "", *line = NULL;
	int r = password_get(pw, again);

	if (r == 0)
		line = password_line(pw, iterations);
	mem_wipe(pw, sizeof(pw));
	mem_wipe(again, sizeof(again));
	r = line ? loader_conf_set(esp, PW_KEY, line, 0600) : -1;
	if (r >= 0)
		printf("%s/" LOADER_CONF ": editor-password set (" CFG_PW_SCHEME ", %u iterations): the loader's "
		       "editor asks for it\n", esp, iterations);
	free(line);
	return r;
}

int cmd_set_editor_password(int argc, char **argv)
{
	const char *esp_opt = NULL;
	uint32_t iterations = PW_ITERATIONS_DEFAULT;
	bool remove = false;
	int r = parse(argc, argv, &esp_opt, &iterations, &remove);
	char *esp;

	if (r)
		return r < 0 ? EXIT_OK : r;
	esp = esp_locate(esp_opt, /* quiet= */ false);
	if (!esp)
		return EXIT_FAIL;
	if (remove) {
		r = loader_conf_set(esp, PW_KEY, /* line= */ NULL, 0600);
		if (r >= 0)
			printf("%s/" LOADER_CONF ": %s\n", esp, r ? "editor-password removed" : "no editor-password");
	} else {
		r = set_password(esp, iterations);
	}
	free(esp);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
