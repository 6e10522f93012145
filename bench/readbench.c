/* readbench.efi: how long reading the benchmark's initrd takes through the
 * file system (handoff's own file_read_exact(), the path every handoff scheme
 * uses) from the FAT ESP and from an ext4 XBOOTLDR partition (handoff's own
 * driver, src/efi/ext4_sfs.c), against reading the same bytes straight from
 * the ESP through EFI_BLOCK_IO (UEFI 2.10 §13.9) — the floor any loader
 * reading from this disk can reach. bench/bench.py puts it on a disk laid out
 * like the benchmark's, with \bench\extent.txt holding "OFFSET LENGTH CRC"
 * (decimal; the offset is relative to the partition) of the initrd's clusters,
 * which mtools wrote contiguously (bench.py checks that with mshowfat), and
 * the initrd's CRC-32 as the host computed it. The XBOOTLDR partition holds
 * the same file at the same path. Each method runs ROUNDS times, alternating,
 * into the same page-aligned buffer; in the first round the buffer is zeroed
 * before each read (untimed) and its CRC-32 checked afterwards (untimed), so a
 * fast read of the wrong bytes fails the run. Times come from the TSC
 * calibrated against Stall(). Output lines, then shutdown:
 *   READBENCH tsc_khz=N size=N offset=N blocksize=N
 *   READBENCH method=volumes us=N      (volumes_add_partitions(): ext4 mounted, entries looked up)
 *   READBENCH method=touch us=N        (first write of the fresh buffer)
 *   READBENCH round=R method=M us=N    (M: see methods[] below)
 *   READBENCH verified crc=X methods=N
 *   READBENCH done
 */
#include "efi/firmware.h"
#include "efi/volumes.h"
#include "core/crc32.h"
#include "core/fmt.h"
#include <efi/proto/block_io.h>

#define INITRD_PATH "/debian/initrd.img"
#define EXTENT_PATH "/bench/extent.txt"
#define ROUNDS 9

/* The measured methods: file reads by handoff's file_read_exact() or in
 * Read calls of a given size, from the FAT ESP or the ext4 XBOOTLDR, Block
 * I/O reads in calls of a given size (0 = the whole extent in one call), the
 * FAT cluster-chain walk alone, and what handoff's FAT path costs beside the
 * bytes ("map": open, size, the whole file mapped by its first large read,
 * 1 MiB of it). */
enum kind { FILE_HANDOFF, FILE_CHUNK, BLOCK_IO, CHAIN_WALK, FAST_MAP };
enum vol { FAT, EXT4 };
static const struct method {
	const char *name;
	enum kind kind;
	enum vol vol;
	uint64_t chunk;
} methods[] = {
	{ "file", FILE_HANDOFF, FAT, 0 },
	{ "file1m", FILE_CHUNK, FAT, 1ull << 20 },
	{ "file4m", FILE_CHUNK, FAT, 4ull << 20 },
	{ "file16m", FILE_CHUNK, FAT, 16ull << 20 },
	{ "file64m", FILE_CHUNK, FAT, 64ull << 20 },
	{ "file1", FILE_CHUNK, FAT, 0 },
	{ "ext4", FILE_HANDOFF, EXT4, 0 },
	{ "ext4_1m", FILE_CHUNK, EXT4, 1ull << 20 },
	{ "ext4_1", FILE_CHUNK, EXT4, 0 },
	{ "blockio4m", BLOCK_IO, FAT, 4ull << 20 },
	{ "blockio64m", BLOCK_IO, FAT, 64ull << 20 },
	{ "blockio1", BLOCK_IO, FAT, 0 },
	{ "walk", CHAIN_WALK, FAT, 0 },
	{ "map", FAST_MAP, FAT, 0 },
};

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* TSC ticks per millisecond, against a 200 ms Stall(). */
static uint64_t tsc_per_ms(void)
{
	uint64_t t0 = rdtsc();

	BS->Stall(200000);
	return (rdtsc() - t0) / 200;
}

static uint64_t parse_u64(const char **s)
{
	uint64_t v = 0;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	while (**s >= '0' && **s <= '9')
		v = v * 10 + (uint64_t)(*(*s)++ - '0');
	return v;
}

static EFI_STATUS read_extent(EFI_FILE_PROTOCOL *root, uint64_t *offset, uint64_t *length, uint32_t *crc)
{
	_cleanup_free_ uint8_t *text = NULL;
	size_t size;
	const char *p;
	EFI_STATUS err = file_read_all(root, EXTENT_PATH, FILE_READ_ALL_MAX, &text, &size);

	if (EFI_ERROR(err))
		return err;
	p = (const char *)text;
	*offset = parse_u64(&p);
	*length = parse_u64(&p);
	*crc = (uint32_t)parse_u64(&p);
	if (*length == 0)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: no length", EXTENT_PATH);
	return EFI_SUCCESS;
}

