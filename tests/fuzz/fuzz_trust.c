/* libFuzzer: the Image Execution Information Table walk (src/core/trust.c). */
#include "core/trust.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t action;

	if (image_exec_info_last_action(data, size, &action) == EFI_SUCCESS)
		(void)trust_refusal_reason(EFI_SECURITY_VIOLATION, size & 1, action);
	return 0;
}
