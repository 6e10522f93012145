/* handoff install: the loader onto an ESP as \EFI\handoff\handoffx64.efi and
 * (unless another loader owns it) the removable-media path
 * \EFI\BOOT\BOOTX64.EFI (UEFI 2.10 §3.5.1.1), plus \loader\loader.conf and
 * \loader\entries\; with --arch ia32 (or both) the loader for 32-bit
 * firmware as handoffia32.efi and BOOTIA32.EFI, with --arch aa64 (the
 * default on arm64) the AArch64 one as handoffaa64.efi and BOOTAA64.EFI
 * (§3.5.1.1 again: the ESP of another machine can be made here). With --netboot, a network
 * boot server's tree: the removable-media paths only (the firmware's DHCP
 * answer names them), loader.conf and loader/entries.list (netlist.c), and
 * beside the tree examples for nginx and dnsmasq (netconf.c). Files
 * already right are not touched, so a second run changes nothing. The
 * image is signed when it must be (loader_src.h). */
#include "entry.h"
#include "esp.h"
#include "loader_conf.h"
#include "loader_src.h"
#include "random_seed.h"
#include "core/fwarch.h"
#include "core/pe.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EFIVARS_DIR "/sys/firmware/efi/efivars"

static const char help[] =
	"Usage: handoff install [--esp DIR] [--arch x64|ia32|aa64|both] [--force] [--variables yes|no]\n"
	"                      [--loader FILE] [--boot DIR]\n"
	"                      [--netboot [--server ADDR] [--dhcp-range FIRST,LAST]]\n\n"
	"Install the loader on the EFI system partition mounted (or staged) at DIR:\n"
	"DIR/EFI/handoff/handoffx64.efi and DIR/EFI/BOOT/BOOTX64.EFI, DIR/loader/loader.conf\n"
	"and DIR/loader/entries/ when missing, DIR/loader/random-seed (32 random bytes,\n"
	"mode 0600) and the LoaderSystemToken EFI variable when missing (see handoff\n"
	"random-seed). Another boot loader already at\n"
	"EFI/BOOT/BOOTX64.EFI is kept unless --force is given. Running it twice changes\n"
	"nothing. Without --esp, the ESP is found as bootctl finds it: /efi, /boot/efi or\n"
	"/boot, mounted, FAT, of partition type ESP. The ESP used is recorded in\n"
	"/etc/handoff/esp (when /etc/handoff exists) for the kernel hooks.\n"
	"Secure Boot: the shipped FILE.signed is installed when it exists, else FILE\n"
	"signed by sbsign with sign-key= and sign-cert= of /etc/handoff/handoff.conf when\n"
	"set; a signed loader on the ESP is never replaced by an unsigned one.\n\n"
	"  --esp DIR            the ESP (or any directory: a chroot's, an image's)\n"
	"  --arch ARCH          x64 (default on x86), ia32 (32-bit UEFI: handoffia32.efi\n"
	"                       and EFI/BOOT/BOOTIA32.EFI), both (x64 and ia32) or aa64\n"
	"                       (64-bit ARM UEFI, the default on arm64: handoffaa64.efi\n"
	"                       and EFI/BOOT/BOOTAA64.EFI)\n"
	"  --force              replace another loader at EFI/BOOT/BOOTX64.EFI\n"
	"  --variables yes|no   add a Boot#### entry first in BootOrder (default no;\n"
	"                       needs " EFIVARS_DIR "); with --arch both, for the\n"
	"                       loader of the running firmware's word size\n"
	"  --loader FILE        the loader image (default: handoff.efi, handoffia32.efi or\n"
	"                       handoffaa64.efi beside the tool, or\n"
	"                       PREFIX/lib/handoff/handoff{x64,ia32,aa64}.efi);\n"
	"                       not with --arch both\n"
	"  --boot DIR           the distribution's /boot (default): when it already has\n"
	"                       loader/entries and is not on the ESP, loader.conf names\n"
	"                       its partition (boot-partition PARTUUID), as entry add does\n"
	"  --netboot            DIR is a network boot server's tree (HTTP or TFTP root):\n"
	"                       EFI/BOOT/BOOTX64.EFI and BOOTIA32.EFI (--arch both is the\n"
	"                       default here), loader/loader.conf and loader/entries.list,\n"
	"                       which entry add/remove keep current; needs --esp. Beside\n"
	"                       DIR, examples for nginx and dnsmasq: DIR.nginx.conf and\n"
	"                       DIR.dnsmasq.conf, written when missing, and anew when\n"
	"                       one of these two is given:\n"
	"  --server ADDR        the server's IPv4 address the machines reach (default\n"
	"                       192.168.10.1)\n"
	"  --dhcp-range FIRST,LAST\n"
	"                       the addresses dnsmasq hands out (default .100 to .200\n"
	"                       of the server's /24)\n";

