/* Boot Loader Specification Type #1 entries as `kernel-install` lays them
 * out: the kernel and initrds in ESP/<entry-token>/<version>/, the entry in
 * ESP/loader/entries/<entry-token>-<version>.conf; or, "in place", the entry
 * in /boot/loader/entries/ pointing at the kernel where the distribution put
 * it (the loader reads ext4 and FAT partitions of its disk). A "+TRIES"
 * before ".conf" makes the loader count boots (UAPI.1 "Boot counting"). */
#ifndef TOOL_ENTRY_H
#define TOOL_ENTRY_H

#include "core/bls.h"
#include "core/fwarch.h"
#include "core/osrel.h"
#include "core/plan.h"
#include "tool.h"

/* The first line of every entry file `entry add` writes: what marks the
 * files it names under /TOKEN/VERSION/ as handoff's copies (entry_remove_id()). */
#define ENTRY_FIRST_LINE "# Boot Loader Specification Type #1 entry, written by handoff entry add\n"

struct entry_spec {
	const char *esp;
	const char *boot; /* the distribution's /boot: entries of this id there are replaced (NULL: not looked at) */
	bool in_place;            /* the entry in BOOT/loader/entries with paths relative to BOOT (the
	                           * kernel and initrds must be under it); else copies on the ESP */
	const char *token;        /* entry token: machine-id or --entry-token */
	const char *version;
	const char *title;
	const char *options;      /* NULL: no options line */
	const char *machine_id;   /* NULL: no machine-id line */
	const char *sort_key;     /* NULL: no sort-key line */
	const char *linux_path;   /* kernel file on the host */
	const char *const *initrds;
	size_t n_initrds;
	enum boot_scheme protocol;
	bool counted;             /* name the file ID+TRIES.conf */
	uint32_t tries;
	bool print_path;          /* print the entry file's path on stdout */
	bool pin;                 /* pin its files in loader/entries.list (netlist.c) */
};

/**
 * entry_install() - copy the kernel and initrds (unless in place) and write
 * the entry file (last, atomically, so the loader never sees an entry whose
 * files are not there yet). Files already identical are left untouched, and
 * so is an entry file of the same id with the same text, whatever its boot
 * counter says; any other file of the same id (another counter, or the
 * other place) goes, with the ESP files only it used.
 * Return: 0 or -1 (reason printed).
 */
int entry_install(const struct entry_spec *s);

/** entry_list() - `handoff entry list` (entry_list.c); @help is the command's --help text. */
int entry_list(int argc, char **argv, const char *help);
struct json;
/**
 * entries_render() - the entries of @esp and of @boot (NULL: none) as the
 * loader sees them, as `entry list` shows them: with @j, a JSON object (member
 * @key of the object being written); else text appended to @out.
 */
void entries_render(const char *esp, const char *boot, struct json *j, const char *key, struct strbuf *out);
/**
 * resolve_kind() - @path from an entry ("/a/b" or "\\a\\b") under @esp, each
 * component matched case-insensitively as FAT would; a directory when
 * @want_dir, else a file. Allocated; NULL when missing (esp_path.c).
 */
char *resolve_kind(const char *esp, const char *path, bool want_dir);
/**
 * os_entries_found() - which of the other loaders (enum bls_os bits) the
 * loader would find on @esp (entry_os.c), for the firmware's word size @fw.
 */
unsigned os_entries_found(const char *esp, enum fw_arch fw);
struct net_list;
/** entry_pins_load() - @esp's loader/entries.list, parsed (its bad lines logged); NULL when there is none. */
struct net_list *entry_pins_load(const char *esp);
void entry_pins_free(struct net_list *l);
/**
 * entry_pins_check() - when @ref (a path of an entry on @esp; NULL: none) is
 * pinned in @l, append it (normalized) to *@pinned; a pin its file does not
 * match is logged as the problem it is at boot.
 */
void entry_pins_check(const struct net_list *l, const char *esp, const char *ref, char ***pinned, size_t *n);
/** boot_entries_dir() - @opt, else /boot when it has loader/entries and is not @esp, else NULL. Allocated. */
char *boot_entries_dir(const char *opt, const char *esp);

/**
 * uki_listing_load() - read and parse the UKI @path (@rel in messages) into
 * *@buf (malloc'd, *@len bytes) and @pe, and check its kernel, logging what
 * the loader would refuse.
 * Return: its number of profiles (1 without .profile), 0 when it is no UKI.
 */
uint32_t uki_listing_load(const char *path, const char *rel, char **buf, size_t *len, struct pe_info *pe);

/**
 * uki_listing_entry() - @e for profile @profile of the UKI @pe (@buf, @len;
 * EFI/Linux/@name, @rel) as the loader's menu names it.
 * Return: false when it cannot be made (logged).
 */