/* Read calls of @chunk bytes, as file_read_exact() does with its own chunk. */
static EFI_STATUS read_chunked(EFI_FILE_PROTOCOL *f, uint8_t *buf, uint64_t size, uint64_t chunk)
{
	while (size) {
		UINTN n = MIN(size, chunk);
		EFI_STATUS err = f->Read(f, &n, buf);

		if (EFI_ERROR(err) || n == 0)
			return log_error_status(EFI_ERROR(err) ? err : EFI_END_OF_FILE, "%s: read error", INITRD_PATH);
		buf += n;
		size -= n;
	}
	return EFI_SUCCESS;
}

/* Open, size, read @len of its @size bytes: by handoff's file_read_exact()
 * (READ_CHUNK pieces) when @chunk is 0, else in Read calls of @chunk bytes.
 * On FAT, file_read_exact()'s first read of FILE_FAST_MIN bytes or more maps
 * the file's whole cluster chain. */
static EFI_STATUS time_file(EFI_FILE_PROTOCOL *root, uint8_t *buf, uint64_t size, uint64_t len, uint64_t chunk,
			    uint64_t *ticks)
{
	EFI_FILE_PROTOCOL *f;
	uint64_t t0 = rdtsc(), fsize;
	EFI_STATUS err = file_open(root, INITRD_PATH, &f);

	if (EFI_ERROR(err))
		return log_error_status(err, "%s: cannot open: %s", INITRD_PATH, efi_status_str(err));
	err = file_size(f, &fsize);
	if (!EFI_ERROR(err) && fsize != size)
		err = log_error_status(EFI_BAD_BUFFER_SIZE, "%s: %llu bytes, extent says %llu", INITRD_PATH,
				       (unsigned long long)fsize, (unsigned long long)size);
	if (!EFI_ERROR(err))
		err = chunk ? read_chunked(f, buf, len, chunk) : file_read_exact(f, buf, len, INITRD_PATH);
	file_close(f);
	*ticks = rdtsc() - t0;
	return err;
}

/* What the FAT driver spends on the cluster chain alone: open, seek to the
 * last byte (the driver follows the chain from the first cluster to get
 * there), read that one byte. */
static EFI_STATUS time_walk(EFI_FILE_PROTOCOL *root, uint64_t size, uint64_t *ticks)
{
	EFI_FILE_PROTOCOL *f;
	uint64_t t0 = rdtsc();
	uint8_t byte;
	UINTN n = 1;
	EFI_STATUS err = file_open(root, INITRD_PATH, &f);

	if (EFI_ERROR(err))
		return log_error_status(err, "%s: cannot open: %s", INITRD_PATH, efi_status_str(err));
	err = f->SetPosition(f, size - 1);
	if (!EFI_ERROR(err))
		err = f->Read(f, &n, &byte);
	file_close(f);
	*ticks = rdtsc() - t0;
	if (EFI_ERROR(err) || n != 1)
		return log_error_status(EFI_ERROR(err) ? err : EFI_END_OF_FILE, "%s: cannot read the last byte", INITRD_PATH);
	return EFI_SUCCESS;
}

/* The floor: the same bytes from the partition's Block I/O, in @chunk pieces. */
static EFI_STATUS time_blockio(EFI_BLOCK_IO_PROTOCOL *bio, uint64_t offset, uint8_t *buf, uint64_t size,
			       uint64_t chunk, uint64_t *ticks)
{
	uint32_t bs = bio->Media->BlockSize;
	uint64_t t0 = rdtsc(), done = 0;

	if (bs == 0 || offset % bs || size % bs || chunk % bs)
		return log_error_status(EFI_INVALID_PARAMETER, "block size %u does not divide the extent", bs);
	while (done < size) {
		uint64_t n = MIN(chunk, size - done);
		EFI_STATUS err = bio->ReadBlocks(bio, bio->Media->MediaId, (offset + done) / bs, n, buf + done);

		if (EFI_ERROR(err))
			return log_error_status(err, "ReadBlocks at byte %llu: %s",
						(unsigned long long)(offset + done), efi_status_str(err));
		done += n;
	}
	*ticks = rdtsc() - t0;
	return EFI_SUCCESS;
}

struct bench {
	EFI_FILE_PROTOCOL *root[2];     /* by enum vol */
	EFI_BLOCK_IO_PROTOCOL *bio;     /* the ESP's */
	uint64_t offset, size, rate;
	uint32_t crc;                   /* of the initrd, from the host */
	uint8_t *buf;
};

static EFI_STATUS time_method(const struct bench *b, const struct method *m, uint64_t *t)
{
	uint64_t whole = ALIGN_UP(b->size, 512ull);

	switch (m->kind) {
	case FILE_HANDOFF:
		return time_file(b->root[m->vol], b->buf, b->size, b->size, 0, t);
	case FILE_CHUNK:
		return time_file(b->root[m->vol], b->buf, b->size, b->size, m->chunk ? m->chunk : b->size, t);
	case BLOCK_IO:
		return time_blockio(b->bio, b->offset, b->buf, whole, m->chunk ? m->chunk : whole, t);
	case CHAIN_WALK:
		return time_walk(b->root[m->vol], b->size, t);
	case FAST_MAP:
		return time_file(b->root[m->vol], b->buf, b->size, MIN(b->size, (uint64_t)FILE_FAST_MIN), 0, t);
	}
	return EFI_INVALID_PARAMETER;
}

