/* The 32-bit EFI entries, back in 64-bit code: what src/probe/ia32/gather.c
 * learned from the 32-bit firmware becomes the checks' input, and for the
 * IA-32 PE entry (stub32), which gets no boot_params, the probe builds the
 * zero page a kernel's own stub would: its setup header (the manifest),
 * the LoadOptions line and the LoadFile2 initrd (boot.rst "EFI stub"). */
#include "probe.h"

static struct boot_params stub32_bp __attribute__((aligned(4096)));

void probe_efi32_gather(struct probe_input *in, uint64_t systab)
{
	const struct probe32_report *g = &probe32_area;

	in->systab_addr = systab;
	if (!g->systab_ok)
		return; /* nothing was called: boot_services_unusable */
	in->bs_tested = g->bs_tested;
	in->bs_status = probe32_status64(g->bs_status);
	if (g->map_size) {
		in->fw_map_addr = (uintptr_t)g->map;
		in->fw_map_size = g->map_size;
		in->fw_desc_size = g->desc_size;
		in->fw_desc_version = g->desc_version;
	}
	if (g->gop_present)
		in->gop = (struct probe_gop){
			.present = true, .fb_base = g->fb_base, .fb_size = g->fb_size, .width = g->width,
			.height = g->height, .pixels_per_scan_line = g->pixels_per_scan_line,
		};
}

struct boot_params *probe_efi32_stub_bp(void)
{
	const struct probe32_report *g = &probe32_area;
	struct boot_params *bp = &stub32_bp;
	size_t hdr_size = MIN(probe_manifest.hdr_size, PROBE_MANIFEST_HDR_MAX);

	memcpy((uint8_t *)bp + SETUP_HEADER_OFFSET, probe_manifest.hdr, hdr_size);
	if (g->have_options)
		bp->hdr.cmd_line_ptr = (uint32_t)(uintptr_t)g->cmdline;
	bp->hdr.ramdisk_image = (uint32_t)g->initrd_addr;
	bp->ext_ramdisk_image = (uint32_t)(g->initrd_addr >> 32);
	bp->hdr.ramdisk_size = (uint32_t)g->initrd_size;
	bp->ext_ramdisk_size = (uint32_t)(g->initrd_size >> 32);
	return bp;
}
