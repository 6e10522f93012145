/* handoff uki: a unified kernel image (UAPI.5) from handoff-stub.efi and a
 * bzImage (or handoff-stubaa64.efi and an arm64 Image), initrds, a command
 * line and os-release. The sections are laid out
 * by src/core/uki.c; the output replaces OUT only when it is complete. With
 * --pcr-private-key it carries signed PCR 11 policies (.pcrpkey, .pcrsig; see
 * pcr.h). With --sign-key/--sign-cert the image is signed (Authenticode),
 * last, by sbsign from sbsigntool, run as mkfs.vfat is by `handoff disk`.
 * The image is built in memory by uki_make.c. */
#include "sign.h"
#include "uki_make.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
	"Usage: handoff uki --linux FILE [--initrd FILE]... [--cmdline TEXT|@FILE]\n"
	"                   [--os-release FILE|@TEXT] [--uname TEXT] [--splash BMP] [--microcode CPIO]\n"
	"                   [--stub FILE] [--profile TEXT|@FILE [--profile-cmdline TEXT|@FILE]]...\n"
	"                   [--pcr-private-key KEY [--pcr-public-key PUB] [--pcr-banks LIST] [--phases LIST]]\n"
	"                   [--sign-key KEY --sign-cert CERT] -o OUT.efi\n\n"
	"Build a unified kernel image: handoff's EFI stub with .osrel, .cmdline, .uname,\n"
	".splash, .sbat, .pcrpkey, .pcrsig, .ucode, .initrd (all initrds, each 4-byte\n"
	"aligned)\n"
	"and .linux sections. With --pcr-private-key, .pcrsig holds PCR 11 policies\n"
	"signed for the image as its stub measures it (systemd-measure's format), for\n"
	"systemd-cryptenroll --tpm2-public-key.\n"
	"It boots by itself from firmware, systemd-boot or handoff, by the kernel's own\n"
	"EFI stub when it has one, else by handover or legacy boot.\n\n"
	"  --linux FILE          the kernel (bzImage, boot protocol 2.12+, 64-bit; or an arm64\n"
	"                        Image with its EFI stub, for AArch64)\n"
	"  --initrd FILE         repeatable, concatenated in order\n"
	"  --cmdline TEXT|@FILE  the command line (LoadOptions override it only with Secure Boot off)\n"
	"  --os-release FILE|@TEXT  os-release for the menu title (default: from the kernel version)\n"
	"  --uname TEXT          kernel release (default: from the kernel's version string)\n"
	"  --splash BMP          boot splash image\n"
	"  --microcode CPIO      .ucode: CPU microcode as an uncompressed cpio archive\n"
	"                        (kernel/x86/microcode/*.bin), handed to the kernel first\n"
	"  --stub FILE           the stub, for the kernel's machine (default: handoff-stub.efi,\n"
	"                        or handoff-stubaa64.efi for an arm64 Image, beside the tool)\n"
	"  --profile TEXT|@FILE  repeatable: a profile of a multi-profile UKI, its .profile\n"
	"                        os-release lines ID= and TITLE=; profile 0 is the first one\n"
	"  --profile-cmdline TEXT|@FILE  the .cmdline of the last --profile (default: --cmdline)\n"
	"  --pcr-private-key KEY sign PCR 11 policies with this PEM key (RSA or EC): .pcrsig\n"
	"  --pcr-public-key PUB  its PEM public key, checked and stored as .pcrpkey (default: from KEY)\n"
	"  --pcr-banks LIST      PCR banks to sign for: sha1, sha256, sha384, sha512 (default sha256)\n"
	"  --phases LIST         boot phase paths to sign for, e.g. enter-initrd:leave-initrd (default:\n"
	"                        enter-initrd and each later phase up to ready, as systemd-measure)\n"
	"  --sign-key KEY        sign for Secure Boot with this PEM private key (runs sbsign)\n"
	"  --sign-cert CERT      ... and this PEM certificate; both or neither\n"
	"  -o, --output OUT.efi  where to write the image\n";

