/* efi_main of the packed binaries, handoff.efi, handoffia32.efi,
 * handoffaa64.efi and handoff-stub.efi (docs/design.md "Packed loaders"):
 * the program's own image rides in this program's .image section
 * (src/pack/image.S), LZMA-compressed (src/core/pack.h). It is laid out in
 * EfiLoaderCode pages (below 4 GiB on x86), relocated, made visible to
 * instruction fetches (cache.h), given execute permission where the firmware
 * manages page attributes (UEFI 2.10 §37.7), and entered with this image's handle and
 * system table, so it runs as if the firmware had loaded it. Secure Boot and
 * PCR 4 see this file, which holds every byte of it; the stub's UKI sections
 * follow in the same file, found through LoadedImage. */
#include "cache.h"
#include "core/pack.h"
#include <efi/efi.h>
#include <efi/proto/memory_attribute.h>
#include <efi/proto/simple_text_out.h>

/* The IA-32 build addresses no more than 4 GiB; the x86-64 one keeps its
 * image there too. AArch64 machines may have no memory there at all. */
#ifdef __aarch64__
#define PACK_MACHINE PE_MACHINE_AA64
#define PACK_ALLOCATE AllocateAnyPages
#elif defined(__x86_64__)
#define PACK_MACHINE PE_MACHINE_X64
#define PACK_ALLOCATE AllocateMaxAddress
#else
#define PACK_MACHINE PE_MACHINE_I386
#define PACK_ALLOCATE AllocateMaxAddress
#endif
#define PAGE_SIZE 4096u
#define FOUR_GIB_MINUS_1 0xffffffffu

extern const uint8_t handoff_image[], handoff_image_end[]; /* src/pack/image.S */

#define DAMAGED "this file is damaged: install it again"

/* One line, ASCII, no values: this program carries no formatter. The
 * src/core files it links are built without their own lines (LOG_TERSE,
 * core/log.h). The system table is passed along, not kept: this program has
 * no writable data, so no section without file bytes, which shim refuses
 * (its PointerToRawData, 0, lies inside the headers). */
static void say(EFI_SYSTEM_TABLE *st, const char *line)
{
	CHAR16 buf[96];
	size_t n = 0;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = st->ConOut;

	if (!out)
		return;
	out->OutputString(out, u"handoff: ");
	for (; *line && n < ARRAY_SIZE(buf) - 3; line++)
		buf[n++] = (CHAR16)(unsigned char)*line;
	buf[n++] = '\r';
	buf[n++] = '\n';
	buf[n] = 0;
	out->OutputString(out, buf);
}

static EFI_STATUS fail(EFI_SYSTEM_TABLE *st, EFI_STATUS status, const char *line)
{
	say(st, line);
	return status;
}

/* NULL when the firmware does not manage page attributes: all pages run. */
static EFI_MEMORY_ATTRIBUTE_PROTOCOL *memory_attributes(EFI_SYSTEM_TABLE *st)
{
	static const EFI_GUID guid = EFI_MEMORY_ATTRIBUTE_PROTOCOL_GUID;
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma;

	return st->BootServices->LocateProtocol((EFI_GUID *)&guid, NULL, (void **)&ma) == EFI_SUCCESS ? ma : NULL;
}

/* Code sections executable and read-only. Only clearing EFI_MEMORY_XP is
 * needed to run; read-only is hardening. */
static EFI_STATUS set_attributes(EFI_SYSTEM_TABLE *st, uint64_t base, const struct pe_info *pe)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = memory_attributes(st);

	if (!ma)
		return EFI_SUCCESS;
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *s = &pe->sections[i];
		/* pack_unpack() checked every section against SizeOfImage */
		uint64_t start = base + s->virtual_address;
		uint64_t len = ((uint64_t)s->virtual_size + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
		EFI_STATUS err;

		if (!(s->characteristics & PE_SCN_MEM_EXECUTE) || !len)
			continue;
		err = ma->ClearMemoryAttributes(ma, start, len, EFI_MEMORY_XP);
		if (EFI_ERROR(err))
			return fail(st, err, "cannot make the loader executable");
		if (!(s->characteristics & PE_SCN_MEM_WRITE))
			ma->SetMemoryAttributes(ma, start, len, EFI_MEMORY_RO);
	}
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	const size_t len = (size_t)(handoff_image_end - handoff_image);
	EFI_BOOT_SERVICES *bs = st->BootServices;
	EFI_PHYSICAL_ADDRESS addr = FOUR_GIB_MINUS_1;
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma;
	struct pe_info pe;
	UINTN pages;
	uint32_t size;
	EFI_STATUS err;

	err = pack_image_size(handoff_image, len, PACK_MACHINE, &size);
	if (EFI_ERROR(err))
		return fail(st, err, DAMAGED);
	pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	err = bs->AllocatePages(PACK_ALLOCATE, EfiLoaderCode, pages, &addr);
	if (EFI_ERROR(err))
		return fail(st, err, "no memory to unpack the loader");
	err = pack_unpack(handoff_image, PACK_MACHINE, (uint8_t *)(uintptr_t)addr, size, addr, &pe);
	if (EFI_ERROR(err))
		say(st, DAMAGED);
	else {
		cache_sync_code((uintptr_t)addr, size);
		err = set_attributes(st, addr, &pe);
	}
	if (!EFI_ERROR(err))
		err = ((EFI_IMAGE_ENTRY_POINT)(uintptr_t)(addr + pe.entry_point))(image, st);
	/* the image returned (to the firmware or a loader): its pages go back writable */
	if ((ma = memory_attributes(st)))
		ma->ClearMemoryAttributes(ma, addr, (uint64_t)pages * PAGE_SIZE, EFI_MEMORY_RO);
	bs->FreePages(addr, pages);
	return err;
}
