/* Rendering of an inspect_result: JSON (stable keys, numbers as integers)
 * and a text report. Flag names are boot.rst's (loadflags, xloadflags). */
#include "inspect.h"
#include "json.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flag_name {
	uint32_t bit;
	const char *name;
};

static const struct flag_name loadflag_names[] = {
	{ LOADED_HIGH, "LOADED_HIGH" }, { KASLR_FLAG, "KASLR_FLAG" }, { QUIET_FLAG, "QUIET_FLAG" },
	{ KEEP_SEGMENTS, "KEEP_SEGMENTS" }, { CAN_USE_HEAP, "CAN_USE_HEAP" },
};

static const struct flag_name xloadflag_names[] = {
	{ XLF_KERNEL_64, "XLF_KERNEL_64" }, { XLF_CAN_BE_LOADED_ABOVE_4G, "XLF_CAN_BE_LOADED_ABOVE_4G" },
	{ XLF_EFI_HANDOVER_32, "XLF_EFI_HANDOVER_32" }, { XLF_EFI_HANDOVER_64, "XLF_EFI_HANDOVER_64" },
	{ XLF_EFI_KEXEC, "XLF_EFI_KEXEC" }, { XLF_5LEVEL, "XLF_5LEVEL" }, { XLF_5LEVEL_ENABLED, "XLF_5LEVEL_ENABLED" },
};

static const enum boot_scheme schemes[] = { SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };

static const char *machine_name(uint16_t m)
{
	switch (m) {
	case 0x8664: return "x86_64";
	case 0x014c: return "i386";
	case 0xaa64: return "arm64";
	case 0x01c2: return "arm";
	case 0x5064: return "riscv64";
	case 0x6264: return "loongarch64";
	default: return "unknown";
	}
}

static const char *subsystem_name(uint16_t s)
{
	switch (s) {
	case 10: return "efi_application";
	case 11: return "efi_boot_service_driver";
	case 12: return "efi_runtime_driver";
	case 13: return "efi_rom";
	case 2: return "windows_gui";
	case 3: return "windows_cui";
	default: return "unknown";
	}
}

/* Calls @fn for each flag set in @v: named ones by name, others as hex bits. */
static void for_each_flag(uint32_t v, const struct flag_name *names, size_t n,
			  void (*fn)(void *ctx, const char *name), void *ctx)
{
	char other[16];

	for (size_t i = 0; i < n; i++)
		if (v & names[i].bit) {
			fn(ctx, names[i].name);
			v &= ~names[i].bit;
		}
	for (uint32_t bit = 1; v; bit <<= 1)
		if (v & bit) {
			snprintf(other, sizeof(other), "%#x", bit);
			fn(ctx, other);
			v &= ~bit;
		}
}

static void json_flag(void *ctx, const char *name) { json_str(ctx, NULL, name); }

static void text_flag(void *ctx, const char *name) { sb_printf(ctx, " %s", name); }

/* The os-release fields handoff knows, under their os-release(5) names. */
static void osrel_each(const struct osrel *o, void (*fn)(void *ctx, const char *key, const char *value), void *ctx)
{
	const struct { const char *key; const char *value; } f[] = {
		{ "PRETTY_NAME", o->pretty_name }, { "NAME", o->name }, { "ID", o->id },
		{ "VERSION_ID", o->version_id }, { "VERSION", o->version }, { "IMAGE_ID", o->image_id },
		{ "IMAGE_VERSION", o->image_version }, { "BUILD_ID", o->build_id },
	};

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (f[i].value)
			fn(ctx, f[i].key, f[i].value);
}

static void osrel_json(void *ctx, const char *key, const char *value)
{
	json_str(ctx, key, value);
}

static void text_safe(struct strbuf *sb, const uint8_t *s, size_t n);

static void osrel_text(void *ctx, const char *key, const char *value)
{
	struct strbuf *sb = ctx;

	sb_printf(sb, "    %-17s ", key);
	text_safe(sb, (const uint8_t *)value, strlen(value));
	sb_putc(sb, '\n');
}

static void json_blob(struct json *j, const char *key, const struct inspect_blob *b)
{
	size_t n = b->size;

	if (!b->present) {
		json_null(j, key);
		return;
	}
	while (n && (b->data[n - 1] == '\0' || b->data[n - 1] == '\n'))
		n--;
	json_strn(j, key, (const char *)b->data, n);
}

