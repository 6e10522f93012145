/* Growing arrays without a libc: one copy of "append an element". */
#ifndef CORE_ARRAY_H
#define CORE_ARRAY_H

#include "platform.h"
#include <efi/efi.h>

/**
 * array_append() - grow the array at *@array_ptr (*@n elements of @size bytes)
 * by a copy of @elem. On failure the array is left as it was.
 * Return: EFI_SUCCESS or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS array_append(void *array_ptr, size_t *n, size_t size, const void *elem);
/** strv_free() - free @n strings and the array holding them. */
void strv_free(char **v, size_t n);
/** strv_sort() - sort @n strings by byte value (insertion sort: short lists). */
void strv_sort(char **v, size_t n);

#endif
