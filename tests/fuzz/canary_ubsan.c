/* Not a fuzzer: proof that the fuzz build stops on undefined behaviour. The
 * corpus replay (tests/check.d/20-fuzz-corpus.sh) runs it on an input that
 * overflows a signed int and requires a UBSan report and a failed run, so a
 * build that merely prints "runtime error" and carries on is caught. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile int x = 0x7fffffff;

	if (size > 0 && data[0] == '!')
		x += (int)size; /* signed overflow: undefined */
	return x == 0;
}
