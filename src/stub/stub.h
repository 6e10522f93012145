/* handoff's EFI stub: the image side. A PE file (a UKI, or a bzImage wrapped
 * by `handoff wrap`) whose sections carry a kernel and what it needs. */
#ifndef STUB_H
#define STUB_H

#include "efi/boot.h"
#include "core/uki.h"

struct blob {
	const uint8_t *data;
	size_t size;
};

struct stub_sections {
	struct blob linux;    /* the kernel of a UKI (.linux) */
	bool wrapped;         /* `handoff wrap`: the kernel is @head + @body, its PE header this stub's own */
	struct blob head, body;
	struct blob initrd;
	struct blob cmdline;
	bool has_cmdline;
	struct uki_sections uki;  /* a UKI's sections (none for a wrapped kernel), for PCR 11 */
};

/** stub_find_sections() - locate the sections in the loaded image (by RVA). */
EFI_STATUS stub_find_sections(const EFI_LOADED_IMAGE_PROTOCOL *li, struct stub_sections *ret);

/**
 * stub_measure_sections() - a UKI's sections into PCR 11 as systemd-stub
 * does: for each present section but .pcrsig, in the UKI specification's
 * order, its name (ASCII with NUL), then its contents, as EV_IPL events;
 * the order and the rule are uki_measure_sections()'s, which the signed PCR
 * policies of `handoff uki` are computed with.
 * Return: EFI_SUCCESS, or why one could not be measured (logged): not booted.
 */
EFI_STATUS stub_measure_sections(const struct stub_sections *s);

#endif
