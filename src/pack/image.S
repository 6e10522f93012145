/* The loader's packed image (src/core/pack.h) as a section of its own,
 * .image (read-only; the unpacker's code and constants are merged into it by
 * the Makefile, after the payload), between two symbols that
 * src/pack/unpack.c reads. HANDOFF_PACKED is the payload file, set by the
 * Makefile. IA-32 C symbols carry a leading underscore. */
#ifdef __i386__
#define SYM(x) _##x
	/* no exception handlers here: compatible with /safeseh (PE/COFF §5.5.1 @feat.00 bit 0) */
	.globl @feat.00
	.set @feat.00, 1
#else
#define SYM(x) x
#endif
	.section .image,"xr"
	.globl SYM(handoff_image)
	.globl SYM(handoff_image_end)
	.p2align 4
SYM(handoff_image):
	.incbin HANDOFF_PACKED
SYM(handoff_image_end):
