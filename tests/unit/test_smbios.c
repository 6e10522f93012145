/* SMBIOS (src/core/smbios.c): the 2.1 and 3.0 entry points, byte for byte
 * (DSP0134 §5.2.1, §5.2.2), the structure walk to the OEM strings (type 11)
 * on a table laid out as QEMU's -smbios type=11 writes it, what stops the
 * walk (every length from the firmware checked), and the extra as
 * systemd-stub mangles it. Confidential VMs (src/core/cvm.c) on fake CPUs. */
#include "test.h"
#include "core/cvm.h"
#include "core/smbios.h"
#include <stdlib.h>

static const uint8_t ep3[0x18] = {
	'_', 'S', 'M', '3', '_', 0x00, 0x18, 3, 0, 0, 1, 0,
	0x34, 0x12, 0x00, 0x00,                                     /* table maximum size 0x1234 */
	0x00, 0x10, 0x8f, 0x7f, 0x00, 0x00, 0x00, 0x00,             /* table address 0x7f8f1000 */
};

static const uint8_t ep2[0x1f] = {
	'_', 'S', 'M', '_', 0x00, 0x1f, 2, 8, 0x00, 0x01, 0, 0, 0, 0, 0, 0,
	'_', 'D', 'M', 'I', '_', 0x00,
	0x21, 0x01,                                                 /* structure table length 0x121 */
	0x00, 0x00, 0x0f, 0x00,                                     /* structure table address 0xf0000 */
	0x09, 0x00, 0x28,
};

TEST(smbios_entry_points)
{
	uint8_t b[0x20];
	uint64_t addr = 0;
	uint32_t size = 0;

	CHECK(smbios_entry_point(ep3, sizeof(ep3), true, &addr, &size));
	CHECK_EQ(addr, 0x7f8f1000);
	CHECK_EQ(size, 0x1234);
	CHECK(smbios_entry_point(ep2, sizeof(ep2), false, &addr, &size));
	CHECK_EQ(addr, 0xf0000);
	CHECK_EQ(size, 0x121);
	/* the other kind's anchor, a missing _DMI_, lengths out of range */
	CHECK(!smbios_entry_point(ep3, sizeof(ep3), false, &addr, &size));
	CHECK(!smbios_entry_point(ep2, sizeof(ep2), true, &addr, &size));
	CHECK(!smbios_entry_point(NULL, 0x20, true, &addr, &size));
	CHECK(!smbios_entry_point(ep3, 0x17, true, &addr, &size));
	memcpy(b, ep3, sizeof(ep3));
	b[6] = 0x17;
	CHECK(!smbios_entry_point(b, sizeof(b), true, &addr, &size));
	b[6] = 0x19; /* longer than what may be read */
	CHECK(!smbios_entry_point(b, 0x18, true, &addr, &size));
	memcpy(b, ep2, sizeof(ep2));
	b[0x10] = 'X';
	CHECK(!smbios_entry_point(b, sizeof(ep2), false, &addr, &size));
	memcpy(b, ep2, sizeof(ep2));
	b[5] = 0x1d;
	CHECK(!smbios_entry_point(b, sizeof(ep2), false, &addr, &size));
	b[5] = 0x1e; /* the 2.1 errata's length */
	CHECK(smbios_entry_point(b, sizeof(ep2), false, &addr, &size));
	/* an empty table, one at 0, one whose end wraps */
	memcpy(b, ep3, sizeof(ep3));
	memset(b + 0x0c, 0, 4);
	CHECK(!smbios_entry_point(b, sizeof(ep3), true, &addr, &size));
	memcpy(b, ep3, sizeof(ep3));
	memset(b + 0x10, 0, 8);
	CHECK(!smbios_entry_point(b, sizeof(ep3), true, &addr, &size));
	memset(b + 0x10, 0xff, 8);
	CHECK(!smbios_entry_point(b, sizeof(ep3), true, &addr, &size));
}

/* type 0 with two strings, type 1 without strings, a type 11 with two OEM
 * strings, another type 11, the end of the table */
static const uint8_t table[] = {
	0, 0x18, 0x00, 0x00, 1, 2, 0x00, 0xe8, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	'E', 'D', 'K', ' ', 'I', 'I', 0, '1', '.', '0', 0, 0,
	1, 0x08, 0x01, 0x00, 0, 0, 0, 0, 0, 0,
	11, 0x05, 0x02, 0x00, 2,
	'i', 'o', '.', 's', 'y', 's', 't', 'e', 'm', 'd', '.', 'c', 'r', 'e', 'd', 'e', 'n', 't', 'i', 'a', 'l', ':',
	'x', '=', 'y', 0,
	'i', 'o', '.', 's', 'y', 's', 't', 'e', 'm', 'd', '.', 'b', 'o', 'o', 't', '.', 'k', 'e', 'r', 'n', 'e', 'l',
	'-', 'c', 'm', 'd', 'l', 'i', 'n', 'e', '-', 'e', 'x', 't', 'r', 'a', '=', 'c', 'o', 'n', 's', 'o', 'l', 'e',
	'=', 't', 't', 'y', 'S', '0', ' ', 'd', 'e', 'b', 'u', 'g', 0, 0,
	11, 0x05, 0x03, 0x00, 1,
	'i', 'o', '.', 's', 'y', 's', 't', 'e', 'm', 'd', '.', 's', 't', 'u', 'b', '.', 'k', 'e', 'r', 'n', 'e', 'l',
	'-', 'c', 'm', 'd', 'l', 'i', 'n', 'e', '-', 'e', 'x', 't', 'r', 'a', '=', 'q', 'u', 'i', 'e', 't', 0, 0,
	127, 0x04, 0x04, 0x00, 0, 0,
	11, 0x05, 0x05, 0x00, 1, 'i', 'o', '.', 's', 'y', 's', 't', 'e', 'm', 'd', '.', 'x', '=', '1', 0, 0,
};

