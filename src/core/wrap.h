/* `handoff wrap`: one file that is both a bzImage and a PE32+ EFI application
 * running handoff's stub. The layout (the same trick as Linux's own PE/COFF
 * masquerade, arch/x86/boot/header.S):
 *
 *   0x000  "MZ", e_lfanew = 0x40, PE header, optional header with
 *          NumberOfRvaAndSizes >= 6, section table: all of it below 0x1f1
 *   0x1f1  the bzImage's setup header and setup code, unchanged
 *   S      (SizeOfHeaders = section table end rounded to FileAlignment)
 *   ...    the rest of the setup area and the protected-mode kernel, unchanged,
 *          through kernel_end = (setup_sects + 1) * 512 + syssize * 16
 *   ...    zero padding to FileAlignment, then the stub's sections' raw data
 *
 * The stub's sections keep their RVAs (its code and .reloc are not touched).
 * One more section, ".bzimage", maps file bytes [S, kernel_end) at the first
 * SectionAlignment boundary after the stub's SizeOfImage. The first S bytes
 * are the PE headers, which the firmware loads at ImageBase: so in memory the
 * bzImage is ImageBase[0, S) followed by the .bzimage section (wrap_find()).
 * Anything the input had past kernel_end (e.g. an Authenticode signature) is
 * dropped, and its own MZ/PE header is replaced.
 *
 * wrap_bzimage_compat() also names an IA-32 entry inside the kernel in a
 * ".compat" section (Linux's record: type 1, size 8, machine 0x14c, RVA),
 * for 32-bit firmware, and stretches .bzimage's VirtualSize over the
 * kernel's init_size, since that entry runs the kernel where the image was
 * loaded (build/probe.img's pe32 entry).
 */
#ifndef CORE_WRAP_H
#define CORE_WRAP_H

#include "bzimage.h"
#include "pe.h"

#define WRAP_SECTION ".bzimage"
#define WRAP_COMPAT_SECTION ".compat"
#define WRAP_PE_OFFSET 0x40u
#define WRAP_MIN_DATA_DIRS 6u /* through the base relocation directory (5) */

/**
 * wrap_bzimage() - build the wrapped image described above.
 * @stub, @stub_len: handoff's stub, a PE32+ x86-64 EFI application.
 * @bz, @bz_len: the kernel; @bz_name names it in messages.
 * The kernel must pass bz_parse() and uki_check_kernel(); the stub's headers
 * must fit below the setup header: with 6 data directories that is at most 6
 * sections, the stub's own plus .bzimage (EFI_BUFFER_TOO_SMALL otherwise).
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_len, or the failing
 * step's error, logged once.
 */
EFI_STATUS wrap_bzimage(const uint8_t *stub, size_t stub_len, const uint8_t *bz, size_t bz_len, const char *bz_name,
			uint8_t **ret, size_t *ret_len);

/**
 * wrap_bzimage_compat() - wrap_bzimage() plus a ".compat" section naming the
 * IA-32 entry @compat_entry bytes into the protected-mode kernel (0: none,
 * as wrap_bzimage()); one section more must fit below the setup header.
 * Return: as wrap_bzimage(); EFI_INVALID_PARAMETER for an entry outside the kernel.
 */
EFI_STATUS wrap_bzimage_compat(const uint8_t *stub, size_t stub_len, const uint8_t *bz, size_t bz_len,
			       const char *bz_name, uint32_t compat_entry, uint8_t **ret, size_t *ret_len);

/* The bzImage inside a wrapped image: @head then @body, contiguous in the
 * file, apart in a loaded image. */
struct wrap_view {
	const uint8_t *head;  /* the image's first head_size bytes (the headers) */
	size_t head_size;     /* SizeOfHeaders */
	const uint8_t *body;  /* the .bzimage section: file bytes [head_size, kernel_end) */
	size_t body_size;
};

/**
 * wrap_find() - locate the bzImage in a wrapped image (file or loaded, as
 * uki_parse()): the .bzimage section, whose raw data must start at
 * SizeOfHeaders.
 * Return: EFI_SUCCESS, EFI_NOT_FOUND (no .bzimage: not a wrapped image, logged
 * at debug level), or EFI_LOAD_ERROR.
 */
EFI_STATUS wrap_find(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout, const char *name,
		     struct wrap_view *ret);

#endif
