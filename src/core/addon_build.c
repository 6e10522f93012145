/* `handoff addon`: a minimal PE32+ EFI application (PE/COFF spec §3-4) that
 * carries an addon's sections and nothing else. Its headers take one file
 * block, its one code section another; pe_add_sections() (pe_write.c) then
 * appends .sbat, .cmdline and .uname into the table's free room and
 * computes SizeOfImage and the checksum, as for a UKI. */
#include "addon.h"
#include "cmdline.h"
#include "log.h"
#include "pe_write.h"
#include "uki.h"

#define ADDON_FILE_ALIGN 0x200u
#define ADDON_SECT_ALIGN 0x1000u
#define ADDON_OPT_SIZE 240u           /* PE32+ optional header with 16 data directories */
#define ADDON_PE_OFFSET 0x40u         /* right after the MS-DOS header */
#define COFF_EXECUTABLE_IMAGE 0x0002u /* §3.3.2 Characteristics */
#define COFF_LARGE_ADDRESS_AWARE 0x0020u
#define DLL_NX_COMPAT 0x0100u         /* §3.4.1.1 DllCharacteristics */

/* movabs rax, EFI_UNSUPPORTED; ret: the entry point of an image never meant to run */
static const uint8_t addon_code[] = { 0x48, 0xb8, 0x03, 0, 0, 0, 0, 0, 0, 0x80, 0xc3 };

/* Headers (MS-DOS stub, COFF, optional header, one section) and .text: 0x400 bytes. */
static void write_base(uint8_t *b)
{
	uint8_t *coff = b + ADDON_PE_OFFSET + 4, *opt = coff + PE_COFF_HEADER_SIZE, *sec = opt + ADDON_OPT_SIZE;

	b[0] = 'M', b[1] = 'Z';
	put_le32(b + 0x3c, ADDON_PE_OFFSET);
	memcpy(b + ADDON_PE_OFFSET, "PE\0\0", 4);
	put_le16(coff, PE_MACHINE_X64);
	put_le16(coff + 2, 1);                       /* NumberOfSections */
	put_le16(coff + 16, ADDON_OPT_SIZE);
	put_le16(coff + 18, COFF_EXECUTABLE_IMAGE | COFF_LARGE_ADDRESS_AWARE);
	put_le16(opt, PE_OPT_MAGIC_PE32PLUS);
	put_le32(opt + 4, ADDON_FILE_ALIGN);         /* SizeOfCode */
	put_le32(opt + 16, ADDON_SECT_ALIGN);        /* AddressOfEntryPoint */
	put_le32(opt + 20, ADDON_SECT_ALIGN);        /* BaseOfCode */
	put_le64(opt + 24, 0x140000000ull);          /* ImageBase: position-independent code, no relocations */
	put_le32(opt + 32, ADDON_SECT_ALIGN);
	put_le32(opt + 36, ADDON_FILE_ALIGN);
	put_le32(opt + 56, 2 * ADDON_SECT_ALIGN);    /* SizeOfImage */
	put_le32(opt + 60, ADDON_FILE_ALIGN);        /* SizeOfHeaders */
	put_le16(opt + 68, PE_SUBSYSTEM_EFI_APPLICATION);
	put_le16(opt + 70, DLL_NX_COMPAT);
	put_le32(opt + 108, 16);                     /* NumberOfRvaAndSizes */
	memcpy(sec, ".text", 5);
	put_le32(sec + 8, sizeof(addon_code));       /* VirtualSize */
	put_le32(sec + 12, ADDON_SECT_ALIGN);        /* VirtualAddress */
	put_le32(sec + 16, ADDON_FILE_ALIGN);        /* SizeOfRawData */
	put_le32(sec + 20, ADDON_FILE_ALIGN);        /* PointerToRawData */
	put_le32(sec + 36, PE_SCN_CNT_CODE | PE_SCN_MEM_EXECUTE | PE_SCN_MEM_READ);
	memcpy(b + ADDON_FILE_ALIGN, addon_code, sizeof(addon_code));
}

static void add(struct pe_new_section *secs, size_t *n, const char *name, const char *text, size_t size)
{
	if (!text || !size)
		return;
	memset(&secs[*n], 0, sizeof(secs[*n]));
	memcpy(secs[*n].name, name, strlen(name) + 1);
	secs[*n].data = (const uint8_t *)text;
	secs[*n].size = size;
	secs[*n].characteristics = PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ;
	(*n)++;
}

EFI_STATUS addon_build(const char *cmdline, const char *sbat, const char *uname, uint8_t **ret, size_t *ret_len)
{
	uint8_t base[2 * ADDON_FILE_ALIGN] = { 0 };
	struct pe_new_section secs[3];
	size_t n = 0, len = strlen(cmdline);
	EFI_STATUS err;

	while (len && (cmdline[len - 1] == '\n' || cmdline[len - 1] == '\r' || cmdline[len - 1] == ' ' ||
		       cmdline[len - 1] == '\t'))
		len--;
	if (!len)
		return log_error_status(EFI_INVALID_PARAMETER, "addon: the command line is empty");
	/* the stub would ignore it (addon_parse()): refused here, where it can be fixed */
	err = cmdline_check(cmdline, len, "--cmdline");
	if (EFI_ERROR(err))
		return err;
	write_base(base);
	sbat = sbat ? sbat : UKI_SBAT_DEFAULT;
	add(secs, &n, ".sbat", sbat, strlen(sbat));
	add(secs, &n, ".cmdline", cmdline, len);
	add(secs, &n, ".uname", uname, uname ? strlen(uname) : 0);
	return pe_add_sections(base, sizeof(base), "addon", secs, n, ret, ret_len);
}
