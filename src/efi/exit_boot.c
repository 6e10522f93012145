/* ExitBootServices with the stale-map-key retry (UEFI 2.10 §7.4.6: the call
 * fails with EFI_INVALID_PARAMETER when MapKey is not current; the loader
 * must get the map again and retry, with no allocation in between). */
#include "exit_boot.h"
#include "core/log.h"

EFI_STATUS memmap_buf_alloc(EFI_BOOT_SERVICES *bs, struct memmap_buf *ret)
{
	struct memmap_buf m = { 0 };
	EFI_STATUS err;

	err = bs->GetMemoryMap(&m.size, NULL, &m.key, &m.desc_size, &m.desc_version);
	if (err != EFI_BUFFER_TOO_SMALL)
		return EFI_ERROR(err) ? err : EFI_DEVICE_ERROR;
	m.capacity = m.size + MEMMAP_SLACK_DESCRIPTORS * m.desc_size;
	/* LoaderData: the kernel reads the map through efi_info after the exit. */
	err = bs->AllocatePool(EfiLoaderData, m.capacity, &m.buf);
	if (EFI_ERROR(err))
		return err;
	*ret = m;
	return EFI_SUCCESS;
}

static EFI_STATUS get_map(EFI_BOOT_SERVICES *bs, struct memmap_buf *m)
{
	m->size = m->capacity;
	return bs->GetMemoryMap(&m->size, m->buf, &m->key, &m->desc_size, &m->desc_version);
}

EFI_STATUS exit_boot_services(EFI_BOOT_SERVICES *bs, EFI_HANDLE image, struct memmap_buf *map,
			      exit_boot_fn fn, void *ctx, bool *ret_called)
{
	EFI_STATUS err;

	*ret_called = false;
	for (int attempt = 0; attempt < 2; attempt++) {
		err = get_map(bs, map);
		if (EFI_ERROR(err))
			return err;
		err = fn(ctx, map);
		if (EFI_ERROR(err))
			return err;
		*ret_called = true;
		err = bs->ExitBootServices(image, map->key);
		if (err != EFI_INVALID_PARAMETER)
			return err;
	}
	return err;
}

/* UEFI 2.10 §7.4.6: after the first call of ExitBootServices, successful or
 * not, a loader should call no boot service but the memory allocation ones,
 * and the firmware may have shut part of itself down. ConOut is no boot
 * service, and a failed call leaves it in the system table: the reason is
 * worth the risk there, as the alternative is a reset nobody can explain. */
void exit_boot_dead_end(const EFI_SYSTEM_TABLE *st, EFI_STATUS err, const char *why)
{
	if (st->ConOut)
		log_error_status(err, "%s after ExitBootServices (%m): resetting", why);
	st->RuntimeServices->ResetSystem(EfiResetCold, err, 0, NULL);
	for (;;)
		__asm__ volatile("cli; hlt");
}