struct uki_args {
	const char *linux_path, *cmdline, *os_release, *uname, *splash, *microcode, *stub, *out, *sign_key, *sign_cert;
	const char *initrds[UKI_MAX_INITRDS];
	size_t n_initrds;
	const char *pcr_key, *pcr_pub;
	struct pcr_opts pcr;
	const char *profiles[UKI_PROFILES_MAX], *profile_cmdlines[UKI_PROFILES_MAX];
	size_t n_profiles;
};

enum { OPT_PCR_KEY = 0x100, OPT_PCR_PUB, OPT_PCR_BANKS, OPT_PHASES, OPT_MICROCODE, OPT_PROFILE, OPT_PROFILE_CMDLINE };

static int add_profile(struct uki_args *a, int c, const char *arg)
{
	if (c == OPT_PROFILE_CMDLINE) {
		if (a->n_profiles == 0 || a->profile_cmdlines[a->n_profiles - 1])
			return tool_usage("--profile-cmdline goes once after each --profile");
		a->profile_cmdlines[a->n_profiles - 1] = arg;
		return 0;
	}
	if (a->n_profiles == UKI_PROFILES_MAX)
		return tool_usage("at most %u --profile", UKI_PROFILES_MAX);
	a->profiles[a->n_profiles++] = arg;
	return 0;
}

