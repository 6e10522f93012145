/* The apply step (docs/design.md "The boot flow"): a boot job is the plan
 * (src/core/boot_plan.h, decided before anything is allocated) and the inputs
 * it is carried out on: the image bytes, the command line, the initrds. Each
 * scheme file exports one boot_<scheme>() that decides nothing and returns
 * only on failure, with the reason logged and what it allocated freed. */
#ifndef EFI_BOOT_H
#define EFI_BOOT_H

#include "firmware.h"
#include "core/bootparams.h"
#include "core/boot_plan.h"
#include "core/cmdline.h"
#include <efi/proto/load_file.h>

struct initrd_file {
	char *path;                 /* for messages */
	EFI_FILE_PROTOCOL *file;    /* read from here ... */
	const uint8_t *data;        /* ... or copied from memory (an embedded .initrd) ... */
	EFI_LOAD_FILE2_PROTOCOL *lf2; /* ... or read from another loader's LoadFile2 */
	uint64_t size;
	uint64_t offset;            /* in the concatenation (initrd_layout_append) */
};

/* All initrds of an entry, read straight into whatever buffer the consumer
 * (the loader's pages, or the kernel's own LoadFile2 buffer) provides. */
struct initrd_set {
	struct initrd_file *files;
	size_t n;
	uint64_t total_size;   /* each file but the last padded to 4 bytes; <= INITRD_MAX_TOTAL */
};

/* Where the kernel image lies when it was read straight into its final
 * pages: the protected-mode kernel at @kernel_addr, the file's setup area
 * just below it, [@addr, @addr + @size) allocated. */
struct kernel_region {
	uint64_t addr, size;
	uint64_t kernel_addr;
};

/* One more EV_IPL event, made by boot_verify() after the command line's. */
struct boot_measure {
	uint32_t pcr;
	const char *desc;
	const void *data;
	size_t size;
};

struct boot_job {
	const char *title;          /* entry title, for messages */
	const char *kernel_path;    /* on the entry's volume */
	EFI_HANDLE device;          /* the volume's handle (for the file device path) */
	const EFI_DEVICE_PATH_PROTOCOL *devpath; /* stub scheme: used as is when set */
	const uint8_t *image;       /* the kernel file, whole */
	size_t image_size;
	struct kernel_region region; /* .kernel_addr != 0: @image was read into the kernel's pages */
	struct image_info info;     /* image_identify() result */
	const char *cmdline;        /* UTF-8, may be "" */
	struct cmdline_forms cmdline_forms; /* boot_verify(): @cmdline as every scheme hands it over and measures it */
	bool cmdline_outside;       /* @cmdline is not the image's own: measured into PCR 12 (trust.h) */
	const char *cmdline_addons; /* the end of @cmdline that UKI addons added: PCR 12 after it (stub) */
	const char *cmdline_smbios; /* the end of @cmdline from SMBIOS: PCR 12 after the addons' (stub) */
	const struct boot_measure *measure_after; /* the /.extra archives (companion files, "extra"), after the lines */
	size_t n_measure_after;
	struct initrd_set *initrds; /* may have n == 0 */
	struct boot_plan plan;      /* plan_boot() */
};

/* verify.c */
/** shim_present() - handoff was started by shim (SHIM_LOCK is installed). */
bool shim_present(void);
/**
 * image_verify() - verify and/or LoadImage job->image as job->plan.trust says,
 * before any byte of it runs. For the stub scheme *@ret_child is the loaded
 * image to start; for the others it has been unloaded again (NULL).
 * Return: EFI_SUCCESS, or the refusal, logged with the file and the reason.
 */
EFI_STATUS image_verify(const struct boot_job *job, EFI_HANDLE *ret_child);

/* initrd.c */
/**
 * initrd_set_add_files() - open every path under @root and append it, sizes
 * known up front. Errors name the file; the set keeps what was added (close it).
 */
EFI_STATUS initrd_set_add_files(struct initrd_set *set, EFI_FILE_PROTOCOL *root, char *const *paths, size_t n);
/** initrd_set_add_data() - append an in-memory initrd (not copied; must outlive the set). */
EFI_STATUS initrd_set_add_data(struct initrd_set *set, const char *what, const uint8_t *data, uint64_t size);
/**
 * initrd_set_read() - read all files into @buf (@buf_size bytes, at least
 * total_size), padding with zeros. Every copy is checked against @buf_size.
 */
EFI_STATUS initrd_set_read(struct initrd_set *set, uint8_t *buf, uint64_t buf_size);
void initrd_set_close(struct initrd_set *set);
/** initrd_lf2_install() - offer @set through LoadFile2 on the Linux initrd media path. */
EFI_STATUS initrd_lf2_install(struct initrd_set *set, EFI_HANDLE *ret_handle);
void initrd_lf2_uninstall(EFI_HANDLE handle);

/* Another loader's LoadFile2 initrd, read and then moved out of the way so
 * that ours can take the device path; put back if the kernel returns. */
