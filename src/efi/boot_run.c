/* One dispatch from a resolved plan to its scheme, for the loader and the stub. */
#include "boot.h"

EFI_STATUS boot_run(const struct boot_plan *plan)
{
	switch (plan->scheme) {
	case SCHEME_STUB: return boot_stub(plan);
	case SCHEME_HANDOVER: return boot_handover(plan);
	case SCHEME_LEGACY: return boot_legacy(plan);
	default: return EFI_INVALID_PARAMETER;
	}
}
