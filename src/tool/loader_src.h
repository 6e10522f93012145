/* The loader image install and update write to the ESP (loader_src.c):
 * the shipped FILE.signed when it sits beside FILE (systemd-boot's
 * convention for distribution-signed binaries), else FILE, signed with the
 * keys of /etc/handoff/handoff.conf when they are set; and the rule that a
 * signed loader on the ESP is never replaced by an unsigned one (Secure
 * Boot would refuse the next boot). */
#ifndef TOOL_LOADER_SRC_H
#define TOOL_LOADER_SRC_H

#include "pe_verify.h"
#include "tool.h"

struct loader_src {
	uint8_t *buf;
	size_t len;
	char *path;            /* where it was read: FILE or FILE.signed */
	enum pe_sig_state sig; /* its Authenticode signature, trusted when by handoff.conf's sign-cert= */
};

/**
 * loader_src_load() - the image @find(@opt) names (--loader FILE, else the
 * shipped one), or, without --loader, FILE.signed when it exists, its
 * signature verifies and, with handoff.conf's keys set, is theirs (else it
 * is not used, saying why); checked to be an EFI application for @machine.
 * Return: 0, or -1 (printed).
 */
int loader_src_load(const char *opt, char *(*find)(const char *opt), uint16_t machine, struct loader_src *ret);

/**
 * loader_src_for() - make @src what goes over @old (@old_len bytes, NULL:
 * nothing installed) at @dest. With handoff.conf's sign-key= and sign-cert=
 * set: @old itself when it is the same image signed by them (a second run
 * changes nothing), else @src signed by them (any other signature removed
 * first: a rotated-out key, a distribution's). Without: @old when it is the
 * same image with a signature that verifies, else @src. A signed @old and an
 * unsigned result: refused, saying what to configure. Return: 0, or -1
 * (printed).
 */
int loader_src_for(struct loader_src *src, const char *dest, const uint8_t *old, size_t old_len);

void loader_src_free(struct loader_src *src);

/**
 * loader_update_all() - what `handoff update --esp @esp [--loader @loader_opt]`
 * does (cmd_update.c): each installed loader word size replaced by this
 * version's, signed as loader_src_for() decides. Return: how many word
 * sizes are installed, or -1 (printed).
 */
int loader_update_all(const char *esp, const char *loader_opt);

#endif
