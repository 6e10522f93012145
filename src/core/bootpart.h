/* Which partitions of the boot disk may supply boot entries (README
 * "Security: what a hostile disk can and cannot do"): besides the ESP handoff
 * was started from (always read, not decided here), an XBOOTLDR partition
 * (UAPI.1 Boot Loader Specification, "The Partitions") and a partition the
 * ESP's loader.conf names with "boot-partition PARTUUID" (Debian's ext4
 * /boot, where the kernels stay). No other partition is read. */
#ifndef CORE_BOOTPART_H
#define CORE_BOOTPART_H

#include "platform.h"
#include <efi/efi.h>

enum bootpart {
	BOOTPART_IGNORED,   /* not read: a /tmp or /home any user may write to must not add entries */
	BOOTPART_XBOOTLDR,  /* GPT type XBOOTLDR (bc13c2ff-59e6-4262-a352-b275fd6f7172) */
	BOOTPART_NAMED,     /* its PARTUUID is named by loader.conf's boot-partition */
};

/* What the firmware says of a partition. */
struct bootpart_facts {
	const EFI_GUID *part_uuid; /* its unique partition GUID (PARTUUID); NULL: not a GPT partition */
	const EFI_GUID *type;      /* its GPT partition type; NULL: the firmware does not tell */
};

/**
 * bootpart_classify() - whether the partition @f may supply entries, given the
 * @n_named PARTUUIDs of loader.conf's boot-partition lines (@named).
 * Return: BOOTPART_NAMED when named (whatever its type), else BOOTPART_XBOOTLDR
 * for that type, else BOOTPART_IGNORED (also when nothing is known of it).
 */
enum bootpart bootpart_classify(const struct bootpart_facts *f, const EFI_GUID *named, size_t n_named);

#endif