struct lf2_foreign {
	EFI_HANDLE handle;
	void *devpath, *lf2;
};
/**
 * initrd_set_add_foreign() - add the initrd another loader registered
 * (LoadFile2 on the initrd media path), by size only: it is read straight into
 * the kernel's buffer (initrd_set_read()). Unregisters it so that ours can
 * take the path. EFI_NOT_FOUND when there is none.
 */
EFI_STATUS initrd_set_add_foreign(struct initrd_set *set, struct lf2_foreign *saved);
/**
 * initrd_lf2_hide_foreign() - unregister another loader's initrd without
 * reading it, so the kernel started next cannot take it either.
 * Return: EFI_SUCCESS (hidden), EFI_NOT_FOUND (there is none), or why it
 * stays registered (logged).
 */
EFI_STATUS initrd_lf2_hide_foreign(struct lf2_foreign *saved);
void initrd_lf2_restore_foreign(struct lf2_foreign *saved);

/* linux_load.c: shared by handover and legacy */
/**
 * kernel_region_alloc() - pages for the protected-mode kernel of @lay at a
 * kernel_alignment-aligned address (pref_address first), @lay->alloc_size
 * bytes from it, and @below bytes under it (a whole file's setup area, so the
 * file can be read in one piece with its kernel landing in place).
 * Return: EFI_SUCCESS or the reason, logged naming @name.
 */
EFI_STATUS kernel_region_alloc(const struct kernel_layout *lay, uint64_t below, const char *name,
			       struct kernel_region *ret);
struct linux_loaded {
	uint64_t kernel_addr;
	uint64_t move_to;              /* legacy, not relocatable: pref_address, moved to after the exit */
	struct kernel_region region;   /* allocated here (the image was elsewhere), else empty */
	struct boot_params *bp;
	uint64_t cmdline_addr, cmdline_alloc;
	uint64_t initrd_addr, initrd_size;
	uint64_t initrd_alloc;         /* allocated here; 0: the initrd is taken where it is (load_initrd) */
};
/**
 * pages_alloc_clear() - @size bytes of pages below @max_end (pages_alloc()),
 * clear of [@l->move_to, + alloc_size), where a kernel that is not
 * relocatable moves after the exit (boot_legacy()).
 */
EFI_STATUS pages_alloc_clear(const struct boot_job *job, const struct linux_loaded *l, uint64_t size,
			     uint64_t max_end, uint64_t *ret);
/** linux_load() - kernel at an aligned address with init_size room, zero page, command line, initrd. */
EFI_STATUS linux_load(const struct boot_job *job, struct linux_loaded *ret);
void linux_unload(struct linux_loaded *l);
/**
 * boot_job_release() - free the kernel region the job's image was read into
 * and the command line's forms (for _cleanup_).
 */
void boot_job_release(struct boot_job *job);

/* gop.c, pci.c: best effort, so void/bool */
bool gop_framebuffer(struct fb_info *ret);
void pci_add_option_roms(struct boot_params *bp);

/**
 * boot_verify() - make the command line's forms (cmdline_forms_make(): a line
 * that is not well-formed UTF-8 boots nothing), verify and measure @job's
 * image (image_verify), then measure the command line into PCR 12 when
 * planned. Nothing of it has run yet; boot_job_release() frees the forms.
 * Return: EFI_SUCCESS with *@ret_child as image_verify(), or the refusal (logged).
 */
EFI_STATUS boot_verify(struct boot_job *job, EFI_HANDLE *ret_child);
/** boot_start() - start the image boot_verify() accepted by its scheme. Returns only on failure. */
EFI_STATUS boot_start(const struct boot_job *job, EFI_HANDLE child);
/** boot_run() - boot_verify(), then boot_start(). Returns only on failure. */
EFI_STATUS boot_run(struct boot_job *job);

/* the schemes */
/* boot_stub() starts @child, the image image_verify() loaded; unloads it on failure. */
EFI_STATUS boot_stub(const struct boot_job *job, EFI_HANDLE child);
/* x86 firmware's (boot_handover.c, boot_legacy.c); AArch64's plan never has
 * them, and arch_aa64.c's only refuse. */
EFI_STATUS boot_handover(const struct boot_job *job);
EFI_STATUS boot_legacy(const struct boot_job *job);

/* boot_uki.c */
/** boot_uki_applies() - @job (planned for the stub scheme, read whole) is a UKI of handoff's own stub. */
bool boot_uki_applies(const struct boot_job *job);
/**
 * boot_uki() - boot such a UKI's sections from job->image by the stub's path
 * (uki_run()), after boot_verify() (planned with uki_direct); @child, what it
 * loaded to verify or measure, is unloaded first.
 * Return: only when the boot failed (logged).
 */
EFI_STATUS boot_uki(const struct boot_job *job, EFI_HANDLE child);

/* smbios.c */
/**
 * smbios_cmdline() - the SMBIOS OEM string that starts with @prefix
 * (SMBIOS_BOOT_CMDLINE_EXTRA, SMBIOS_STUB_CMDLINE_EXTRA), its value as
 * smbios_cmdline_extra() makes it; NULL when there is none, in a
 * confidential VM (said) or without memory.
 */
char *smbios_cmdline(const char *prefix);

#endif
