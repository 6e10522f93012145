/* A fake firmware for host tests: boot services backed by a scripted memory
 * map, counting every call, with the same EFIAPI (ms_abi) as the real one. */
#ifndef FAKE_FW_H
#define FAKE_FW_H

#include <efi/efi.h>
#include <setjmp.h>

#define FAKE_MAP_MAX 512
#define FAKE_DESC_SIZE 48 /* as OVMF: larger than sizeof(EFI_MEMORY_DESCRIPTOR) */

struct fake_fw {
	EFI_SYSTEM_TABLE st;     /* its BootServices, RuntimeServices; ConOut a token */
	EFI_BOOT_SERVICES bs;
	EFI_RUNTIME_SERVICES rt;
	uint8_t map[FAKE_MAP_MAX * FAKE_DESC_SIZE];
	size_t n_desc;
	UINTN map_key;
	int stale_keys;          /* ExitBootServices rejects this many calls as stale */
	bool grow_on_get;        /* each GetMemoryMap adds a descriptor (map changes) */
	int n_get_map, n_alloc_pool, n_free_pool, n_exit, n_alloc_after_first_exit;
	UINTN last_exit_key;
	bool exited;             /* and st's ConOut and BootServices cleared (UEFI 2.10 §7.4.6) */
	/* LocateProtocol answers for this one GUID (NULL: EFI_NOT_FOUND) */
	const EFI_GUID *proto_guid;
	void *proto;
	/* Exit(): calls and the last image and status */
	int n_image_exit;
	EFI_HANDLE last_exit_image;
	EFI_STATUS last_exit_status;
	/* ResetSystem(): calls, the last type and status; it long-jumps to
	 * *reset_jmp (the real one does not return), or aborts without one */
	int n_reset;
	EFI_RESET_TYPE last_reset_type;
	EFI_STATUS last_reset_status;
	jmp_buf *reset_jmp;
};

/** fake_fw_init() - boot services whose memory map holds @n descriptors. */
void fake_fw_init(struct fake_fw *fw, size_t n);
/** fake_fw_add() - append a descriptor. */
void fake_fw_add(struct fake_fw *fw, uint32_t type, uint64_t start, uint64_t pages, uint64_t attr);

#endif