static void json_kernel(struct json *j, const struct bz_info *bz)
{
	char ver[16];

	snprintf(ver, sizeof(ver), "%u.%02u", bz->version >> 8, bz->version & 0xff);
	json_str(j, "boot_protocol", ver);
	json_uint(j, "setup_sects", bz->setup_sects);
	json_uint(j, "loadflags", bz->loadflags);
	json_arr_begin(j, "loadflags_names");
	for_each_flag(bz->loadflags, loadflag_names, ARRAY_SIZE(loadflag_names), json_flag, j);
	json_arr_end(j);
	json_uint(j, "xloadflags", bz->xloadflags);
	json_arr_begin(j, "xloadflags_names");
	for_each_flag(bz->xloadflags, xloadflag_names, ARRAY_SIZE(xloadflag_names), json_flag, j);
	json_arr_end(j);
	json_uint(j, "kernel_alignment", bz->kernel_alignment);
	json_bool(j, "relocatable", bz->relocatable);
	json_uint(j, "pref_address", bz->pref_address);
	json_uint(j, "init_size", bz->init_size);
	json_uint(j, "handover_offset", bz->handover_offset);
	json_uint(j, "cmdline_size", bz->cmdline_size);
	json_uint(j, "initrd_addr_max", bz->initrd_addr_max);
	json_str(j, "kernel_version", bz->kernel_version[0] ? bz->kernel_version : NULL);
}

