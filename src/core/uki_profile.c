/* The sections of a UKI as one of its profiles sees them (UAPI.5 "UKI
 * Components", "Multi-Profile UKIs"; systemd-stub(7)): the base (before the
 * first .profile), overridden section by section by the chosen profile's,
 * and the "@N" by which a loader chooses the profile (systemd-boot(7)). */
#include "uki.h"
#include "log.h"

static int uki_lookup(const char *section_name)
{
	for (int i = 0; i < _UKI_SECTION_MAX; i++)
		if (strcmp(uki_section_name((enum uki_section)i), section_name) == 0)
			return i;
	return -1;
}

/* The range section @s opens or continues: UKI_PROFILE_BASE, then 0, 1, ... */
static uint32_t next_range(uint32_t range, const struct pe_section *s)
{
	if (strcmp(s->name, ".profile") != 0)
		return range;
	return range == UKI_PROFILE_BASE ? 0 : range + 1;
}

static EFI_STATUS take_section(struct uki_sections *u, const struct pe_section *s, const uint8_t *buf, size_t len,
			       enum pe_layout layout, const char *name)
{
	int id = uki_lookup(s->name);

	if (id < 0)
		return EFI_SUCCESS;
	if (u->s[id].data) {
		if (id == UKI_DTB)
			return EFI_SUCCESS;
		return log_error_status(EFI_LOAD_ERROR, "%s: section %s appears twice", name, s->name);
	}
	u->s[id].data = pe_section_data(s, buf, len, layout, &u->s[id].size);
	if (!u->s[id].data)
		return log_error_status(EFI_LOAD_ERROR, "%s: section %s lies outside the image", name, s->name);
	return EFI_SUCCESS;
}

EFI_STATUS uki_parse_profile(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout,
			     const char *name, uint32_t profile, struct uki_sections *ret)
{
	struct uki_sections base, own;
	uint32_t range = UKI_PROFILE_BASE;
	bool found = profile == UKI_PROFILE_BASE;
	EFI_STATUS err = EFI_SUCCESS;

	memset(&base, 0, sizeof(base));
	memset(&own, 0, sizeof(own));
	for (uint32_t i = 0; i < pe->n_sections && !EFI_ERROR(err); i++) {
		range = next_range(range, &pe->sections[i]);
		if (range == profile)
			found = true;
		if (range == UKI_PROFILE_BASE)
			err = take_section(&base, &pe->sections[i], buf, len, layout, name);
		else if (range == profile)
			err = take_section(&own, &pe->sections[i], buf, len, layout, name);
	}
	if (EFI_ERROR(err))
		return err;
	/* profile 0 is implied when there is no .profile (systemd-stub) */
	if (!found && profile > 0)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: profile %u asked for, the image has %u", name,
					profile, uki_profile_count(pe));
	for (int id = 0; id < _UKI_SECTION_MAX && profile != UKI_PROFILE_BASE; id++)
		if (own.s[id].data)
			base.s[id] = own.s[id];
	if (!base.s[UKI_LINUX].data) {
		log_debug("%s: no .linux section: not a unified kernel image", name);
		return EFI_NOT_FOUND;
	}
	*ret = base;
	return EFI_SUCCESS;
}

EFI_STATUS uki_parse(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout, const char *name,
		     struct uki_sections *ret)
{
	return uki_parse_profile(pe, buf, len, layout, name, 0, ret);
}

uint32_t uki_profile_count(const struct pe_info *pe)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < pe->n_sections; i++)
		n += strcmp(pe->sections[i].name, ".profile") == 0;
	return n;
}

int uki_profile_find(const struct pe_info *pe, uint32_t profile, const char *section)
{
	uint32_t range = UKI_PROFILE_BASE;
	int base = -1;

	for (uint32_t i = 0; i < pe->n_sections; i++) {
		range = next_range(range, &pe->sections[i]);
		if (strcmp(pe->sections[i].name, section) != 0)
			continue;
		if (range == profile)
			return (int)i;
		if (range == UKI_PROFILE_BASE && base < 0)
			base = (int)i;
	}
	return base;
}

uint32_t uki_profile_from_options(const uint8_t **opts, size_t *size)
{
	const uint8_t *p = *opts;
	size_t n = *size / 2, i = 1;
	uint64_t v = 0;

	/* UTF-16LE: a character is p[2i] | p[2i+1] << 8; digits and '@' are ASCII */
	if (n < 2 || p[0] != '@' || p[1] != 0)
		return 0;
	for (; i < n && p[2 * i + 1] == 0 && p[2 * i] >= '0' && p[2 * i] <= '9'; i++) {
		v = v * 10 + (uint32_t)(p[2 * i] - '0');
		if (v >= UKI_PROFILE_BASE)
			return 0;
	}
	if (i == 1)
		return 0;
	if (i < n && !(p[2 * i + 1] == 0 && (p[2 * i] == ' ' || p[2 * i] == 0)))
		return 0; /* "@1x": not a profile (systemd-stub) */
	if (i < n && p[2 * i] == ' ')
		i++; /* exactly one space goes with it */
	*opts = p + 2 * i;
	*size -= 2 * i;
	return (uint32_t)v;
}