/* What one firmware word size gets (UEFI 2.10 §3.5.1.1 names the fallbacks). */
struct arch_files {
	const char *name, *main, *fallback;
	uint16_t machine;
	char *(*find)(const char *opt);
};

static const struct arch_files arch_x64 = { "x64", "handoffx64.efi", "BOOTX64.EFI", PE_MACHINE_X64, loader_find };
static const struct arch_files arch_ia32 = {"ia32", "handoffia32.efi", "BOOTIA32.EFI", PE_MACHINE_I386, loader32_find};
static const struct arch_files arch_aa64 = { "aa64", "handoffaa64.efi", "BOOTAA64.EFI", PE_MACHINE_AA64,
					     loaderaa64_find };

static const char default_loader_conf[] =
	"# handoff loader configuration (systemd-boot compatible), see handoff(1).\n"
	"# timeout N: seconds the menu waits (0: boot the default at once, a key opens the menu)\n"
	"timeout 3\n"
	"# default GLOB: entry id to boot, e.g. default debian-*\n"
	"editor no\n";

struct install_args {
	const char *esp;
	const char *boot;
	const char *loader_opt;
	bool force;
	bool variables;
	bool x64, ia32, aa64, arch_given;
	bool netboot;
	const char *server, *range;
	struct netconf net;
};

static int parse_args(int argc, char **argv, struct install_args *a)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "force", no_argument, NULL, 'f' },
		{ "variables", required_argument, NULL, 'V' }, { "loader", required_argument, NULL, 'l' },
		{ "arch", required_argument, NULL, 'a' }, { "boot", required_argument, NULL, 'b' },
		{ "netboot", no_argument, NULL, 'n' }, { "server", required_argument, NULL, 's' },
		{ "dhcp-range", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	/* the machine the tool runs on is the one whose ESP it is likely to be */
	a->x64 = !(a->aa64 = FW_ARCH_NATIVE == FW_AA64);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': a->esp = optarg; break;
		case 'f': a->force = true; break;
		case 'l': a->loader_opt = optarg; break;
		case 'b': a->boot = optarg; break;
		case 'a':
			a->aa64 = strcmp(optarg, "aa64") == 0;
			a->x64 = strcmp(optarg, "x64") == 0 || strcmp(optarg, "both") == 0;
			a->ia32 = strcmp(optarg, "ia32") == 0 || strcmp(optarg, "both") == 0;
			if (!a->aa64 && !a->x64 && !a->ia32)
				return tool_usage("--arch '%s': expected x64, ia32, aa64 or both", optarg);
			a->arch_given = true;
			break;
		case 'n': a->netboot = true; break;
		case 's': a->server = optarg; break;
		case 'r': a->range = optarg; break;
		case 'V':
			if (strcmp(optarg, "yes") != 0 && strcmp(optarg, "no") != 0)
				return tool_usage("--variables '%s': expected yes or no", optarg);
			a->variables = strcmp(optarg, "yes") == 0;
			break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (a->netboot && !a->arch_given)
		a->ia32 = a->x64 = true; /* a fleet's server serves both kinds of x86 firmware */
	if (a->netboot && (!a->esp || a->variables))
		return tool_usage("--netboot: give the server's tree with --esp DIR; no --variables");
	if (!a->netboot && (a->server || a->range))
		return tool_usage("--server and --dhcp-range are for --netboot");
	if (a->netboot)
		return netconf_parse(a->server, a->range, &a->net);
	if (a->x64 && a->ia32 && a->loader_opt)
		return tool_usage("--loader names one image: use it with --arch x64 or --arch ia32");
	return 0;
}

static void report(int r, const char *path)
{
	if (r > 0)
		printf("installed %s\n", path);
}

/* BOOTX64.EFI is ours to update when missing, already this loader, or the
 * previous handoff (same bytes as the old handoffx64.efi). */
static int install_fallback(const struct install_args *a, const char *path, const uint8_t *buf, size_t len,
			    const uint8_t *old, size_t old_len)
{
	uint8_t *cur;
	size_t cur_len;
	bool ours;
	int r;

	if (read_file_opt(path, TOOL_READ_MAX, &cur, &cur_len) < 0)
		return -1;
	ours = !cur || (cur_len == len && memcmp(cur, buf, len) == 0) ||
	       (old && cur_len == old_len && memcmp(cur, old, old_len) == 0);
	free(cur);
	if (!ours && !a->force) {
		tool_note("keeping %s: another boot loader is installed there (--force replaces it)", path);
		return 0;
	}
	r = install_file(path, buf, len, 0644);
	report(r, path);
	return r < 0 ? -1 : 0;
}

