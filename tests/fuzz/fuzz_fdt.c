/* libFuzzer: the devicetree header check (core/fdt.h) the AArch64 loader runs
 * on a "devicetree" file and a UKI's .dtb before the firmware and Linux read
 * the blob. An accepted header must say what Devicetree Specification v0.4
 * §5.2 asks, checked here again from the raw bytes: magic, versions a
 * version 17 reader can read, totalsize from the header to within the file;
 * what it reports is the header's. Inputs shorter than the header included. */
#include "core/fdt.h"
#include <stdlib.h>

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fdt_header_info h;

	if (fdt_check_header(data, size, "fuzz.dtb", &h) != EFI_SUCCESS)
		return 0;
	if (size < 40 || be32(data) != 0xd00dfeed || h.totalsize != be32(data + 4) || h.totalsize < 40 ||
	    h.totalsize > size || h.version != be32(data + 20) || h.version < 17 || h.last_comp_version > 17 ||
	    h.last_comp_version > h.version)
		abort();
	if (h.last_comp_version != be32(data + 24))
		abort();
	return 0;
}
