/* A stand-in stub for firmware tests of the image writers (tests/check.d/45-efi-images.sh):
 * an EFI application that finds the payload of the image it was loaded from,
 * through LoadedImage->ImageBase, with the same src/core readers the real stub
 * uses (pe_parse_loaded, uki_parse, wrap_find), prints on the console
 *   SELFCHECK uki linux=SIZE/HASH | initrd=SIZE/HASH | cmdline=[...] | uname=[...]
 *   SELFCHECK wrap bzimage=SIZE/HASH            (HASH over bytes 0x1f1..end)
 * ("|" marks a line break: the firmware's terminal wraps long lines at 80
 * columns, so each piece is a short line of its own, joined by the test) and
 * powers the machine off. Self-contained (no src/efi, no globals, so that
 * with /merge:.rdata=.text it links to just .text and .reloc, leaving
 * pe_add_sections no header room); table offsets from UEFI 2.10 §4. */
#include "core/fmt.h"
#include "core/log.h"
#include "core/uki.h"
#include "core/wrap.h"

#define ST_CON_OUT 0x40
#define ST_RUNTIME 0x58
#define ST_BOOT 0x60
#define BS_HANDLE_PROTOCOL 0x98
#define RT_RESET_SYSTEM 0x68
#define TEXT_OUTPUT_STRING 0x08
#define LOADED_IMAGE_BASE 0x40
#define LOADED_IMAGE_SIZE 0x48

typedef EFI_STATUS(EFIAPI *output_string_fn)(void *self, CHAR16 *s);
typedef EFI_STATUS(EFIAPI *handle_protocol_fn)(EFI_HANDLE h, const EFI_GUID *g, void **ret);
typedef void(EFIAPI *reset_system_fn)(int type, EFI_STATUS status, UINTN size, void *data);

static void *table_ptr(const void *table, size_t off)
{
	return *(void *const *)((const uint8_t *)table + off);
}

static void say(void *st, const char *s)
{
	CHAR16 b[320];
	size_t i = 0;
	void *con = table_ptr(st, ST_CON_OUT);

	b[i++] = '\r';
	b[i++] = '\n';
	for (; *s && i < 312; s++) {
		if (*s == '|')
			b[i++] = '\r';
		b[i++] = *s == '|' ? '\n' : (CHAR16)*s;
	}
	b[i++] = '\r';
	b[i++] = '\n';
	b[i] = 0;
	((output_string_fn)table_ptr(con, TEXT_OUTPUT_STRING))(con, b);
}

static uint32_t hash(uint32_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = h * 31 + p[i];
	return h;
}

static void report(const struct pe_info *pe, const uint8_t *img, size_t size, char *line, size_t line_size)
{
	struct uki_sections u;
	struct wrap_view v;

	if (wrap_find(pe, img, size, PE_LAYOUT_MEMORY, "self", &v) == EFI_SUCCESS) {
		uint32_t h = hash(hash(0, v.head + 0x1f1, v.head_size - 0x1f1), v.body, v.body_size);
		fmt_snprintf(line, line_size, "SELFCHECK wrap bzimage=%zu/%08x", v.head_size + v.body_size, h);
	} else if (uki_parse(pe, img, size, PE_LAYOUT_MEMORY, "self", &u) == EFI_SUCCESS) {
		fmt_snprintf(line, line_size,
			     "SELFCHECK uki linux=%zu/%08x|SELFCHECK initrd=%zu/%08x|SELFCHECK "
			     "cmdline=[%.*s]|SELFCHECK uname=[%.*s]",
			     u.s[UKI_LINUX].size, hash(0, u.s[UKI_LINUX].data, u.s[UKI_LINUX].size),
			     u.s[UKI_INITRD].size, hash(0, u.s[UKI_INITRD].data, u.s[UKI_INITRD].size),
			     (int)u.s[UKI_CMDLINE].size, (const char *)u.s[UKI_CMDLINE].data, (int)u.s[UKI_UNAME].size,
			     (const char *)u.s[UKI_UNAME].data);
	} else {
		fmt_snprintf(line, line_size, "SELFCHECK FAIL: neither a UKI nor a wrapped bzImage");
	}
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	const EFI_GUID loaded_image_guid = {
		0x5B1B31A1, 0x9562, 0x11d2, {0x8E, 0x3F, 0x00, 0xA0, 0xC9, 0x69, 0x72, 0x3B}};
	struct pe_info pe;
	char line[300];
	void *li, *rt = table_ptr(st, ST_RUNTIME), *bs = table_ptr(st, ST_BOOT);
	const uint8_t *img;
	size_t size;

	if (((handle_protocol_fn)table_ptr(bs, BS_HANDLE_PROTOCOL))(image, &loaded_image_guid, &li) != EFI_SUCCESS) {
		say(st, "SELFCHECK FAIL: no LoadedImage");
		return EFI_LOAD_ERROR;
	}
	img = table_ptr(li, LOADED_IMAGE_BASE);
	size = (size_t)(uintptr_t)table_ptr(li, LOADED_IMAGE_SIZE);
	if (pe_parse_loaded(img, size, "self", &pe) != EFI_SUCCESS)
		fmt_snprintf(line, sizeof(line), "SELFCHECK FAIL: own PE headers unreadable");
	else
		report(&pe, img, size, line, sizeof(line));
	say(st, line);
	((reset_system_fn)table_ptr(rt, RT_RESET_SYSTEM))(2 /* EfiResetShutdown */, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}

/* What src/core needs from a platform: no allocation (the readers do not
 * allocate), logging dropped (failures show as a FAIL line), (libc comes from src/libc/libc.c). */
void log_write(enum log_level level, const char *line)
{
	(void)level;
	(void)line;
}

void *mem_alloc(size_t size)
{
	(void)size;
	return NULL;
}

void mem_free(void *p)
{
	(void)p;
}