bool uki_listing_entry(struct bls_entry *e, const struct pe_info *pe, const char *buf, size_t len, const char *rel,
		       const char *name, uint32_t profile);

/* entry_ids.c: what names this installation, read under --root (default /),
 * as kernel-install reads it: /etc/kernel/entry-token, /etc/machine-id, and
 * os-release (/etc, else /usr/lib) through the loader's own parser. */
struct host_ids {
	char *entry_token;     /* first word of /etc/kernel/entry-token, or NULL */
	char *machine_id;      /* a valid /etc/machine-id, or NULL */
	struct osrel os;
};
/** host_ids_read() - the files above under @root; missing ones leave their fields NULL. */
void host_ids_read(const char *root, struct host_ids *ret);
void host_ids_free(struct host_ids *h);
/**
 * resolve_token() - kernel-install's order: @opt (--entry-token), then
 * /etc/kernel/entry-token, the machine ID, IMAGE_ID or ID of os-release.
 * Return: a malloc'd token usable in file names, or NULL (printed why).
 */
char *resolve_token(const char *opt, const struct host_ids *h);
/** entry_token() - the entry token as `entry add` finds it (--entry-token @opt first). NULL: printed why. */
char *entry_token(const char *opt);

/** entry_name_ok() - @s is usable as a path component (token, version, id). */
bool entry_name_ok(const char *s);

/** path_below() - @file's path below @boot ("/vmlinuz-6.1.0-13-amd64"), links resolved; NULL when not below it. */
char *path_below(const char *boot, const char *file);

/* entry_remove.c */
/**
 * entry_remove_id() - delete every file of entry @id under @root/loader/entries
 * (ID.conf, ID+L.conf, ID+L-D.conf) but @keep (a file name, or NULL). With
 * @files, also the copies handoff made for them that no other entry uses, and
 * then directories left empty: files an entry written by `entry add`
 * (ENTRY_FIRST_LINE) names as /TOKEN/VERSION/NAME with TOKEN-VERSION = @id.
 * Never any other file an entry names (a distribution's kernel in /boot,
 * another loader's, a file the user put there). Return: entries removed, or -1.
 */
int entry_remove_id(const char *root, const char *id, const char *keep, bool files);
/**
 * uki_remove_id() - delete the UKIs of entry @id in @esp/EFI/Linux (ID.efi,
 * ID+L.efi, ID+L-D.efi) but @keep (a file name, or NULL): those handoff built
 * (the stub's .sbat names handoff); another is kept, with a note.
 * Return: UKIs removed, or -1.
 */
int uki_remove_id(const char *esp, const char *id, const char *keep);
/** entry_remove() - `handoff entry remove`. */
int entry_remove(int argc, char **argv, const char *help);

/* entry_uki.c */
struct handoff_conf;
/**
 * entry_install_uki() - layout=uki: @s as ESP/EFI/Linux/TOKEN-VERSION[+TRIES].efi,
 * a UKI of the kernel, initrds and options of @s and @root's os-release,
 * signed (and with PCR policies) as @conf says; the same image already there
 * (whatever its signature) is kept with its counter; every other file of
 * the entry goes (older UKIs, a Type #1 entry and its copies).
 * Return: 0 or -1 (reason printed).
 */
int entry_install_uki(const struct entry_spec *s, const struct handoff_conf *conf, const char *root);

/* entry_system.c: what `entry add --kernel-version` takes from the system */
/** fs_root_of() - the root of the file system holding @path (its mount point; $HANDOFF_FS_ROOT counts as one). */
char *fs_root_of(const char *path);
/** kernel_conf_root() - /etc/kernel, or $KERNEL_INSTALL_CONF_ROOT (kernel-install's own variable). */
const char *kernel_conf_root(void);
/**
 * system_cmdline() - $KERNEL_INSTALL_CONF_ROOT/cmdline (default
 * /etc/kernel/cmdline), else /usr/lib/kernel/cmdline, else /proc/cmdline
 * without BOOT_IMAGE= and initrd= (kernel-install's order).
 * Return: the command line, or NULL with the reason printed.
 */
char *system_cmdline(void);
/** system_tries() - $KERNEL_INSTALL_CONF_ROOT/tries: 1 with *@ret set, 0 when absent, -1 when malformed (printed). */
int system_tries(uint32_t *ret);
/**
 * boot_readable() - can the loader read the kernels under @boot where they
 * are: an ext4 or FAT file system, @boot its root or its /boot, and (when
 * @esp is a mounted ESP) a partition of the ESP's disk whose superblock
 * handoff's ext4 driver accepts. *@ret_fat: the loader can also rename
 * (count) entries there. Return: NULL, or why not (malloc'd).
 */
char *boot_readable(const char *boot, const char *esp, bool *ret_fat);
#define BOOT_DIR_DEFAULT "/boot"

#endif
