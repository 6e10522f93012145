/* handoff's own SBAT metadata in a ".sbat" section of handoff.efi and
 * handoff-stub.efi: shim (SBAT.md) refuses a second stage without one and
 * revokes by the generation numbers in it. CSV lines, no NUL (the section
 * size is the text size); the Makefile keeps the symbol with /include. */
#include "core/uki.h"

__attribute__((section(".sbat"), used)) const char handoff_sbat[sizeof(UKI_SBAT_DEFAULT) - 1] = UKI_SBAT_DEFAULT;
