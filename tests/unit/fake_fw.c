#include "fake_fw.h"
#include "core/platform.h"
#include <stddef.h>
#include <stdlib.h>

/* Only one fake is live at a time; the callbacks get no "this" pointer. */
static struct fake_fw *current;

void fake_fw_add(struct fake_fw *fw, uint32_t type, uint64_t start, uint64_t pages, uint64_t attr)
{
	EFI_MEMORY_DESCRIPTOR d = { .Type = type, .PhysicalStart = start, .NumberOfPages = pages, .Attribute = attr };

	memset(fw->map + fw->n_desc * FAKE_DESC_SIZE, 0, FAKE_DESC_SIZE);
	memcpy(fw->map + fw->n_desc * FAKE_DESC_SIZE, &d, sizeof(d));
	fw->n_desc++;
	fw->map_key++;
}

static EFI_STATUS EFIAPI fake_get_memory_map(UINTN *size, EFI_MEMORY_DESCRIPTOR *buf, UINTN *key,
					     UINTN *desc_size, UINT32 *desc_version)
{
	struct fake_fw *fw = current;
	UINTN need;

	fw->n_get_map++;
	if (fw->grow_on_get && buf)
		fake_fw_add(fw, EfiBootServicesData, 0x10000000 + fw->n_desc * 0x1000, 1, 0);
	need = fw->n_desc * FAKE_DESC_SIZE;
	*desc_size = FAKE_DESC_SIZE;
	*desc_version = 1;
	if (!buf || *size < need) {
		*size = need;
		return EFI_BUFFER_TOO_SMALL;
	}
	memcpy(buf, fw->map, need);
	*size = need;
	*key = fw->map_key;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_allocate_pool(EFI_MEMORY_TYPE type, UINTN size, VOID **ret)
{
	struct fake_fw *fw = current;

	fw->n_alloc_pool++;
	if (fw->n_exit)
		fw->n_alloc_after_first_exit++;
	*ret = malloc(size);
	return *ret ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

static EFI_STATUS EFIAPI fake_free_pool(VOID *p)
{
	current->n_free_pool++;
	free(p);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_exit_boot_services(EFI_HANDLE image, UINTN key)
{
	struct fake_fw *fw = current;

	fw->n_exit++;
	fw->last_exit_key = key;
	if (fw->stale_keys > 0) {
		fw->stale_keys--;
		fw->map_key++; /* the map changed under us */
		return EFI_INVALID_PARAMETER;
	}
	if (key != fw->map_key)
		return EFI_INVALID_PARAMETER;
	fw->exited = true;
	fw->st.ConOut = NULL;
	fw->st.BootServices = NULL;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_locate_protocol(const EFI_GUID *guid, VOID *registration, VOID **ret)
{
	struct fake_fw *fw = current;

	(void)registration;
	if (!fw->proto_guid || memcmp(guid, fw->proto_guid, sizeof(*guid)))
		return EFI_NOT_FOUND;
	*ret = fw->proto;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_exit(EFI_HANDLE image, EFI_STATUS status, UINTN data_size, CHAR16 *data)
{
	struct fake_fw *fw = current;

	(void)data_size;
	(void)data;
	fw->n_image_exit++;
	fw->last_exit_image = image;
	fw->last_exit_status = status;
	return EFI_SUCCESS; /* the real one does not return to the image */
}

static VOID EFIAPI fake_reset_system(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, VOID *data)
{
	struct fake_fw *fw = current;

	(void)data_size;
	(void)data;
	fw->n_reset++;
	fw->last_reset_type = type;
	fw->last_reset_status = status;
	if (!fw->reset_jmp)
		abort();
	longjmp(*fw->reset_jmp, 1);
}

void fake_fw_init(struct fake_fw *fw, size_t n)
{
	memset(fw, 0, sizeof(*fw));
	current = fw;
	fw->bs.GetMemoryMap = fake_get_memory_map;
	fw->bs.AllocatePool = fake_allocate_pool;
	fw->bs.FreePool = fake_free_pool;
	fw->bs.ExitBootServices = fake_exit_boot_services;
	fw->bs.LocateProtocol = fake_locate_protocol;
	fw->bs.Exit = fake_exit;
	fw->bs.Hdr.HeaderSize = sizeof(fw->bs);
	fw->rt.ResetSystem = fake_reset_system;
	fw->st.BootServices = &fw->bs;
	fw->st.RuntimeServices = &fw->rt;
	fw->st.ConOut = (EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *)fw; /* a token: host logs go to the test */
	for (size_t i = 0; i < n; i++)
		fake_fw_add(fw, i % 3 ? EfiConventionalMemory : EfiBootServicesData, i * 0x100000, 0x100, 0);
}