static size_t offset_of(const char *s)
{
	return (size_t)((const uint8_t *)s - table);
}

TEST(smbios_oem_strings_in_table_order)
{
	size_t len = 0;
	const char *v = smbios_oem_string(table, sizeof(table), SMBIOS_BOOT_CMDLINE_EXTRA, &len);

	CHECK_STR(v, "console=ttyS0 debug");
	CHECK_EQ(len, 19);
	CHECK_EQ(offset_of(v), 36 + 10 + 5 + 26 + 37);
	v = smbios_oem_string(table, sizeof(table), SMBIOS_STUB_CMDLINE_EXTRA, &len);
	CHECK_STR(v, "quiet");
	CHECK_EQ(len, 5);
	v = smbios_oem_string(table, sizeof(table), "io.systemd.credential:", &len);
	CHECK_STR(v, "x=y");
	/* not at the start of a string; not in a type 0's strings; not past type 127 */
	CHECK(!smbios_oem_string(table, sizeof(table), "kernel-cmdline-extra=", &len));
	CHECK(!smbios_oem_string(table, sizeof(table), "EDK", &len));
	CHECK(!smbios_oem_string(table, sizeof(table), "io.systemd.x=", &len));
}

static const char *find_in(const uint8_t *t, size_t size, const char *prefix)
{
	size_t len;

	return smbios_oem_string(t, size, prefix, &len);
}

TEST(smbios_walk_stops_at_what_it_cannot_read)
{
	uint8_t *t = malloc(sizeof(table));
	size_t stub = 36 + 10 + 5 + 26 + 58 + 5; /* the second type 11's strings */

	if (!t)
		return;
	/* cut anywhere inside the second type 11's string set: not found, no byte past the end read */
	for (size_t cut = stub; cut < stub + 44; cut++) {
		uint8_t *c = malloc(cut);
		memcpy(c, table, cut);
		CHECK(!find_in(c, cut, SMBIOS_STUB_CMDLINE_EXTRA));
		free(c);
	}
	CHECK(find_in(table, stub + 44, SMBIOS_STUB_CMDLINE_EXTRA));
	/* a formatted length below the 4-byte header, or past the table, ends the walk */
	memcpy(t, table, sizeof(table));
	t[36 + 1] = 3;
	CHECK(!find_in(t, sizeof(table), SMBIOS_BOOT_CMDLINE_EXTRA));
	memcpy(t, table, sizeof(table));
	t[1] = 0xff;
	CHECK(!find_in(t, sizeof(table), SMBIOS_BOOT_CMDLINE_EXTRA));
	/* a type 11 without its Count byte has no OEM strings */
	memcpy(t, table, sizeof(table));
	t[46 + 1] = 4;
	CHECK(!find_in(t, sizeof(table), "io.systemd.credential:"));
	/* a lone NUL where a string set starts is not an empty set */
	memcpy(t, table, sizeof(table));
	t[36 + 9] = 'x';
	CHECK(!find_in(t, sizeof(table), SMBIOS_BOOT_CMDLINE_EXTRA));
	free(t);
	CHECK(!find_in(table, 3, SMBIOS_BOOT_CMDLINE_EXTRA));
	CHECK(!find_in(table, 0, SMBIOS_BOOT_CMDLINE_EXTRA));
}

TEST(smbios_cmdline_extra_as_systemd_stub_mangles_it)
{
	static const char in[] = " \t console=ttyS0,115200\tdebug\r\nquiet \x7f\n";
	char *s = smbios_cmdline_extra(in, sizeof(in) - 1, "x");

	CHECK_STR(s, "console=ttyS0,115200 debug  quiet");
	free(s);
	CHECK(!smbios_cmdline_extra(" \r\n", 3, "x"));
	CHECK(!smbios_cmdline_extra("", 0, "x"));
	test_log_reset();
	CHECK(!smbios_cmdline_extra("a\xff", 2, "io.systemd.boot.kernel-cmdline-extra="));
	CHECK_LOG("SMBIOS io.systemd.boot.kernel-cmdline-extra=: not UTF-8 at byte 1: ignored");
	s = smbios_cmdline_extra("r\xc3\xa9gion=1", 9, "x");
	CHECK_STR(s, "r\xc3\xa9gion=1");
	free(s);
}

