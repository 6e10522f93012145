/* UKI addons (src/core/addon.h): reading one as systemd-stub does
 * (src/boot/efi/stub.c load_addons(): no .linux, a .cmdline, a matching
 * .uname), joining lines, and building a minimal one. */
#include "addon.h"
#include "cmdline.h"
#include "log.h"
#include "pe_write.h"
#include "uki.h"

static size_t trimmed(const uint8_t *s, size_t n)
{
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t' || !s[n - 1]))
		n--;
	return n;
}

static const uint8_t *section(const struct pe_info *pe, const char *sname, const uint8_t *buf, size_t len,
			      enum pe_layout layout, size_t *ret_size)
{
	const struct pe_section *s = pe_find_section(pe, sname);

	*ret_size = 0;
	return s ? pe_section_data(s, buf, len, layout, ret_size) : NULL;
}

EFI_STATUS addon_parse(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout,
		       const char *uname, const char *name, char **ret)
{
	const uint8_t *cmdline, *own_uname, *nul;
	size_t n, uname_size;
	EFI_STATUS err;
	char *s;

	if (pe_find_section(pe, ".linux"))
		return log_error_status(EFI_UNSUPPORTED, "%s: has a .linux section: a UKI, not an addon, ignored",
					name);
	cmdline = section(pe, ".cmdline", buf, len, layout, &n);
	if (!cmdline)
		return log_error_status(EFI_UNSUPPORTED, "%s: no .cmdline section, ignored", name);
	own_uname = section(pe, ".uname", buf, len, layout, &uname_size);
	uname_size = own_uname ? trimmed(own_uname, uname_size) : 0;
	if (own_uname && uname && (strlen(uname) != uname_size || memcmp(uname, own_uname, uname_size) != 0))
		return log_error_status(EFI_UNSUPPORTED, "%s: its .uname \"%.*s\" is not the UKI's \"%s\", ignored",
					name, (int)MIN(uname_size, (size_t)64), (const char *)own_uname, uname);
	/* up to a NUL, as systemd-stub reads it (xstrn8_to_16()), then without trailing blanks */
	nul = memchr(cmdline, 0, n);
	n = trimmed(cmdline, nul ? (size_t)(nul - cmdline) : n);
	err = cmdline_check((const char *)cmdline, n, name);
	if (EFI_ERROR(err))
		return err;
	s = mem_alloc(n + 1);
	if (!s)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", name);
	memcpy(s, cmdline, n);
	s[n] = 0;
	*ret = s;
	return EFI_SUCCESS;
}

char *addon_join(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	bool space = na && nb;
	char *s = mem_alloc(na + space + nb + 1);

	if (!s)
		return NULL;
	memcpy(s, a, na);
	s[na] = ' ';
	memcpy(s + na + space, b, nb + 1);
	return s;
}
