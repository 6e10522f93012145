/* A unified kernel image in memory from files (uki_make.c): what `handoff
 * uki` writes and what `entry add` puts in ESP/EFI/Linux with layout=uki. */
#ifndef TOOL_UKI_MAKE_H
#define TOOL_UKI_MAKE_H

#include "pcr.h"
#include "core/uki.h"

#define UKI_MAX_INITRDS 32

struct uki_spec {
	const char *linux_path;
	const char *initrds[UKI_MAX_INITRDS];
	size_t n_initrds;
	const char *cmdline;           /* the text itself, or NULL */
	const char *os_release;        /* the text itself, or NULL */
	const char *os_release_name;   /* where it came from, for messages */
	const char *uname, *splash, *stub;
	const char *microcode;         /* .ucode: a cpio archive, or NULL */
	const char *pcr_key, *pcr_pub; /* signed PCR 11 policies when pcr_key is set */
	const struct pcr_opts *pcr;    /* pcr_opts_finish()ed */
	const struct uki_profile_input *profiles; /* after the base (core/uki.h), or none */
	size_t n_profiles;
	const char *out;               /* the output's name, for messages */
};

/**
 * uki_image() - the UKI of @s, unsigned: the stub's sections, then
 * .osrel ... .linux (src/core/uki.c), then the profiles, with .pcrpkey
 * and .pcrsig when @s->pcr_key is set: the base's .pcrsig signs the base
 * alone, each profile's the base with that profile (as ukify). Nothing is written. Return: 0 with *@ret (malloc'd,
 * *@ret_len bytes), or -1 (printed).
 */
int uki_image(const struct uki_spec *s, uint8_t **ret, size_t *ret_len);

/**
 * uki_stub_find() - the stub for a UKI of the kernel @linux_path: @opt
 * (--stub) when given (uki_image() then refuses one for another machine),
 * else the one for the kernel's machine: handoff-stubaa64.efi for an arm64
 * Image, handoff-stub.efi otherwise (stub_find(), stubaa64_find()).
 * Return: a malloc'd path, or NULL (printed).
 */
char *uki_stub_find(const char *opt, const char *linux_path);

#endif