/* First round: zero the buffer, read, and check the CRC of what arrived. */
static EFI_STATUS time_verified(const struct bench *b, const struct method *m, uint64_t *t)
{
	EFI_STATUS err;
	uint32_t crc;

	if (m->kind == CHAIN_WALK || m->kind == FAST_MAP) /* not the whole file */
		return time_method(b, m, t);
	memset(b->buf, 0, b->size);
	err = time_method(b, m, t);
	if (EFI_ERROR(err))
		return err;
	crc = crc32(0, b->buf, b->size);
	if (crc != b->crc)
		return log_error_status(EFI_CRC_ERROR, "method %s read different bytes: CRC-32 %08x, expected %08x",
					m->name, crc, b->crc);
	return EFI_SUCCESS;
}

static EFI_STATUS run_rounds(struct bench *b)
{
	size_t verified = 0;
	EFI_STATUS err = EFI_SUCCESS;

	for (int r = 0; r < ROUNDS && !EFI_ERROR(err); r++) {
		/* alternate the order so that no method always runs first */
		for (size_t i = 0; i < ARRAY_SIZE(methods) && !EFI_ERROR(err); i++) {
			const struct method *m = &methods[r % 2 ? ARRAY_SIZE(methods) - 1 - i : i];
			uint64_t t = 0;

			err = r == 0 ? time_verified(b, m, &t) : time_method(b, m, &t);
			if (EFI_ERROR(err))
				break;
			verified += r == 0 && m->kind != CHAIN_WALK && m->kind != FAST_MAP;
			con_print("READBENCH round=%d method=%s us=%llu\n", r, m->name,
				  (unsigned long long)(t * 1000 / b->rate));
		}
		if (r == 0 && !EFI_ERROR(err))
			con_print("READBENCH verified crc=%08x methods=%zu\n", b->crc, verified);
	}
	return err;
}

static EFI_STATUS run(struct bench *b)
{
	uint64_t addr, bsize = ALIGN_UP(b->size, 4096ull);
	EFI_STATUS err = pages_alloc(bsize, 4096, ~0ull, &addr);

	if (EFI_ERROR(err))
		return log_error_status(err, "no memory for %llu bytes", (unsigned long long)b->size);
	b->buf = (uint8_t *)addr;
	con_print("READBENCH tsc_khz=%llu size=%llu offset=%llu blocksize=%u\n", (unsigned long long)b->rate,
		  (unsigned long long)b->size, (unsigned long long)b->offset, b->bio->Media->BlockSize);
	/* First touch of fresh guest RAM costs the host page faults (QEMU maps guest RAM lazily); it is
	 * the same for every loader and method, so it is paid and reported once, up front. */
	uint64_t t0 = rdtsc();
	memset(b->buf, 0, bsize);
	con_print("READBENCH method=touch us=%llu\n", (unsigned long long)((rdtsc() - t0) * 1000 / b->rate));
	err = run_rounds(b);
	pages_free(addr, bsize);
	return err;
}

/* The ESP and the first other partition the loader would read: the ext4
 * XBOOTLDR (no loader.conf needs to name it), through handoff's driver,
 * found the way the loader finds it. */
static EFI_STATUS open_volumes(EFI_HANDLE device, struct bench *b)
{
	struct volume *v = NULL;
	size_t n = 0;
	uint64_t t0 = rdtsc();
	EFI_STATUS err = volumes_boot(device, &v, &n);

	if (EFI_ERROR(err))
		return err;
	volumes_add_partitions(/* named= */ NULL, 0, &v, &n);
	con_print("READBENCH method=volumes us=%llu\n", (unsigned long long)((rdtsc() - t0) * 1000 / b->rate));
	b->root[FAT] = v[0].root;
	if (n > 1)
		b->root[EXT4] = v[1].root;
	for (size_t i = 2; i < n; i++)
		file_close(v[i].root);
	mem_free(v);
	if (n < 2)
		return log_error_status(EFI_NOT_FOUND, "no ext4 partition with loader entries on the boot disk");
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	static EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *li;
	struct bench b = { 0 };
	EFI_STATUS err;

	efi_init(image, systab);
	b.rate = tsc_per_ms();
	err = BS->HandleProtocol(image, &li_guid, (void **)&li);
	if (!EFI_ERROR(err))
		err = BS->HandleProtocol(li->DeviceHandle, &bio_guid, (void **)&b.bio);
	if (EFI_ERROR(err))
		log_error("no Block I/O on the boot partition: %s", efi_status_str(err));
	if (!EFI_ERROR(err))
		err = open_volumes(li->DeviceHandle, &b);
	if (!EFI_ERROR(err))
		err = read_extent(b.root[FAT], &b.offset, &b.size, &b.crc);
	if (!EFI_ERROR(err))
		err = run(&b);
	file_close(b.root[FAT]);
	file_close(b.root[EXT4]);
	con_print(EFI_ERROR(err) ? "READBENCH failed\n" : "READBENCH done\n");
	RT->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return err;
}
