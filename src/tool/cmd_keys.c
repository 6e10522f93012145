/* handoff keys create|enroll: Secure Boot with the owner's own keys, no
 * vendor between them and their machine (keys.h). create makes PK, KEK and
 * db in /etc/handoff/keys and points handoff.conf's signing at the db key;
 * enroll stages them on the ESP for the loader to enroll in Setup Mode
 * (loader.conf(5) secure-boot-enroll) and signs what that first boot runs. */
#include "esp.h"
#include "keys.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: handoff keys create [--force] [--microsoft]\n"
	"       handoff keys enroll [--esp DIR] [--name NAME] [--mode MODE]\n\n"
	"Secure Boot with your own keys.\n\n"
	"create: a Platform Key, a Key Exchange Key and a db key (RSA 2048) with\n"
	"self-signed certificates in /etc/handoff/keys (root only), their signed\n"
	"signature lists for enrollment (PK.auth, KEK.auth, db.auth), and sign-key=,\n"
	"sign-cert= in /etc/handoff/handoff.conf set to the db key: install, update\n"
	"and the kernel hooks then sign the loader and every UKI with it.\n"
	"  --force      make new keys although there are some (the old ones are moved\n"
	"               aside, not deleted)\n"
	"  --microsoft  keep Microsoft's certificates of this machine's KEK and db in\n"
	"               the new ones: option ROMs (graphics cards) and Windows need them\n\n"
	"enroll: copy the .auth files to ESP/loader/keys/NAME/ and set\n"
	"'secure-boot-enroll MODE' in ESP/loader/loader.conf; sign the installed loader,\n"
	"the UKIs and addons on the ESP with the db key. In Setup Mode the loader then\n"
	"enrolls db, KEK and PK, and resets.\n"
	"  --esp DIR    the ESP (default: recorded by handoff install, or found)\n"
	"  --name NAME  the key set's directory (default auto: the one enrolled\n"
	"               without asking)\n"
	"  --mode MODE  manual (from the menu), if-safe (by itself in a virtual\n"
	"               machine, else from the menu; the default), force (by itself),\n"
	"               off (no enrollment; only this line is written)\n";

struct keys_args {
	bool force, microsoft;
	const char *esp, *name, *mode;
};

static int parse(int argc, char **argv, bool create, struct keys_args *a)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' }, { "microsoft", no_argument, NULL, 'm' },
		{ "esp", required_argument, NULL, 'e' }, { "name", required_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, 'M' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c, i = 0;

	*a = (struct keys_args){ .name = "auto", .mode = "if-safe" };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, &i)) != -1) {
		if (c == 'h')
			return fputs(help, stdout), -1;
		if (c == '?' || c == ':')
			return usage_bad_option(c, argv);
		if (create != (c == 'f' || c == 'm'))
			return tool_usage("--%s is not an option of 'keys %s'", opts[i].name, argv[0]);
		a->force |= c == 'f';
		a->microsoft |= c == 'm';
		a->esp = c == 'e' ? optarg : a->esp;
		a->name = c == 'n' ? optarg : a->name;
		a->mode = c == 'M' ? optarg : a->mode;
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (!keys_enroll_mode_ok(a->mode))
		return tool_usage("--mode '%s': manual, if-safe, force or off", a->mode);
	if (!keys_enroll_name_ok(a->name))
		return tool_usage("--name '%s': one name of letters, digits, '-', '_' and '.'", a->name);
	return 0;
}

int cmd_keys(int argc, char **argv)
{
	struct keys_args a;
	bool create;
	char *esp;
	int r;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return argc < 2 ? tool_usage("keys: create or enroll?") : (fputs(help, stdout), EXIT_OK);
	if (strcmp(argv[1], "create") != 0 && strcmp(argv[1], "enroll") != 0)
		return tool_usage("keys: unknown action '%s' (create, enroll)", argv[1]);
	create = strcmp(argv[1], "create") == 0;
	r = parse(argc - 1, argv + 1, create, &a);
	if (r)
		return r < 0 ? EXIT_OK : r;
	if (create)
		return keys_create(a.force, a.microsoft) < 0 ? EXIT_FAIL : EXIT_OK;
	esp = esp_locate(a.esp, /* quiet= */ false);
	r = esp && keys_enroll(esp, a.name, a.mode) == 0 ? EXIT_OK : EXIT_FAIL;
	free(esp);
	return r;
}
