/* Arrays grow one element at a time: the lists here (entries, initrds,
 * volumes) are short, and an allocation per append keeps the code simple. */
#include "array.h"

EFI_STATUS array_append(void *array_ptr, size_t *n, size_t size, const void *elem)
{
	void **array = array_ptr;
	uint8_t *grown = mem_alloc((*n + 1) * size);

	if (!grown)
		return EFI_OUT_OF_RESOURCES;
	if (*n)
		memcpy(grown, *array, *n * size);
	memcpy(grown + *n * size, elem, size);
	mem_free(*array);
	*array = grown;
	(*n)++;
	return EFI_SUCCESS;
}

void strv_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		mem_free(v[i]);
	mem_free(v);
}

void strv_sort(char **v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}
