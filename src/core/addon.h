/* UKI addons (systemd-stub 254+, man systemd-stub "*.addon.efi"): PE images
 * beside a UKI (<uki>.extra.d/) or for all UKIs (\loader\addons\) whose
 * .cmdline is appended to the UKI's command line. They are verified like
 * any image (the firmware's LoadImage, or shim) and never run: only their
 * sections are read. This file reads one (addon_parse()), joins the lines as
 * systemd-stub does, and builds one for `handoff addon` (addon_build()). */
#ifndef CORE_ADDON_H
#define CORE_ADDON_H

#include "pe.h"

#define ADDON_SUFFIX ".addon.efi"
#define ADDON_GLOBAL_DIR "\\loader\\addons"
#define ADDON_UKI_DIR_SUFFIX ".extra.d" /* "<the UKI's own path>.extra.d" */

/**
 * addon_parse() - the command line an addon adds, from its .cmdline.
 * @pe, @buf, @len, @layout: the addon as pe_parse() or pe_parse_loaded()
 * read it; @uname: the UKI's .uname (NULL: none), which an addon's .uname
 * must equal; @name: the addon's file, for messages.
 * Refused (logged naming @name and the reason, the addon is then ignored):
 * a .linux section (a UKI, not an addon), no .cmdline, another .uname, a
 * .cmdline that is not one line of UTF-8 (cmdline_check(), as a UKI's own).
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd, trailing blanks and line ends
 * dropped; may be ""), or EFI_UNSUPPORTED / EFI_LOAD_ERROR / EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS addon_parse(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout,
		       const char *uname, const char *name, char **ret);

/**
 * addon_join() - @a, a space, then @b, leaving out the space when either is
 * empty: how systemd-stub joins the addons' lines to one another and to the
 * UKI's command line.
 * Return: a mem_alloc'd string, NULL without memory.
 */
char *addon_join(const char *a, const char *b);

/**
 * addon_build() - a minimal x86-64 EFI application carrying @cmdline as
 * .cmdline (trailing blanks and line ends dropped; one line of UTF-8), @sbat
 * as .sbat (NULL: handoff's own, UKI_SBAT_DEFAULT) and, when given, @uname as
 * .uname; its one code section makes its entry point return EFI_UNSUPPORTED,
 * should anyone start it. Headers and checksum are consistent for sbsign.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_len, or why not (logged).
 */
EFI_STATUS addon_build(const char *cmdline, const char *sbat, const char *uname, uint8_t **ret, size_t *ret_len);

#endif
