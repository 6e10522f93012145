/* handoff set-default, set-oneshot, set-timeout, set-timeout-oneshot: what
 * the running system asks of the next boot, written as systemd's Boot Loader
 * Interface variables (non-volatile, UCS-2) through efivarfs, as bootctl(1)
 * does; the loader reads them (src/core/bli.c). An empty value removes the
 * variable. */
#include "efivarfs.h"
#include "core/config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct setvar {
	const char *cmd, *var, *what;
	bool timeout; /* the value is a timeout, else an entry id */
};

static const struct setvar setvars[] = {
	{ "set-default", "LoaderEntryDefault", "ID", false },
	{ "set-oneshot", "LoaderEntryOneShot", "ID", false },
	{ "set-timeout", "LoaderConfigTimeout", "SECONDS", true },
	{ "set-timeout-oneshot", "LoaderConfigTimeoutOneShot", "SECONDS", true },
};

static void usage(FILE *f, const struct setvar *v)
{
	fprintf(f, "Usage: handoff %s %s\n\n", v->cmd, v->what);
	if (v->timeout)
		fprintf(f, "Set %s: the menu waits SECONDS (0: boot at once), or menu-force, or\n"
			   "menu-hidden; \"\" removes it.%s\n", v->var,
			v->timeout && strstr(v->var, "OneShot") ? " Used for the next boot only." : "");
	else
		fprintf(f, "Set %s: the entry ID (as 'handoff entry list' shows it, a glob such\n"
			   "as debian-*, %s@current for the entry booted now); \"\" removes it.\n", v->var,
			strstr(v->var, "OneShot") ? "" : "@saved for the one booted last, ");
}

/* A timeout as the loader parses it; an entry id or glob of one line; the
 * special values bootctl knows. Return: EXIT_OK or EXIT_USAGE (printed). */
static int check_value(const struct setvar *v, const char *arg)
{
	bool oneshot = strstr(v->var, "OneShot") != NULL;
	uint32_t t;

	if (!*arg)
		return EXIT_OK;
	if (v->timeout)
		return cfg_parse_timeout(arg, strlen(arg), &t) ? EXIT_OK
			: tool_usage("'%s' is not " CFG_TIMEOUT_WHAT, arg, CFG_TIMEOUT_MENU_FORCE - 1);
	if (arg[0] == '@' && strcmp(arg, "@current") != 0 && (oneshot || strcmp(arg, "@saved") != 0))
		return tool_usage("'%s': the special values are @current%s", arg, oneshot ? "" : " and @saved");
	for (const char *p = arg; *p; p++)
		if ((unsigned char)*p < 0x20)
			return tool_usage("'%s' is not one line of text", arg);
	return EXIT_OK;
}

static int set_var(const struct setvar *v, int argc, char **argv)
{
	char *value;
	int r;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		return usage(stdout, v), EXIT_OK;
	if (argc != 2)
		return tool_usage("usage: %s %s", v->cmd, v->what);
	if ((r = check_value(v, argv[1])) != EXIT_OK)
		return r;
	if (!is_dir(efivars_dir()))
		return tool_fail("%s is missing: not booted with UEFI, or efivarfs is not mounted", efivars_dir());
	if (!*argv[1])
		return efivar_delete(v->var, LOADER_GUID_STR) < 0 ? EXIT_FAIL : EXIT_OK;
	/* @current: the entry booted now (LoaderEntrySelected) */
	value = strcmp(argv[1], "@current") == 0 ? efivar_read_str("LoaderEntrySelected", LOADER_GUID_STR)
						 : xstrdup(argv[1]);
	if (!value)
		return tool_fail(
			"@current: LoaderEntrySelected is not set (not booted by a Boot Loader Interface loader)");
	r = efivar_write_str(v->var, LOADER_GUID_STR, EFIVAR_NV_BS_RT, value) < 0 ? EXIT_FAIL : EXIT_OK;
	free(value);
	return r;
}

int cmd_set_default(int argc, char **argv)
{
	return set_var(&setvars[0], argc, argv);
}

int cmd_set_oneshot(int argc, char **argv)
{
	return set_var(&setvars[1], argc, argv);
}

int cmd_set_timeout(int argc, char **argv)
{
	return set_var(&setvars[2], argc, argv);
}

int cmd_set_timeout_oneshot(int argc, char **argv)
{
	return set_var(&setvars[3], argc, argv);
}
