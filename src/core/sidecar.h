/* Credentials and extension images beside a UKI, as systemd-stub hands them
 * to the initrd (man systemd-stub, "Companion Files"; its
 * generate_sidecar_initrds()): which files, in which /.extra directory of
 * which cpio archive, with which modes, measured into which PCR under which
 * description. The stub reads the files (src/efi/uki_sidecars.c); what is
 * taken and how it is packed and measured is decided here. */
#ifndef CORE_SIDECAR_H
#define CORE_SIDECAR_H

#include "platform.h"
#include <efi/efi.h>

/* In the order systemd-stub appends the archives to the initrd. */
enum sidecar_kind {
	SIDECAR_CREDENTIALS,        /* <UKI>.extra.d\*.cred */
	SIDECAR_GLOBAL_CREDENTIALS, /* \loader\credentials\*.cred */
	SIDECAR_SYSEXT,             /* <UKI>.extra.d\*.raw but *.confext.raw */
	SIDECAR_CONFEXT,            /* <UKI>.extra.d\*.confext.raw */
	_SIDECAR_MAX,
};

struct sidecar_spec {
	const char *dir;      /* on the UKI's volume; NULL: the UKI's own <path>.extra.d */
	const char *suffix;   /* taken: names ending so (any case) */
	const char *exclude;  /* NULL, or left out: names ending so (any case) */
	const char *target;   /* the archive's directory in the initrd */
	uint32_t dir_mode, file_mode;
	uint32_t pcr;         /* the archive, whole, as one EV_IPL event */
	const char *desc;     /* that event's description (UTF-16 with NUL in the log) */
};

#define SIDECAR_DIR_SUFFIX ".extra.d"
#define SIDECAR_PCR_SYSEXTS 13 /* systemd's TPM2_PCR_SYSEXTS (UAPI "Linux TPM PCR Registry") */

/** sidecar_spec() - the rules for @kind; NULL when out of range. */
const struct sidecar_spec *sidecar_spec(enum sidecar_kind kind);

/**
 * sidecar_takes() - does @kind take the file @name (UTF-8, as listed,
 * already matched on @kind's suffix)? As systemd-stub's pack_cpio(): not a
 * hidden file, not ending in the exclusion, ASCII only (the archive's names
 * are bytes), at most 255 bytes (Linux's NAME_MAX).
 */
bool sidecar_takes(enum sidecar_kind kind, const char *name);

#endif
