/* libFuzzer: the probe's checks (probe_run, probe_report_json) on arbitrary
 * boot_params and memory. Input: a 64-byte control block (entry, CPU state,
 * firmware answers), then physical memory from 0x1000 on, whose first page
 * is the boot_params; the image's expected header is the input's own copy. */
#include "core/probe_check.h"

#define CTRL_SIZE 64u
#define MEM_BASE 0x1000u

struct fuzz_mem {
	const uint8_t *mem;
	size_t size;
};

static bool fuzz_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct fuzz_mem *m = ctx;

	if (addr < MEM_BASE || !range_ok(addr - MEM_BASE, len, m->size))
		return false;
	memcpy(buf, m->mem + (addr - MEM_BASE), len);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct probe_report r;
	static char line[8192];
	struct fuzz_mem m;
	struct probe_input in;

	if (size < CTRL_SIZE + BOOT_PARAMS_SIZE)
		return 0;
	m = (struct fuzz_mem){ data + CTRL_SIZE, size - CTRL_SIZE };
	in = (struct probe_input){
		.entry = (enum probe_entry)(data[0] % 4),
		.la57 = data[1] & 1,
		.check_paging = data[1] & 2,
		.bs_tested = data[1] & 4,
		.bs_status = data[2] ? EFI_BUFFER_TOO_SMALL : EFI_SUCCESS,
		.rflags = get_le64(data + 8),
		.cr3 = get_le64(data + 16),
		.kernel_addr = get_le64(data + 24),
		.systab_addr = get_le64(data + 32),
		.fw_map_addr = get_le32(data + 40),
		.fw_map_size = get_le32(data + 44),
		.fw_desc_size = get_le16(data + 48),
		.fw_desc_version = data[50],
		.gop = {.present = data[1] & 8,
			.fb_base = get_le32(data + 52),
			.width = get_le16(data + 56),
			.height = get_le16(data + 58),
			.pixels_per_scan_line = get_le16(data + 60)},
		.bp_addr = MEM_BASE,
		.expected_hdr = data + CTRL_SIZE + SETUP_HEADER_OFFSET,
		.expected_hdr_size = 0x26c - SETUP_HEADER_OFFSET,
		.read = fuzz_read,
		.read_ctx = &m,
	};
	probe_run(&in, &r);
	probe_report_json(&r, line, sizeof(line));
	return 0;
}
