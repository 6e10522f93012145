/* Large files of FAT volumes read around the firmware's FAT driver
 * (docs/design.md "Reading FAT files"): the firmware opens and sizes the
 * file; src/core/fat.c finds the same file's clusters once, and its bytes come
 * from Disk I/O (UEFI 2.10 §13.7) in one request per contiguous run. Anything
 * unexpected (a name fat.c does not match, another size, a chain it refuses,
 * a failed read) leaves the read to the firmware, unchanged. */
#include "firmware.h"
#include "volumes.h"
#include "core/fat.h"
#include "core/fmt.h"
#include <efi/proto/block_io.h>
#include <efi/proto/disk_io.h>

#define MAX_VOLUMES 4
#define MAX_FILES 8

static EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID disk_io_guid = EFI_DISK_IO_PROTOCOL_GUID;

struct fast_vol {
	EFI_FILE_PROTOCOL *root;
	EFI_DISK_IO_PROTOCOL *disk;
	uint32_t media_id;
	struct fat_vol fat;
};

/* A file opened on a fast volume; mapped at its first large read. */
struct fast_file {
	EFI_FILE_PROTOCOL *f;
	struct fast_vol *vol;
	char *path;
	struct fat_extent *ext; /* NULL: not mapped yet, or (mapped) an empty file */
	size_t n;
	bool mapped, failed;
};

static struct fast_vol *vols[MAX_VOLUMES];
static struct fast_file files[MAX_FILES];

static EFI_STATUS disk_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	struct fast_vol *v = ctx;

	return v->disk->ReadDisk(v->disk, v->media_id, offset, len, buf);
}

static struct fast_file *find_file(EFI_FILE_PROTOCOL *f)
{
	for (size_t i = 0; i < MAX_FILES; i++)
		if (files[i].f == f)
			return &files[i];
	return NULL;
}

static void fast_opened(EFI_FILE_PROTOCOL *root, const char *path, EFI_FILE_PROTOCOL *f)
{
	struct fast_file *slot = find_file(NULL);

	for (size_t i = 0; slot && i < MAX_VOLUMES; i++)
		if (vols[i] && vols[i]->root == root) {
			*slot = (struct fast_file){ .vol = vols[i], .path = fmt_asprintf("%s", path) };
			slot->f = slot->path ? f : NULL;
			return;
		}
}

static void fast_closed(EFI_FILE_PROTOCOL *f)
{
	struct fast_file *ff = find_file(f);

	if (!ff)
		return;
	mem_free(ff->path);
	mem_free(ff->ext);
	*ff = (struct fast_file){ 0 };
}

static EFI_STATUS fast_map(struct fast_file *ff)
{
	uint64_t size;
	EFI_STATUS err = file_size(ff->f, &size);

	if (err == EFI_SUCCESS)
		err = fat_map(&ff->vol->fat, ff->path, size, &ff->ext, &ff->n);
	if (err != EFI_SUCCESS)
		log_status(LOG_DEBUG, err, "%s: read through the firmware's FAT driver: %m", ff->path);
	ff->mapped = err == EFI_SUCCESS;
	ff->failed = !ff->mapped;
	return err;
}

static EFI_STATUS fast_read(EFI_FILE_PROTOCOL *f, void *buf, uint64_t size)
{
	struct fast_file *ff = find_file(f);
	uint64_t pos;
	EFI_STATUS err;

	if (!ff || ff->failed || (!ff->mapped && fast_map(ff) != EFI_SUCCESS))
		return EFI_UNSUPPORTED;
	err = f->GetPosition(f, &pos);
	if (err == EFI_SUCCESS)
		err = fat_extents_read(&ff->vol->fat, ff->ext, ff->n, pos, buf, size);
	if (err == EFI_SUCCESS)
		err = f->SetPosition(f, pos + size);
	if (err != EFI_SUCCESS) { /* the position did not move: the firmware reads it all */
		log_status(LOG_DEBUG, err, "%s: Disk I/O read: %m; through the firmware's FAT driver", ff->path);
		ff->failed = true;
	}
	return err;
}

static const struct file_fast_ops fast_ops = { fast_opened, fast_read, fast_closed };

void fat_fast_attach(EFI_HANDLE device, EFI_FILE_PROTOCOL *root)
{
	EFI_BLOCK_IO_PROTOCOL *bio;
	struct fast_vol *v;
	size_t slot = 0;

	while (slot < MAX_VOLUMES && vols[slot])
		slot++;
	if (slot == MAX_VOLUMES || BS->HandleProtocol(device, &block_io_guid, (void **)&bio) != EFI_SUCCESS ||
	    bio->Media->BlockSize == 0 || bio->Media->LastBlock >= UINT64_MAX / bio->Media->BlockSize ||
	    !(v = mem_zalloc(sizeof(*v))))
		return;
	v->root = root;
	v->media_id = bio->Media->MediaId;
	if (BS->HandleProtocol(device, &disk_io_guid, (void **)&v->disk) != EFI_SUCCESS ||
	    fat_mount(&v->fat, disk_read, v, (bio->Media->LastBlock + 1) * bio->Media->BlockSize) != EFI_SUCCESS) {
		mem_free(v);
		return;
	}
	vols[slot] = v;
	file_fast = &fast_ops;
}