static int parse_args(int argc, char **argv, struct uki_args *a)
{
	static const struct option opts[] = {
		{ "linux", required_argument, NULL, 'l' }, { "initrd", required_argument, NULL, 'i' },
		{ "cmdline", required_argument, NULL, 'c' }, { "os-release", required_argument, NULL, 'r' },
		{ "uname", required_argument, NULL, 'u' }, { "splash", required_argument, NULL, 's' },
		{ "stub", required_argument, NULL, 'S' }, { "output", required_argument, NULL, 'o' },
		{ "sign-key", required_argument, NULL, 'K' }, { "sign-cert", required_argument, NULL, 'C' },
		{ "pcr-private-key", required_argument, NULL, OPT_PCR_KEY },
		{ "pcr-public-key", required_argument, NULL, OPT_PCR_PUB },
		{ "pcr-banks", required_argument, NULL, OPT_PCR_BANKS },
		{ "phases", required_argument, NULL, OPT_PHASES },
		{ "microcode", required_argument, NULL, OPT_MICROCODE },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "profile-cmdline", required_argument, NULL, OPT_PROFILE_CMDLINE },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c, r = 0;

	opterr = 0;
	while (r == 0 && (c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'l': a->linux_path = optarg; break;
		case 'i':
			if (a->n_initrds == UKI_MAX_INITRDS)
				return tool_usage("at most %d --initrd", UKI_MAX_INITRDS);
			a->initrds[a->n_initrds++] = optarg;
			break;
		case 'c': a->cmdline = optarg; break;
		case 'r': a->os_release = optarg; break;
		case 'u': a->uname = optarg; break;
		case 's': a->splash = optarg; break;
		case 'S': a->stub = optarg; break;
		case 'o': a->out = optarg; break;
		case 'K': a->sign_key = optarg; break;
		case 'C': a->sign_cert = optarg; break;
		case OPT_PCR_KEY: a->pcr_key = optarg; break;
		case OPT_PCR_PUB: a->pcr_pub = optarg; break;
		case OPT_PCR_BANKS: r = pcr_opts_add_banks(&a->pcr, optarg); break;
		case OPT_PHASES: r = pcr_opts_add_phases(&a->pcr, optarg); break;
		case OPT_MICROCODE: a->microcode = optarg; break;
		case OPT_PROFILE:
		case OPT_PROFILE_CMDLINE: r = add_profile(a, c, optarg); break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (r)
		return r;
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (!a->linux_path || !a->out)
		return tool_usage("--linux FILE and -o OUT.efi are required");
	if (!a->sign_key != !a->sign_cert)
		return tool_usage("--sign-key and --sign-cert go together");
	if (!a->pcr_key && (a->pcr_pub || a->pcr.given))
		return tool_usage("--pcr-public-key, --pcr-banks and --phases go with --pcr-private-key");
	return pcr_opts_finish(&a->pcr);
}

/* "@FILE" reads a file, anything else is the text itself (as ukify). For
 * --os-release the sense is the other way round: FILE, or @TEXT. */
static int text_arg(const char *arg, bool at_means_file, char **ret)
{
	uint8_t *buf;
	size_t len;

	if (!arg)
		return *ret = NULL, 0;
	if ((arg[0] == '@') == at_means_file) {
		if (read_file(arg + (at_means_file ? 1 : 0), TOOL_READ_MAX, &buf, &len) < 0)
			return -1;
		*ret = (char *)buf; /* read_file NUL-terminates */
		return 0;
	}
	*ret = xstrdup(arg + (at_means_file ? 0 : 1));
	return 0;
}


/* The --profile texts and their command lines, read; freed by free_profiles(). */
static int read_profiles(const struct uki_args *a, struct uki_profile_input *p)
{
	for (size_t i = 0; i < a->n_profiles; i++)
		if (text_arg(a->profiles[i], true, (char **)&p[i].profile) < 0 ||
		    text_arg(a->profile_cmdlines[i], true, (char **)&p[i].cmdline) < 0)
			return -1;
	return 0;
}

static void free_profiles(struct uki_profile_input *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((void *)p[i].profile);
		free((void *)p[i].cmdline);
	}
	free(p);
}

static int build(const struct uki_args *a, const char *stub)
{
	struct uki_spec spec = { .linux_path = a->linux_path, .n_initrds = a->n_initrds,
				 .os_release_name = a->os_release, .uname = a->uname, .splash = a->splash,
				 .microcode = a->microcode,
				 .stub = stub, .pcr_key = a->pcr_key,
				 .pcr_pub = a->pcr_pub, .pcr = &a->pcr, .out = a->out };
	char *cmdline = NULL, *osrel = NULL;
	struct uki_profile_input *profiles = xmalloc((a->n_profiles + 1) * sizeof(*profiles));
	uint8_t *out = NULL;
	size_t out_len = 0;
	int r = -1;

	memset(profiles, 0, (a->n_profiles + 1) * sizeof(*profiles));
	memcpy(spec.initrds, a->initrds, sizeof(a->initrds));
	spec.profiles = profiles;
	spec.n_profiles = a->n_profiles;
	if (text_arg(a->cmdline, true, &cmdline) < 0 || text_arg(a->os_release, false, &osrel) < 0 ||
	    read_profiles(a, profiles) < 0)
		goto out;
	spec.cmdline = cmdline;
	spec.os_release = osrel;
	if (uki_image(&spec, &out, &out_len) < 0)
		goto out; /* nothing was written */
	r = write_image_signed(a->out, a->sign_key, a->sign_cert, out, out_len);
	if (r == 0 && a->pcr_key)
		printf("signed PCR 11 policies for %zu phase%s (%zu bank%s)%s\n", a->pcr.phases.n,
		       a->pcr.phases.n == 1 ? "" : "s", a->pcr.n_banks, a->pcr.n_banks == 1 ? "" : "s",
		       a->n_profiles ? ", for the base and each profile" : "");
	if (r == 0)
		printf("wrote %s (%zu bytes%s)\n", a->out, out_len, a->sign_key ? ", then signed" : "");
out:
	free_profiles(profiles, a->n_profiles);
	free(cmdline);
	free(osrel);
	free(out);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

int cmd_uki(int argc, char **argv)
{
	struct uki_args a = { 0 };
	char *stub;
	int r = parse_args(argc, argv, &a);

	if (r == 0) {
		stub = uki_stub_find(a.stub, a.linux_path);
		r = stub ? build(&a, stub) : EXIT_FAIL;
		free(stub);
	}
	pcr_opts_free(&a.pcr);
	return r < 0 ? EXIT_OK : r;
}
