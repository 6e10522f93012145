/* libFuzzer: the Image Execution Information Table walk (src/core/trust.c)
 * and the TCG_PCR_EVENT2 size walk (src/core/tcg_event.c). */
#include "core/tcg_event.h"
#include "core/trust.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t action;

	if (image_exec_info_last_action(data, size, &action) == EFI_SUCCESS)
		(void)trust_refusal_reason(EFI_SECURITY_VIOLATION, size & 1, action);
	(void)tcg2_events_size(data, size, size & 7);
	return 0;
}
