/* /etc/handoff/handoff.conf: how the kernel hooks lay out boot entries and
 * which keys sign what handoff writes to the ESP (handoff(1) "FILES"). One
 * "key=value" per line: layout=bls|uki, sign-key=, sign-cert= (Secure Boot,
 * by sbsign: the UKIs and the loader), pcr-private-key=, pcr-public-key=
 * (signed PCR 11 policies in the UKIs). kernel-install's own install.conf
 * may say layout=uki too; handoff.conf wins. */
#ifndef TOOL_HANDOFF_CONF_H
#define TOOL_HANDOFF_CONF_H

#include "tool.h"

#define HANDOFF_CONF_NAME "handoff.conf"

struct handoff_conf {
	bool uki;                /* layout=uki: one UKI per kernel in ESP/EFI/Linux */
	char *layout_from;       /* the file that chose the layout (NULL: the default, bls) */
	char *path;              /* handoff.conf's path, for messages */
	char *sign_key, *sign_cert;
	char *pcr_private_key, *pcr_public_key;
};

/** conf_dir() - /etc/handoff ($HANDOFF_CONF_DIR in tests). */
const char *conf_dir(void);

/**
 * handoff_conf_load() - handoff.conf (missing: all defaults) and, for the
 * layout, kernel-install's install.conf ($KERNEL_INSTALL_CONF_ROOT, else
 * /etc/kernel, else /usr/lib/kernel). A malformed line, an unknown key or
 * value, a relative path, sign-key without sign-cert (or the other way
 * round), pcr-public-key without pcr-private-key: an error naming the file
 * and line, since a hook that quietly wrote an unsigned image would leave a
 * machine that Secure Boot refuses. Return: 0, or -1 (printed).
 */
int handoff_conf_load(struct handoff_conf *ret);
void handoff_conf_free(struct handoff_conf *c);

/** handoff_conf_signs() - sign-key and sign-cert are set. */
bool handoff_conf_signs(const struct handoff_conf *c);

/**
 * handoff_conf_set() - set @key to @value in handoff.conf (text_set_setting():
 * the file's other lines, comments included, stay; created when missing).
 * Return: 0 or -1 (printed).
 */
int handoff_conf_set(const char *key, const char *value);

#endif