/* A fake CPU: leaves by number, the SEV status MSR, and whether it was read. */
static struct fake_cpu {
	uint32_t leaf[8];
	struct cpuid_regs regs[8];
	uint64_t sev_status;
	int msr_reads;
} cpu;

static void fake_cpuid(uint32_t leaf, struct cpuid_regs *r)
{
	*r = (struct cpuid_regs){ 0 };
	for (size_t i = 0; i < 8; i++)
		if (cpu.leaf[i] == leaf && (leaf || i == 0))
			*r = cpu.regs[i];
}

static uint64_t fake_rdmsr(uint32_t msr)
{
	cpu.msr_reads++;
	return msr == 0xc0010131 ? cpu.sev_status : 0;
}

static const struct cvm_cpu fake = { fake_cpuid, fake_rdmsr };

/* vendor in leaf 0 (EBX, EDX, ECX), hypervisor bit */
static void cpu_reset(const char *vendor, uint32_t max_leaf, bool vm)
{
	memset(&cpu, 0, sizeof(cpu));
	cpu.regs[0].eax = max_leaf;
	memcpy(&cpu.regs[0].ebx, vendor, 4);
	memcpy(&cpu.regs[0].edx, vendor + 4, 4);
	memcpy(&cpu.regs[0].ecx, vendor + 8, 4);
	cpu.leaf[1] = 1;
	cpu.regs[1].ecx = vm ? 1u << 31 : 0;
}

static void cpu_leaf(size_t i, uint32_t leaf, uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx)
{
	cpu.leaf[i] = leaf;
	cpu.regs[i] = (struct cpuid_regs){ eax, ebx, ecx, edx };
}

TEST(cvm_amd_sev)
{
	cpu_reset("AuthenticAMD", 0x10, /* vm= */ true);
	CHECK(cvm_in_vm(&fake));
	CHECK(!cvm_detect(&fake)); /* no extended leaves */
	cpu_leaf(2, 0x80000000, 0x80000021, 0, 0, 0);
	cpu_leaf(3, 0x8000001f, 1u << 1, 0, 0, 0);
	CHECK(!cvm_detect(&fake));
	CHECK_EQ(cpu.msr_reads, 1);
	for (unsigned bit = 0; bit < 3; bit++) {
		cpu.sev_status = 1ull << bit;
		CHECK(cvm_detect(&fake));
	}
	cpu.sev_status = 1ull << 3;
	CHECK(!cvm_detect(&fake));
	/* not in a VM: nothing more is asked */
	cpu.regs[1].ecx = 0;
	cpu.msr_reads = 0;
	cpu.sev_status = 1;
	CHECK(!cvm_in_vm(&fake));
	CHECK(!cvm_detect(&fake));
	CHECK_EQ(cpu.msr_reads, 0);
}

TEST(cvm_hyperv_snp_without_the_sev_leaf)
{
	cpu_reset("AuthenticAMD", 0x10, true);
	cpu_leaf(2, 0x80000000, 0x80000021, 0, 0, 0);
	cpu_leaf(3, 0x8000001f, 0, 0, 0, 0);
	/* "Microsoft Hv" in EBX, ECX, EDX */
	cpu_leaf(4, 0x40000000, 0x4000000c, 0x7263694d, 0x666f736f, 0x76482074);
	cpu_leaf(5, 0x40000003, 0, 1u << 22, 0, 0);
	cpu_leaf(6, 0x4000000c, 0, 2, 0, 0);
	CHECK(cvm_detect(&fake));
	CHECK_EQ(cpu.msr_reads, 0);
	cpu.regs[6].ebx = 1; /* VBS isolation, not SNP */
	CHECK(!cvm_detect(&fake));
	cpu.regs[6].ebx = 2;
	cpu.regs[5].ebx |= 1u << 12; /* the CPU management partition: the host */
	CHECK(!cvm_detect(&fake));
	cpu.regs[5].ebx = 1u << 22;
	cpu.regs[4].eax = 0x40000004; /* too few leaves */
	CHECK(!cvm_detect(&fake));
}

TEST(cvm_intel_tdx)
{
	cpu_reset("GenuineIntel", 0x21, true);
	/* "IntelTDX    " in EBX, EDX, ECX */
	cpu_leaf(2, 0x21, 0, 0x65746e49, 0x20202020, 0x5844546c);
	CHECK(cvm_detect(&fake));
	cpu.regs[0].eax = 0x20; /* no leaf 0x21 */
	CHECK(!cvm_detect(&fake));
	cpu_reset("GenuineIntel", 0x21, true);
	CHECK(!cvm_detect(&fake));
	cpu_reset("HygonGenuine", 0x21, true);
	CHECK(!cvm_detect(&fake));
	CHECK_EQ(cpu.msr_reads, 0);
}
