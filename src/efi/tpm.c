/* Measurements into the TPM through EFI_TCG2_PROTOCOL (TCG EFI Protocol
 * Specification §6.6.5 HashLogExtendEvent): the firmware hashes the buffer,
 * extends the PCR and appends the event to its log, so the log replays.
 * Without a TPM nothing is measured and nothing is printed. */
#include "measure.h"
#include "core/tcg_event.h"
#include <efi/linux.h>
#include <efi/proto/tcg2.h>

static EFI_GUID tcg2_guid = EFI_TCG2_PROTOCOL_GUID;
static EFI_GUID tcg2_final_events_table_guid = EFI_TCG2_FINAL_EVENTS_TABLE_GUID;
static EFI_GUID linux_tpm_event_log_guid = LINUX_EFI_TPM_EVENT_LOG_GUID;

/* Bounds for walking firmware-owned logs whose end is not given. */
#define EVENT_MAX (1u << 20)
#define FINAL_LOG_MAX (16u << 20)

static EFI_TCG2_PROTOCOL *tcg2(void)
{
	static EFI_TCG2_PROTOCOL *proto;
	static bool looked;
	EFI_TCG2_BOOT_SERVICE_CAPABILITY cap = { .Size = sizeof(cap) };

	if (looked)
		return proto;
	looked = true;
	if (BS->LocateProtocol(&tcg2_guid, NULL, (void **)&proto) != EFI_SUCCESS)
		return proto = NULL;
	/* §6.4.4: a firmware may install the protocol with the TPM absent or disabled. */
	if (proto->GetCapability(proto, &cap) != EFI_SUCCESS || !cap.TPMPresentFlag)
		proto = NULL;
	return proto;
}

bool tpm_present(void)
{
	return tcg2() != NULL;
}

/* A measurement that fails stops the boot: a kernel that ran unmeasured could
 * extend the PCR with the expected value itself (issue 21). Said once. */
static EFI_STATUS extend(uint64_t flags, uint8_t *event, const void *data, size_t size, const char *what)
{
	EFI_TCG2_PROTOCOL *t = tcg2();
	EFI_STATUS err;

	if (!t) {
		mem_free(event);
		return EFI_SUCCESS;
	}
	err = event ? t->HashLogExtendEvent(t, flags, (EFI_PHYSICAL_ADDRESS)(uintptr_t)data, size,
					    (EFI_TCG2_EVENT *)event)
		    : EFI_OUT_OF_RESOURCES;
	mem_free(event);
	if (EFI_ERROR(err))
		return log_error_status(err, "TPM: cannot measure %s (%zu bytes): %m: not booting it unmeasured", what,
					size);
	return EFI_SUCCESS;
}

EFI_STATUS tpm_measure_ipl_ascii(uint32_t pcr, const char *desc, const void *data, size_t size)
{
	size_t n = 0;

	return extend(0, tcg_event_new_ipl_ascii(pcr, desc, &n), data, size, desc);
}

EFI_STATUS tpm_measure_tagged(uint32_t pcr, uint32_t tag, const char *desc, const void *data, size_t size)
{
	size_t n = 0;

	return extend(0, tcg_event_new_tagged(pcr, tag, desc, &n), data, size, desc);
}

EFI_STATUS measure_linux_stub_params(const CHAR16 *opts, size_t opts_bytes, const void *initrd,
				     size_t initrd_size)
{
	EFI_STATUS err = tpm_measure_tagged(TPM_PCR_LINUX_STUB, LINUX_EVENT_TAG_LOAD_OPTIONS,
					    LINUX_EVENT_DESC_LOAD_OPTIONS, opts, opts_bytes);

	if (EFI_ERROR(err) || !initrd_size)
		return err;
	return tpm_measure_tagged(TPM_PCR_LINUX_STUB, LINUX_EVENT_TAG_INITRD, LINUX_EVENT_DESC_INITRD, initrd,
				  initrd_size);
}

