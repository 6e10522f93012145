/* handoff: the host tool. Dispatches to one command per file (cmd_*.c);
 * exit status 0 success, 1 failure, 2 usage error. */
#include "tool.h"
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *summary;
};

static const struct command commands[] = {
	{ "inspect", cmd_inspect, "FILE [--json]", "describe a kernel, UKI or EFI application" },
	{ "install", cmd_install, "[--esp DIR] [--force]", "put the loader on an EFI system partition" },
	{ "update", cmd_update, "[--esp DIR] [--graceful]", "replace an installed loader by this version's" },
	{ "entry", cmd_entry, "add|list|remove ...", "manage Boot Loader Specification entries" },
	{ "status", cmd_status, "[--json]", "what booted, what will boot, the ESP and entries" },
	{ "bless", cmd_bless, "[--bad|--status]", "mark this counted boot good (or bad)" },
	{ "set-default", cmd_set_default, "ID", "the default entry (LoaderEntryDefault)" },
	{ "set-oneshot", cmd_set_oneshot, "ID", "the entry for the next boot only (LoaderEntryOneShot)" },
	{ "set-timeout", cmd_set_timeout, "SECONDS", "the menu timeout (LoaderConfigTimeout)" },
	{ "set-timeout-oneshot", cmd_set_timeout_oneshot, "SECONDS", "the next boot's menu timeout" },
	{ "random-seed", cmd_random_seed, "[--esp DIR]", "refresh the random seed the loader passes to Linux" },
	{ "set-editor-password", cmd_set_editor_password, "[--esp DIR] [--remove]",
	  "lock the loader's editor with a password" },
	{ "disk", cmd_disk, "-o IMG --esp DIR", "build a GPT disk image from directories" },
	{ "run", cmd_run, "TARGET [-- QEMU-ARGS]", "boot a disk, ESP or EFI file in QEMU/OVMF" },
	{ "uki", cmd_uki, "--linux FILE -o OUT.efi", "build a unified kernel image" },
	{ "addon", cmd_addon, "--cmdline TEXT -o OUT.efi", "build a UKI addon (.cmdline)" },
	{ "wrap", cmd_wrap, "--linux FILE -o OUT.efi", "make any bzImage an EFI application" },
	{ "keys", cmd_keys, "create|enroll ...", "Secure Boot with your own keys" },
};

static void usage(FILE *f)
{
	fputs("Usage: handoff [--version] [--help] COMMAND [ARGS...]\n\n"
	      "UEFI boot loader toolkit for Linux on x86-64.\n\nCommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-19s %-26s %s\n", commands[i].name, commands[i].args, commands[i].summary);
	fputs("\nRun 'handoff COMMAND --help' for a command's options; see handoff(1).\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("handoff: missing COMMAND\n", stderr);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("handoff %s\n", HANDOFF_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			diag_init(commands[i].name);
			return commands[i].run(argc - 1, argv + 1);
		}
	diag_init(NULL);
	fprintf(stderr, "handoff: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
