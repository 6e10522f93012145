/* SMBIOS (DMTF DSP0134 3.x): the entry points the firmware publishes as
 * configuration tables (UEFI 2.10 §4.6.1), the structure table they name,
 * and the OEM strings (type 11) a VM's host sets, from which the loader and
 * the stub take systemd's io.systemd.{boot,stub}.kernel-cmdline-extra
 * (man systemd-boot, systemd-stub: "SMBIOS Type 11 Strings"). */
#ifndef CORE_SMBIOS_H
#define CORE_SMBIOS_H

#include "platform.h"

/* DSP0134 §5.2.1 (SMBIOS 2.1, "_SM_") and §5.2.2 (SMBIOS 3.0, "_SM3_") */
#define SMBIOS_TABLE_LENGTH 0x16     /* u16 */
#define SMBIOS_TABLE_ADDRESS 0x18    /* u32 */
#define SMBIOS_EP_MIN 0x1e           /* 2.1 says 0x1f; firmware of its errata wrote 0x1e */
#define SMBIOS3_TABLE_MAX_SIZE 0x0c  /* u32 */
#define SMBIOS3_TABLE_ADDRESS 0x10   /* u64 */
#define SMBIOS3_EP_MIN 0x18
#define SMBIOS_GUID_DATA1 0xeb9d2d31u  /* SMBIOS_TABLE_GUID, UEFI 2.10 §4.6.1 */
#define SMBIOS3_GUID_DATA1 0xf2fd1544u /* SMBIOS3_TABLE_GUID */
#define SMBIOS_TYPE_OEM_STRINGS 11     /* DSP0134 §7.12 */
#define SMBIOS_TYPE_END 127            /* §7.46 */

#define SMBIOS_BOOT_CMDLINE_EXTRA "io.systemd.boot.kernel-cmdline-extra="
#define SMBIOS_STUB_CMDLINE_EXTRA "io.systemd.stub.kernel-cmdline-extra="

/**
 * smbios_entry_point() - where the structure table an entry point names is.
 * @ep: the entry point (a configuration table's VendorTable); @avail: bytes
 * that may be read there; @v3: SMBIOS3_TABLE_GUID's ("_SM3_") rather than
 * SMBIOS_TABLE_GUID's ("_SM_" with "_DMI_" at 0x10).
 * Checked: the anchors, the entry point's own length (at least what the
 * fields read need, at most @avail), a table that is not empty and whose
 * end fits in an address of this build.
 * Return: true with *@ret_addr and *@ret_size (for SMBIOS 3 its maximum size).
 */
bool smbios_entry_point(const uint8_t *ep, size_t avail, bool v3, uint64_t *ret_addr, uint32_t *ret_size);

/**
 * smbios_oem_string() - the first OEM string (type 11, in table order, every
 * type 11 structure) that starts with @prefix: the rest of that string.
 * @table, @size: the structure table. The walk stops, finding nothing more,
 * at the end-of-table structure (type 127), at a structure whose formatted
 * area is shorter than its 4-byte header or passes @size, and at a string
 * set that has no terminating double NUL before @size.
 * Return: the value (NUL-terminated inside @table) with its length in
 * *@ret_len, or NULL.
 */
const char *smbios_oem_string(const uint8_t *table, size_t size, const char *prefix, size_t *ret_len);

/**
 * smbios_cmdline_extra() - @value as systemd-stub mangles a command line
 * (mangle_stub_cmdline()): leading and trailing blanks and control
 * characters dropped, the inner ones (below 0x20, 0x7f) turned into spaces.
 * Return: a mem_alloc'd line; NULL when nothing is left, when it is not
 * well-formed UTF-8 (logged, naming @what) or without memory.
 */
char *smbios_cmdline_extra(const char *value, size_t len, const char *what);

#endif
