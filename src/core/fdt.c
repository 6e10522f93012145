/* The flattened devicetree header (Devicetree Specification v0.4 §5.2): what
 * a loader checks before it installs a blob as the firmware's devicetree
 * table: that it is one, of a version Linux reads, and whole. The blocks
 * inside are the firmware's (EFI_DT_FIXUP_PROTOCOL) and Linux's to read:
 * libfdt's fdt_check_header() checks them. */
#include "fdt.h"
#include "log.h"

/* §5.2: the header's fields, each a big-endian uint32_t, in this order. */
enum fdt_field {
	FDT_F_MAGIC, FDT_F_TOTALSIZE, FDT_F_OFF_DT_STRUCT, FDT_F_OFF_DT_STRINGS, FDT_F_OFF_MEM_RSVMAP,
	FDT_F_VERSION, FDT_F_LAST_COMP_VERSION,
};

/* Field @f of the header in @buf (@len bytes); 0 past its end. */
static uint32_t fdt_field(const uint8_t *buf, size_t len, enum fdt_field f)
{
	const uint8_t *p = buf + 4 * f;

	if (len < 4 * (size_t)f + 4)
		return 0;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

EFI_STATUS fdt_check_header(const uint8_t *buf, size_t len, const char *name, struct fdt_header_info *ret)
{
	uint32_t magic = fdt_field(buf, len, FDT_F_MAGIC), total = fdt_field(buf, len, FDT_F_TOTALSIZE);
	uint32_t version = fdt_field(buf, len, FDT_F_VERSION), comp = fdt_field(buf, len, FDT_F_LAST_COMP_VERSION);

	/* totalsize within the file: the whole header is there */
	if (magic != FDT_MAGIC || version < FDT_VERSION || comp > FDT_VERSION || comp > version ||
	    total < FDT_HEADER_SIZE || total > len)
		return log_error_status(EFI_LOAD_ERROR, "%s: magic %#x, version %u/%u, totalsize %u of %zu bytes: "
					"not a version 17 devicetree", name, magic, version, comp, total, len);
	*ret = (struct fdt_header_info){ total, version, comp };
	return EFI_SUCCESS;
}
