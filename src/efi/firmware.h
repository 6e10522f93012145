/* Firmware glue shared by the loader and the stub: the global tables (only
 * src/efi holds them), memory, console, files, variables. */
#ifndef EFI_FIRMWARE_H
#define EFI_FIRMWARE_H

#include "core/array.h"
#include "core/log.h"
#include "core/str16.h"
#include "core/trust.h"
#include <efi/efi.h>
#include <efi/proto/device_path.h>
#include <efi/proto/file.h>
#include <efi/proto/loaded_image.h>
#include <efi/proto/simple_file_system.h>
#include <efi/proto/simple_text_in.h>

extern EFI_SYSTEM_TABLE *ST;
extern EFI_BOOT_SERVICES *BS;
extern EFI_RUNTIME_SERVICES *RT;
extern EFI_HANDLE IH; /* this image */
/* SetWatchdogTimer()'s code for handoff's own calls (UEFI 2.10 §7.5: codes below it are the firmware's) */
#define WATCHDOG_CODE 0x10000

/** efi_init() - remember the tables; call first in every efi_main. */
void efi_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);
/** efi_config_table() - the configuration table with @guid (UEFI 2.10 §4.6), or NULL. */
const void *efi_config_table(const EFI_GUID *guid);

/* --- memory (mem.c) --- */
/** pages_alloc() - @size bytes of EfiLoaderData pages, @align-aligned, ending at or below @max_end. */
EFI_STATUS pages_alloc(uint64_t size, uint64_t align, uint64_t max_end, uint64_t *ret_addr);
/** pages_alloc_at() - @size bytes at exactly @addr. */
EFI_STATUS pages_alloc_at(uint64_t addr, uint64_t size);
void pages_free(uint64_t addr, uint64_t size);

/* --- console (console.c) --- */
void con_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_clear(void);
void con_set_color(unsigned attr);
/** con_read_key() - wait for a key up to @timeout_us (0 = forever). EFI_TIMEOUT when none. */
EFI_STATUS con_read_key(uint64_t timeout_us, EFI_INPUT_KEY *ret);
/**
 * con_problems() - the first (up to @max) error/warning lines since
 * con_forget_problems(), oldest first; *@ret_more counts the rest.
 */
size_t con_problems(const char **ret, size_t max, size_t *ret_more);
void con_forget_problems(void);
/** con_log_context() - prefix every error and warning line with @context ("entry 'X': "); NULL clears it. */
void con_log_context(const char *context);
/**
 * con_countdown() - "@what@name in N s, any key aborts." on one line, N from
 * @sec down to 1, a second each. Return: true when they went by, false when
 * a key stopped them (it is read).
 */
bool con_countdown(const char *what, const char *name, uint32_t sec);
/** con_pause_before_exit() - say that handoff returns to the firmware; wait 10 s or for a key. */
void con_pause_before_exit(void);
/* What the console's output, clear and colour calls do instead of ConOut's. */
struct con_screen {
	void (*string)(const CHAR16 *s);
	void (*clear)(void);
	void (*color)(unsigned attr);
};
/** con_screen_set() - send the console to @s (NULL: back to ConOut). */
void con_screen_set(const struct con_screen *s);
/**
 * con_graphics_start() - (gfxcon.c) on a GOP wider than Full HD, draw the
 * console with the loader's scaled font from now on, the text still sent to
 * the serial terminal; elsewhere, or when anything fails, ConOut as before.
 * Called again after the text mode changed (console-mode).
 */
void con_graphics_start(void);

/* devpath.c: device paths (UEFI 2.10 §10) */
/**
 * image_load_file() - the firmware's LoadImage of @path on @device (verified
 * under Secure Boot, measured into PCR 4), not started; a refusal or failure
 * is logged as "@what @path: ...". Return: EFI_SUCCESS with *@ret the image,
 * else the error and *@ret NULL.
 */
EFI_STATUS image_load_file(EFI_HANDLE device, const char *what, const char *path, EFI_HANDLE *ret);
/** connect_all_controllers() - every handle's drivers started (ConnectController, recursively). */
void connect_all_controllers(void);
/** devpath_node_len() - a node's Length field. */
uint16_t devpath_node_len(const EFI_DEVICE_PATH_PROTOCOL *n);
/** devpath_find() - @dp's first node of @type/@subtype at least @min_len long, before its end; NULL if none or @dp is
 * NULL. */