static void json_pe(struct json *j, const struct pe_info *pe)
{
	json_obj_begin(j, "pe");
	json_uint(j, "machine", pe->machine);
	json_str(j, "machine_name", machine_name(pe->machine));
	json_uint(j, "subsystem", pe->subsystem);
	json_str(j, "subsystem_name", subsystem_name(pe->subsystem));
	json_uint(j, "entry_point", pe->entry_point);
	json_uint(j, "size_of_image", pe->size_of_image);
	json_uint(j, "section_alignment", pe->section_alignment);
	json_uint(j, "compat_entry_ia32", pe->compat_entry_ia32);
	json_arr_begin(j, "sections");
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *s = &pe->sections[i];
		json_obj_begin(j, NULL);
		json_str(j, "name", s->name);
		json_uint(j, "virtual_address", s->virtual_address);
		json_uint(j, "virtual_size", s->virtual_size);
		json_uint(j, "raw_offset", s->raw_offset);
		json_uint(j, "raw_size", s->raw_size);
		json_uint(j, "characteristics", s->characteristics);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_uki(struct json *j, const struct inspect_result *r)
{
	json_obj_begin(j, "uki");
	json_str(j, "stub_machine", machine_name(r->img.pe.machine));
	json_bool(j, "handoff_stub", r->handoff_stub);
	json_str(j, "linux_machine", r->linux_arm64 ? "arm64" : "x86_64");
	json_uint(j, "linux_size", r->kernel.size);
	if (r->initrd.present)
		json_uint(j, "initrd_size", r->initrd.size);
	else
		json_null(j, "initrd_size");
	if (r->ucode.present)
		json_uint(j, "ucode_size", r->ucode.size);
	else
		json_null(j, "ucode_size");
	json_blob(j, "cmdline", &r->cmdline);
	json_blob(j, "uname", &r->uname);
	json_arr_begin(j, "profiles");
	for (uint32_t i = 0; i < r->n_profiles; i++) {
		json_obj_begin(j, NULL);
		json_uint(j, "profile", i);
		json_str(j, "id", r->profiles[i].info.id);
		json_str(j, "title", r->profiles[i].info.title);
		json_blob(j, "cmdline", &r->profiles[i].cmdline);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (r->osrel.present) {
		json_obj_begin(j, "osrel");
		osrel_each(&r->os, osrel_json, j);
		json_obj_end(j);
	} else {
		json_null(j, "osrel");
	}
	json_obj_end(j);
}

/* "schemes" and "schemes_rejected" for x86-64 firmware, "schemes_ia32" and
 * "schemes_ia32_rejected" for 32-bit firmware (mixed mode), "schemes_aa64"
 * and "schemes_aa64_rejected" for AArch64 firmware (handoffaa64.efi). */
static void json_schemes(struct json *j, const struct inspect_result *r, enum fw_arch fw, const char *key,
			 const char *rejected_key)
{
	const char *why;

	json_arr_begin(j, key);
	for (size_t i = 0; i < ARRAY_SIZE(schemes); i++)
		if (scheme_supported_on(&r->img, schemes[i], fw, NULL))
			json_str(j, NULL, scheme_name(schemes[i]));
	json_arr_end(j);
	json_obj_begin(j, rejected_key);
	for (size_t i = 0; i < ARRAY_SIZE(schemes); i++)
		if (!scheme_supported_on(&r->img, schemes[i], fw, &why))
			json_str(j, scheme_name(schemes[i]), why);
	json_obj_end(j);
}

void inspect_render_json(const struct inspect_result *r, struct strbuf *out)
{
	struct json j;

	json_init(&j, out);
	json_obj_begin(&j, NULL);
	json_str(&j, "file", r->name);
	json_uint(&j, "size", r->file_size);
	json_str(&j, "format", inspect_format_name(r->format));
	json_bool(&j, "arm64_image", r->arm64_image);
	if (r->has_kernel)
		json_kernel(&j, &r->bz);
	if (r->img.is_pe)
		json_pe(&j, &r->img.pe);
	else
		json_null(&j, "pe");
	if (r->format == INSPECT_UKI)
		json_uki(&j, r);
	json_blob(&j, "sbat", &r->sbat);
	json_bool(&j, "signed", r->is_signed);
	json_schemes(&j, r, FW_X64, "schemes", "schemes_rejected");
	json_schemes(&j, r, FW_IA32, "schemes_ia32", "schemes_ia32_rejected");
	json_schemes(&j, r, FW_AA64, "schemes_aa64", "schemes_aa64_rejected");
	json_obj_end(&j);
}

/* Text output goes to a terminal: bytes outside printable ASCII are shown
 * as \xNN, so a hostile image cannot send escape sequences. */
static void text_safe(struct strbuf *sb, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
			sb_putc(sb, (char)s[i]);
		else
			sb_printf(sb, "\\x%02x", s[i]);
	}
}

static void text_field(struct strbuf *sb, const char *key, const char *s)
{
	sb_printf(sb, "  %-20s ", key);
	text_safe(sb, (const uint8_t *)s, strlen(s));
	sb_putc(sb, '\n');
}

static void text_kernel(struct strbuf *sb, const struct bz_info *bz)
{
	sb_printf(sb, "  %-20s %u.%02u\n", "boot protocol", bz->version >> 8, bz->version & 0xff);
	text_field(sb, "kernel version", bz->kernel_version[0] ? bz->kernel_version : "(none)");
	sb_printf(sb, "  %-20s %u\n", "setup_sects", bz->setup_sects);
	sb_printf(sb, "  %-20s %#x", "loadflags", bz->loadflags);
	for_each_flag(bz->loadflags, loadflag_names, ARRAY_SIZE(loadflag_names), text_flag, sb);
	sb_printf(sb, "\n  %-20s %#x", "xloadflags", bz->xloadflags);
	for_each_flag(bz->xloadflags, xloadflag_names, ARRAY_SIZE(xloadflag_names), text_flag, sb);
	sb_printf(sb, "\n  %-20s %#x\n", "kernel_alignment", bz->kernel_alignment);
	sb_printf(sb, "  %-20s %s\n", "relocatable", bz->relocatable ? "yes" : "no");
	sb_printf(sb, "  %-20s %#llx\n", "pref_address", (unsigned long long)bz->pref_address);
	sb_printf(sb, "  %-20s %#x (%u KiB)\n", "init_size", bz->init_size, bz->init_size / 1024);
	sb_printf(sb, "  %-20s %#x\n", "handover_offset", bz->handover_offset);
	sb_printf(sb, "  %-20s %u\n", "cmdline_size", bz->cmdline_size);
	sb_printf(sb, "  %-20s %#x\n", "initrd_addr_max", bz->initrd_addr_max);
}

static void text_pe(struct strbuf *sb, const struct pe_info *pe)
{
	sb_printf(sb, "  %-20s %s (%#x)\n", "PE machine", machine_name(pe->machine), pe->machine);
	sb_printf(sb, "  %-20s %s (%u)\n", "PE subsystem", subsystem_name(pe->subsystem), pe->subsystem);
	sb_printf(sb, "  %-20s %#x\n", "PE entry point", pe->entry_point);
	sb_printf(sb, "  %-20s %#x\n", "PE SizeOfImage", pe->size_of_image);
	sb_printf(sb, "  sections:            %-8s %10s %10s %10s %10s\n", "name", "VA", "vsize", "offset", "raw size");
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *s = &pe->sections[i];
		sb_puts(sb, "                       ");
		text_safe(sb, (const uint8_t *)s->name, strlen(s->name));
		sb_printf(sb, "%*s %#10x %#10x %#10x %#10x\n", (int)(8 - MIN(strlen(s->name), 8)), "",
			  s->virtual_address, s->virtual_size, s->raw_offset, s->raw_size);
	}
}

