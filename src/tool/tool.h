/* The host tool's shared pieces: exit codes, the commands, diagnostics
 * (every failure is one line "handoff: CMD: ..." on stderr, whether core or
 * the tool found it), file helpers and a growable text buffer. */
#ifndef TOOL_TOOL_H
#define TOOL_TOOL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/log.h"

#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2

#ifndef HANDOFF_VERSION
#define HANDOFF_VERSION "0.0.0"
#endif

/* Largest file the tool reads into memory (a UKI with a big initrd fits). */
#define TOOL_READ_MAX (1ull << 30)

/* ---- commands (cmd_*.c): argv[0] is the command name ---- */
int cmd_inspect(int argc, char **argv);
int cmd_install(int argc, char **argv);
int cmd_update(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_set_default(int argc, char **argv);
int cmd_set_oneshot(int argc, char **argv);
int cmd_set_timeout(int argc, char **argv);
int cmd_set_timeout_oneshot(int argc, char **argv);
int cmd_entry(int argc, char **argv);
int cmd_disk(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_uki(int argc, char **argv);
int cmd_addon(int argc, char **argv);
int cmd_wrap(int argc, char **argv);
int cmd_bless(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_set_editor_password(int argc, char **argv);
int cmd_random_seed(int argc, char **argv);

/**
 * disk_build() - write the GPT disk image @img: an ESP with the tree @esp and,
 * when @xbootldr is set, an XBOOTLDR partition (vfat, or ext4). @size_mib 0
 * sizes the image to fit; @report prints the layout on stdout.
 * Return: 0 or -1 (reason printed, no file left).
 */
int disk_build(const char *img, const char *esp, const char *xbootldr, bool xbootldr_ext4, uint64_t size_mib,
	       bool report);

/**
 * efivar_add_boot_entry() - a Boot#### variable for \EFI\handoff\@loader_name
 * (handoffx64.efi, handoffia32.efi) on the partition holding @esp, first in
 * BootOrder. Return: EXIT_OK or EXIT_FAIL.
 */
int efivar_add_boot_entry(const char *esp, const char *loader_name);
/* Pins netlist_update() changes: paths relative to the tree's root, no leading '/'. */
struct netlist_pins {
	char *const *set;  /* pinned to the files' digests now (their old pin lines replaced) */
	size_t n_set;
	char *const *drop; /* their pin lines go */
	size_t n_drop;
};
/**
 * netlist_update() - rewrite ROOT/loader/entries.list (netlist.c) from the entry
 * files under @root, keeping its other lines but the pins @pins (NULL: none)
 * sets or drops; only when it exists, unless @create (a pin to set then fails).
 * Return: 0 (also when there is none) or -1 (reason printed).
 */
int netlist_update(const char *root, bool create, const struct netlist_pins *pins);
/** netlist_exists() - @root has loader/entries.list; if not, says --pin needs it. */
bool netlist_exists(const char *root);
/* The addresses in the server examples beside a network boot tree (netconf.c). */
struct netconf {
	char *server, *first, *last; /* IPv4: the server, the DHCP range */
	bool given;                  /* --server or --dhcp-range given: rewrite the examples */
};
/**
 * netconf_parse() - @server (NULL: 192.168.10.1) and @range ("FIRST,LAST";
 * NULL: .100 to .200 of the server's /24) into @ret.
 * Return: 0, or EXIT_USAGE after a usage error.
 */
int netconf_parse(const char *server, const char *range, struct netconf *ret);
void netconf_free(struct netconf *c);
/**
 * netconf_write() - TREE.nginx.conf and TREE.dnsmasq.conf beside @tree (its
 * real path) when missing, or anew when @c->given and they differ.
 * Return: 0 or -1 (reason printed).
 */
int netconf_write(const char *tree, const struct netconf *c);
/** efivars_dir() - where EFI variables are (efivarfs, or $HANDOFF_EFIVARS_DIR in tests). */
const char *efivars_dir(void);
/** firmware_is_ia32() - efivarfs's neighbour fw_platform_size says 32: the firmware runs IA-32 loaders. */
bool firmware_is_ia32(void);

/* ---- diagnostics (diag.c) ---- */
/** diag_init() - route core's log lines to stderr as "handoff: @cmd: ...". */
void diag_init(const char *cmd);
/** tool_fail() - print one error line, return EXIT_FAIL. */
int tool_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** tool_usage() - print a usage error and a --help hint, return EXIT_USAGE. */
int tool_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** tool_note() - an informational line on stderr ("handoff: install: keeping ..."). */
void tool_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collects log lines instead of printing them, so a caller can decide what a
 * parser's complaint means (a broken masquerade header in a good bzImage is
 * a warning for inspect; a bad entry line is a "problem" for entry list). */
struct diag_capture {
	char **lines;
	enum log_level *levels;
	size_t n;
	struct diag_capture *prev;
};
void diag_capture_begin(struct diag_capture *c);
void diag_capture_end(struct diag_capture *c);
/** diag_capture_replay() - print the captured lines, demoted to at most @max_level severity. */
void diag_capture_replay(const struct diag_capture *c, enum log_level max_level);
void diag_capture_free(struct diag_capture *c);

/* ---- growable text buffer (strbuf.c) ---- */
struct strbuf {
	char *buf;   /* always NUL-terminated once anything was added */
	size_t len, cap;
};
void sb_putn(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putc(struct strbuf *sb, char c);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct strbuf *sb);
/** sb_str() - the text so far ("" when empty). */
const char *sb_str(const struct strbuf *sb);

/* ---- memory (exits on exhaustion: the host tool has nothing to fall back to) ---- */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- files (util.c) and programs (process.c): return 0 or -1 with the reason already printed ---- */
/** read_file() - the whole file (at most @max bytes), malloc'd, with a NUL after its *@ret_len bytes. */
int read_file(const char *path, uint64_t max, uint8_t **ret, size_t *ret_len);
/** read_file_opt() - as read_file(), but a missing file gives 0 and *ret = NULL. */
int read_file_opt(const char *path, uint64_t max, uint8_t **ret, size_t *ret_len);
/**
 * write_image_signed() - write_file_atomic() of an EFI image to @out, signed
 * first by sbsign (sbsigntool) with @key and @cert when @key is set, in a
 * private temporary directory (sign.c). A symbolic link at @out is refused.
 * Return: 0, or -1 after one error line.
 */
int write_image_signed(const char *out, const char *key, const char *cert, const uint8_t *data, size_t len);
/**
 * write_file_atomic() - replace @path with @data: temp file in the same
 * directory, fsync, rename, fsync the directory. A reader sees the old file
 * or the new one, never half of it; on failure nothing is left behind.
 */
int write_file_atomic(const char *path, const void *data, size_t len, mode_t mode);
/** file_has_content() - @path exists and holds exactly @data. */
bool file_has_content(const char *path, const void *data, size_t len);
/** install_file() - write @data to @path unless it is already there. Return: 1 written, 0 unchanged, -1. */
int install_file(const char *path, const void *data, size_t len, mode_t mode);
/** copy_file() - install_file() with the content of @src (mode 0644). Return: 0 or -1. */
int copy_file(const char *src, const char *dst);
int mkdir_p(const char *path, mode_t mode);
bool is_dir(const char *path);
bool is_file(const char *path);
/** same_file() - @a and @b are the same file or directory (the ESP mounted at /boot, say). */
bool same_file(const char *a, const char *b);
char *path_join(const char *a, const char *b);
const char *path_basename(const char *path);
/** tmpdir_create() - a fresh private directory under $TMPDIR (or /tmp). */
char *tmpdir_create(const char *tag);
/** rm_rf() - remove @path and everything below it (no symlinks followed). */
void rm_rf(const char *path);
/** random_bytes() - @n bytes from /dev/urandom. */
int random_bytes(void *buf, size_t n);
/**
 * run_command() - run @argv (argv[0] looked up in PATH) with stdout and
 * stderr captured; on failure print one line naming @what and the last line
 * the command printed. Return: 0 or -1.
 */
int run_command(const char *what, char *const argv[]);
/**
 * run_output() - run_command(), with what @argv prints on stdout in *@ret
 * (malloc'd; its stderr goes where the tool's goes). Return: 0 or -1 (printed).
 */
int run_output(const char *what, char *const argv[], char **ret);
/** find_program() - @name's path in $PATH, as posix_spawnp() finds it, or NULL. Allocated. */
char *find_program(const char *name);

/**
 * loader_find() - the loader image: @opt (--loader) when given, else
 * handoff.efi beside the tool (the build tree), else
 * ../lib/handoff/handoffx64.efi relative to it (after make install).
 * Return: a malloc'd path, or NULL (reason printed).
 */
char *loader_find(const char *opt);
/** loader32_find() - the same for the IA-32 loader, handoffia32.efi. */
char *loader32_find(const char *opt);
/** loaderaa64_find() - the same for the AArch64 loader, handoffaa64.efi. */
char *loaderaa64_find(const char *opt);
/** stub_find() - the same for handoff-stub.efi (--stub). */
char *stub_find(const char *opt);
/** stubaa64_find() - the same for the AArch64 stub, handoff-stubaa64.efi. */
char *stubaa64_find(const char *opt);

/* ---- option values ---- */
/** usage_bad_option() - getopt_long() returned '?' or ':' (optstring starts with ':'). */
int usage_bad_option(int c, char **argv);

/* The options of the commands that read an ESP and list it (status, entry list). */
struct listing_opts {
	const char *esp, *boot; /* --esp DIR, --boot DIR: NULL when not given */
	bool json;              /* --json */
};
/**
 * parse_listing_opts() - [--esp DIR] [--boot DIR] [--json] [--help], no
 * other argument; --help prints @help.
 * Return: -1 to go on, else the exit status (help shown or usage error).
 */
int parse_listing_opts(int argc, char **argv, const char *help, struct listing_opts *o);
/** parse_u64() - decimal (or 0x hex) number <= @max; false on junk or overflow. */
bool parse_u64(const char *s, uint64_t max, uint64_t *ret);

#endif