static int install_files(const struct install_args *a, const struct arch_files *arch, struct loader_src *src)
{
	char *hdir = path_join(a->esp, a->netboot ? "EFI/BOOT" : "EFI/handoff"), *bdir = path_join(a->esp, "EFI/BOOT");
	char *main_path = path_join(hdir, arch->main), *fb_path = path_join(bdir, arch->fallback);
	char *entries = path_join(a->esp, "loader/entries"), *conf = path_join(a->esp, "loader/loader.conf");
	uint8_t *old = NULL;
	size_t old_len = 0;
	int r = -1;

	if (mkdir_p(hdir, 0755) < 0 || mkdir_p(bdir, 0755) < 0 || mkdir_p(entries, 0755) < 0 ||
	    read_file_opt(main_path, TOOL_READ_MAX, &old, &old_len) < 0)
		goto out;
	/* signed when it must be; on a server the fallback is the copy that counts */
	if (loader_src_for(src, a->netboot ? fb_path : main_path, old, old_len) < 0 ||
	    install_fallback(a, fb_path, src->buf, src->len, old, old_len) < 0)
		goto out;
	r = a->netboot ? 0 : install_file(main_path, src->buf, src->len, 0644); /* no Boot#### names it on a server */
	report(r, main_path);
	if (r >= 0 && !is_file(conf)) {
		r = write_file_atomic(conf, default_loader_conf, strlen(default_loader_conf), 0644);
		if (r == 0)
			printf("created %s\n", conf);
	}
	if (r >= 0 && a->netboot)
		r = netlist_update(a->esp, /* create= */ true, NULL);
out:
	free(old);
	free(conf);
	free(entries);
	free(fb_path);
	free(main_path);
	free(bdir);
	free(hdir);
	return r < 0 ? -1 : 0;
}

/* Entries already in place in /boot (kernels installed before handoff, or a
 * new loader.conf): the loader reads them only from a partition loader.conf
 * names (README "Security"). Best effort: the kernel hooks say it again. */
static int name_boot_partition(const char *esp, const char *boot_opt)
{
	char *boot = boot_entries_dir(boot_opt, esp), *entries = boot ? path_join(boot, "loader/entries") : NULL;
	char *why = NULL, *comment;
	EFI_GUID uuid;
	int r = 0;

	if (!entries || !is_dir(entries))
		goto out;
	switch (boot_partition_uuid(boot, esp, &uuid, &why)) {
	case 1:
		comment = xasprintf("%s/loader/entries is on this partition (named by handoff install)", boot);
		r = loader_conf_name_partition(esp, &uuid, comment);
		free(comment);
		break;
	case 2:
	case -1:
		tool_note("%s", why);
		break;
	}
out:
	free(why);
	free(entries);
	free(boot);
	return r < 0 ? -1 : 0;
}

/* The Boot#### entry is for the loader the running firmware can start:
 * efivarfs's neighbour fw_platform_size says 32 or 64. */
static const struct arch_files *variables_arch(const struct install_args *a)
{
	if (a->aa64)
		return &arch_aa64;
	if (!a->x64 || !a->ia32)
		return a->ia32 ? &arch_ia32 : &arch_x64;
	return firmware_is_ia32() ? &arch_ia32 : &arch_x64;
}

int cmd_install(int argc, char **argv)
{
	struct install_args a = { 0 };
	struct loader_src x64 = { 0 }, ia32 = { 0 }, aa64 = { 0 };
	char *esp;
	int r = parse_args(argc, argv, &a);

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (!(esp = esp_locate(a.esp, /* quiet= */ false))) {
		netconf_free(&a.net);
		return EXIT_FAIL;
	}
	a.esp = esp;
	if (a.variables && !is_dir(efivars_dir())) {
		free(esp); /* not with --netboot: a.net is empty */
		return tool_fail("--variables yes: %s is missing (not booted with UEFI, or efivarfs not mounted)",
				 efivars_dir());
	}
	r = EXIT_FAIL;
	if ((!a.x64 || loader_src_load(a.loader_opt, arch_x64.find, arch_x64.machine, &x64) == 0) &&
	    (!a.ia32 || loader_src_load(a.loader_opt, arch_ia32.find, arch_ia32.machine, &ia32) == 0) &&
	    (!a.aa64 || loader_src_load(a.loader_opt, arch_aa64.find, arch_aa64.machine, &aa64) == 0) &&
	    (!a.x64 || install_files(&a, &arch_x64, &x64) == 0) &&
	    (!a.ia32 || install_files(&a, &arch_ia32, &ia32) == 0) &&
	    (!a.aa64 || install_files(&a, &arch_aa64, &aa64) == 0) &&
	    (a.netboot ? netconf_write(esp, &a.net) == 0
		       : (esp_record(esp) == 0 && name_boot_partition(esp, a.boot) == 0 &&
			  random_seed_install(esp, /* refresh= */ false) == 0)))
		r = a.variables ? efivar_add_boot_entry(a.esp, variables_arch(&a)->main) : EXIT_OK;
	loader_src_free(&x64);
	loader_src_free(&ia32);
	loader_src_free(&aa64);
	netconf_free(&a.net);
	free(esp);
	return r;
}