const void *devpath_find(const EFI_DEVICE_PATH_PROTOCOL *dp, uint8_t type, uint8_t subtype, size_t min_len);
/** devpath_size() - bytes of @dp, its end node included. */
size_t devpath_size(const EFI_DEVICE_PATH_PROTOCOL *dp);
/** devpath_for_file() - the device's path plus a file path node for @path. */
EFI_DEVICE_PATH_PROTOCOL *devpath_for_file(EFI_HANDLE device, const char *path);

/* --- files (file.c) --- */
/** file_open_root() - the root directory of the volume on @device. */
EFI_STATUS file_open_root(EFI_HANDLE device, EFI_FILE_PROTOCOL **ret);
/** file_open() - open @path (UTF-8, '/' or '\\') under @root for reading. */
EFI_STATUS file_open(EFI_FILE_PROTOCOL *root, const char *path, EFI_FILE_PROTOCOL **ret);
/** file_open_rw() - open @path under @root for reading and writing (EFI_WRITE_PROTECTED on read-only volumes). */
EFI_STATUS file_open_rw(EFI_FILE_PROTOCOL *root, const char *path, EFI_FILE_PROTOCOL **ret);
/** file_info() - the file's EFI_FILE_INFO in a new pool buffer. */
EFI_STATUS file_info(EFI_FILE_PROTOCOL *f, EFI_FILE_INFO **ret);
/** file_size() - size in bytes from EFI_FILE_INFO. */
EFI_STATUS file_size(EFI_FILE_PROTOCOL *f, uint64_t *ret);
/** file_read_exact() - read @size bytes into @buf (chunked). */
EFI_STATUS file_read_exact(EFI_FILE_PROTOCOL *f, void *buf, uint64_t size, const char *path);
#define FILE_READ_ALL_MAX (2ull << 30) /* kernels and UKIs: 2 GiB is far beyond any */
/**
 * file_read_all() - whole file into a new pool buffer (+1 NUL byte); errors
 * logged with @path. A file of @max bytes or more (or FILE_READ_ALL_MAX) is
 * refused unread.
 */
EFI_STATUS file_read_all(EFI_FILE_PROTOCOL *root, const char *path, uint64_t max, uint8_t **ret, size_t *ret_size);
/** file_stat() - does @path open under @root (a file or a directory)? Its size in *@ret_size (may be NULL). */
EFI_STATUS file_stat(EFI_FILE_PROTOCOL *root, const char *path, uint64_t *ret_size);
void file_close(EFI_FILE_PROTOCOL *f);
/*
 * struct file_fast_ops - a faster way to read large files of some volumes
 * (fat_fast.c, set by the loader only): told of every file opened and
 * closed; read() serves file_read_exact() calls of FILE_FAST_MIN bytes or
 * more from the file's current position, returning EFI_SUCCESS only when it
 * read them all (and moved the position past them), else the firmware reads.
 */
#define FILE_FAST_MIN (1u << 20)
struct file_fast_ops {
	void (*opened)(EFI_FILE_PROTOCOL *root, const char *path, EFI_FILE_PROTOCOL *f);
	EFI_STATUS (*read)(EFI_FILE_PROTOCOL *f, void *buf, uint64_t size);
	void (*closed)(EFI_FILE_PROTOCOL *f);
};
extern const struct file_fast_ops *file_fast;
/**
 * file_list_dir() - names (UTF-8) of regular files in @dir_path ending in
 * @suffix; with @suffix NULL, of its directories but "." and "..".
 */
EFI_STATUS file_list_dir(EFI_FILE_PROTOCOL *root, const char *dir_path, const char *suffix,
			 char ***ret_names, size_t *ret_n);

/* --- variables (vars.c) --- */
/** secure_boot_read() - SecureBoot, SetupMode and shim's MokSBStateRT, as read. */
void secure_boot_read(struct sb_vars *ret);

#endif