/* A text section (.cmdline, .sbat): one output line per line of text. */
static void text_blob(struct strbuf *sb, const char *key, const struct inspect_blob *b)
{
	const uint8_t *p = b->data, *end;

	if (!b->present)
		return;
	end = p + b->size;
	while (end > p && (end[-1] == '\0' || end[-1] == '\n'))
		end--;
	sb_printf(sb, "  %-20s", key);
	do {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *eol = nl ? nl : end;
		sb_putc(sb, ' ');
		text_safe(sb, p, (size_t)(eol - p));
		sb_putc(sb, '\n');
		if (nl)
			sb_printf(sb, "  %-20s", "");
		p = nl ? nl + 1 : end;
	} while (p < end);
}

static void text_uki(struct strbuf *sb, const struct inspect_result *r)
{
	sb_printf(sb, "  %-20s %s, %s\n", "UKI stub", machine_name(r->img.pe.machine),
		  r->handoff_stub ? "handoff's (its loaders boot the sections themselves)" : "not handoff's (started)");
	sb_printf(sb, "  %-20s %zu bytes (%s)\n", "UKI .linux", r->kernel.size,
		  r->linux_arm64 ? "arm64 kernel Image" : "bzImage");
	if (r->initrd.present)
		sb_printf(sb, "  %-20s %zu bytes\n", "UKI .initrd", r->initrd.size);
	if (r->ucode.present)
		sb_printf(sb, "  %-20s %zu bytes (microcode: the first initrd)\n", "UKI .ucode", r->ucode.size);
	text_blob(sb, "UKI .cmdline", &r->cmdline);
	text_blob(sb, "UKI .uname", &r->uname);
	for (uint32_t i = 0; i < r->n_profiles; i++) {
		const struct osrel *o = &r->profiles[i].info;
		char key[32];

		snprintf(key, sizeof(key), "UKI profile %u", i);
		sb_printf(sb, "  %-20s ID=%s TITLE=%s\n", key, o->id ? o->id : "", o->title ? o->title : "");
		text_blob(sb, "  .cmdline", &r->profiles[i].cmdline);
	}
	if (r->osrel.present) {
		sb_puts(sb, "  UKI .osrel\n");
		osrel_each(&r->os, osrel_text, sb);
	}
}

static void text_schemes(struct strbuf *sb, const struct inspect_result *r, enum fw_arch fw, const char *title)
{
	const char *why;

	for (size_t i = 0; i < ARRAY_SIZE(schemes); i++) {
		bool ok = scheme_supported_on(&r->img, schemes[i], fw, &why);
		sb_printf(sb, "  %-20s %s: %s%s\n", i == 0 ? title : "", scheme_name(schemes[i]),
			  ok ? "yes" : "no, ", ok ? "" : why);
	}
}

void inspect_render_text(const struct inspect_result *r, struct strbuf *sb)
{
	text_field(sb, "file", r->name);
	sb_printf(sb, "  %-20s %zu bytes\n", "size", r->file_size);
	sb_printf(sb, "  %-20s %s%s\n", "format", inspect_format_name(r->format),
		  r->format == INSPECT_BZIMAGE && r->img.is_pe ? " (with PE/COFF masquerade)"
		  : r->arm64_image ? " (arm64 kernel Image)" : "");
	if (r->has_kernel)
		text_kernel(sb, &r->bz);
	if (r->img.is_pe)
		text_pe(sb, &r->img.pe);
	if (r->format == INSPECT_UKI)
		text_uki(sb, r);
	text_blob(sb, "SBAT", &r->sbat);
	sb_printf(sb, "  %-20s %s\n", "signed", r->is_signed ? "yes (Authenticode)" : "no");
	text_schemes(sb, r, FW_X64, "boot schemes");
	text_schemes(sb, r, FW_IA32, "on 32-bit firmware");
	text_schemes(sb, r, FW_AA64, "on AArch64 firmware");
}