EFI_STATUS measure_cmdline_pcr12(const CHAR16 *opts, size_t opts_bytes)
{
	size_t n = 0;

	return extend(0, tcg_event_new_ipl(TPM_PCR_KERNEL_CONFIG, opts, opts_bytes, &n), opts, opts_bytes,
		      "the command line");
}

/* TCG EFI Protocol §6.6.5: with PE_COFF_IMAGE the firmware hashes the image as
 * LoadImage does (the Authenticode digest), so PCR 4 gets the value
 * LoadImage would have put there; else the file's SHA-256. */
EFI_STATUS tpm_measure_image(const void *image, size_t size, bool pe, const EFI_DEVICE_PATH_PROTOCOL *dp,
			     const char *path)
{
	size_t n = 0;

	return extend(pe ? EFI_TCG2_PE_COFF_IMAGE : 0,
		      tcg_event_new_image(TPM_PCR_BOOT_LOADER_CODE, (uintptr_t)image, size, dp,
					  dp ? devpath_size(dp) : 0, &n),
		      image, size, path);
}

uint64_t tpm_log_mark(void)
{
	EFI_TCG2_PROTOCOL *t = tcg2();
	EFI_PHYSICAL_ADDRESS first = 0, last = 0;
	BOOLEAN truncated = FALSE;

	if (!t || t->GetEventLog(t, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &first, &last, &truncated) != EFI_SUCCESS ||
	    truncated)
		return 0;
	return last;
}

/* The only event a LoadImage that fails logs is its measurement of the image:
 * PCR 7's EV_EFI_VARIABLE_AUTHORITY event (PC Client PFP) comes with an image
 * that passed verification, which the measurement then follows. */
bool tpm_logged_since(uint64_t mark)
{
	return mark && tpm_log_mark() != mark;
}

/* Bytes already in the final events table (logged after an earlier GetEventLog). */
static bool final_events_size(size_t *ret)
{
	const EFI_TCG2_FINAL_EVENTS_TABLE *f = efi_config_table(&tcg2_final_events_table_guid);

	*ret = 0;
	if (!f || f->NumberOfEvents == 0)
		return true;
	*ret = tcg2_events_size((const uint8_t *)(f + 1), FINAL_LOG_MAX, f->NumberOfEvents);
	return *ret != 0;
}

void tpm_publish_event_log(void)
{
	EFI_TCG2_PROTOCOL *t = tcg2();
	EFI_PHYSICAL_ADDRESS first = 0, last = 0;
	BOOLEAN truncated = FALSE;
	LINUX_EFI_TPM_EVENTLOG *tbl;
	size_t last_size, final_size;
	uint64_t size;

	if (!t)
		return;
	if (t->GetEventLog(t, EFI_TCG2_EVENT_LOG_FORMAT_TCG_2, &first, &last, &truncated) != EFI_SUCCESS || !first ||
	    last <= first)
		return (void)log_warning("TPM: no TCG2 event log to hand to Linux");
	/* The first record is the Spec ID event; the last one's size is read from it. */
	last_size = tcg2_event_size((const uint8_t *)(uintptr_t)last, EVENT_MAX);
	size = last - first + last_size;
	if (!last_size || size > UINT32_MAX || !final_events_size(&final_size) || final_size > UINT32_MAX)
		return (void)log_warning("TPM: the firmware's event log is malformed, not handed to Linux");
	if (BS->AllocatePool(EfiACPIReclaimMemory, offsetof(LINUX_EFI_TPM_EVENTLOG, log) + size, (void **)&tbl) !=
	    EFI_SUCCESS)
		return (void)log_warning("TPM: no memory for the event log");
	tbl->size = (uint32_t)size;
	tbl->final_events_preboot_size = (uint32_t)final_size;
	tbl->version = EFI_TCG2_EVENT_LOG_FORMAT_TCG_2;
	memcpy(tbl->log, (const void *)(uintptr_t)first, size);
	if (BS->InstallConfigurationTable(&linux_tpm_event_log_guid, tbl) != EFI_SUCCESS) {
		BS->FreePool(tbl);
		log_warning("TPM: cannot install the event log table");
	}
}
