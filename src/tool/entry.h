/* Boot Loader Specification Type #1 entries as `kernel-install` lays them
 * out: the kernel and initrds in ESP/<entry-token>/<version>/, the entry in
 * ESP/loader/entries/<entry-token>-<version>.conf. */
#ifndef TOOL_ENTRY_H
#define TOOL_ENTRY_H

#include "core/plan.h"
#include "tool.h"

struct entry_spec {
	const char *esp;
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
};

/**
 * entry_install() - copy the kernel and initrds and write the entry file
 * (last, atomically, so the loader never sees an entry whose files are not
 * there yet). Files already identical are left untouched.
 * Return: 0 or -1 (reason printed).
 */
int entry_install(const struct entry_spec *s);

/** entry_list() - `handoff entry list` (entry_list.c); @help is the command's --help text. */
int entry_list(int argc, char **argv, const char *help);

/** entry_name_ok() - @s is usable as a path component (token, version, id). */
bool entry_name_ok(const char *s);

#endif
