/* The console drawn by the loader itself on GOP (UEFI 2.10 §12.9 Blt) with
 * its scaled bitmap font, on screens wider than Full HD (src/core/gterm.c):
 * the menu, the editor, the password prompt and the problems under them.
 * The text goes on to the console's first text output that is not the
 * graphics one (the serial terminal: §12.4 Simple Text Output on a handle
 * without a GOP), so a serial console reads the same lines as before. */
#include "firmware.h"
#include "core/font.h"
#include "core/gterm.h"
#include <efi/proto/graphics_output.h>
#include <efi/proto/simple_text_out.h>

static EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
static EFI_GUID text_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
static EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
static struct gterm term;
static uint32_t *row_px;
static EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *serial;

static void flush(void)
{
	uint32_t h = FONT_HEIGHT * term.scale;

	for (uint32_t r = term.dirty_lo; r < term.dirty_hi; r++) {
		gterm_render_row(&term, r, row_px);
		gop->Blt(gop, (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)row_px, EfiBltBufferToVideo, 0, 0, 0, r * h,
			 term.cols * FONT_WIDTH * term.scale, h, 0);
	}
	term.dirty_lo = term.dirty_hi = 0;
}

static void gfx_string(const CHAR16 *s)
{
	if (serial)
		serial->OutputString(serial, (CHAR16 *)s);
	while (*s)
		gterm_putc(&term, *s++);
	flush();
}

static void gfx_clear(void)
{
	if (serial)
		serial->ClearScreen(serial);
	gterm_clear(&term);
	flush();
}

static void gfx_color(unsigned attr)
{
	if (serial)
		serial->SetAttribute(serial, attr);
	term.attr = (uint8_t)attr;
}

static const struct con_screen screen = { gfx_string, gfx_clear, gfx_color };

/* The first text output that draws no pixels: not the console's own
 * (ConsoleOutHandle, the firmware's splitter), not one on a GOP's handle. */
static void find_serial(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	void *p;

	serial = NULL;
	if (BS->LocateHandleBuffer(ByProtocol, &text_guid, NULL, &n, &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < n && !serial; i++)
		if (handles[i] != ST->ConsoleOutHandle && BS->HandleProtocol(handles[i], &gop_guid, &p) != EFI_SUCCESS)
			BS->HandleProtocol(handles[i], &text_guid, (void **)&serial);
	BS->FreePool(handles);
}

void con_graphics_start(void)
{
	const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL black = { 0 };
	uint32_t scale;

	con_screen_set(NULL);
	mem_free(term.cells), term.cells = NULL;
	mem_free(row_px), row_px = NULL;
	/* Best effort: without a GOP, a mode or memory, the firmware draws as before. */
	if (BS->HandleProtocol(ST->ConsoleOutHandle, &gop_guid, (void **)&gop) != EFI_SUCCESS &&
	    BS->LocateProtocol(&gop_guid, NULL, (void **)&gop) != EFI_SUCCESS)
		return;
	if (!gop->Mode || !(info = gop->Mode->Info))
		return;
	scale = gterm_scale(info->HorizontalResolution, info->VerticalResolution);
	if (!scale || !gterm_init(&term, info->HorizontalResolution, info->VerticalResolution, scale))
		return;
	term.cells = mem_zalloc(gterm_cells(&term) * sizeof(*term.cells)); /* no blanks: the first clear renders all */
	row_px = mem_alloc(gterm_row_pixels(&term) * sizeof(*row_px));
	if (!term.cells || !row_px)
		return;
	gop->Blt(gop, &black, EfiBltVideoFill, 0, 0, 0, 0, info->HorizontalResolution, info->VerticalResolution, 0);
	find_serial();
	con_screen_set(&screen);
	gfx_color(ST->ConOut->Mode->Attribute);
	gfx_clear();
}
