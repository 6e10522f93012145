/* Secure Boot keys from the ESP, as systemd-boot enrolls them (loader.conf(5)
 * secure-boot-enroll): in Setup Mode only, each \loader\keys\NAME is a menu
 * entry "Enroll Secure Boot keys: NAME"; "if-safe" (in a virtual machine) and
 * "force" enroll \loader\keys\auto before the menu. Either way a countdown
 * that any key stops, every file read and checked before the first write,
 * then sb_keys_write() (db, dbx, KEK, PK) and a reset. */
#include "loader.h"
#include "sb_write.h"
#include "boot.h"
#include "cpu.h"
#include "core/fmt.h"

/* @dir's file for sb_key_vars[@i] into @f, checked; an optional one may be absent. */
static EFI_STATUS read_key(EFI_FILE_PROTOCOL *root, const char *dir, size_t i, struct sb_key_file *f)
{
	EFI_FILE_PROTOCOL *h;
	EFI_STATUS err;

	f->path = fmt_asprintf("%s\\%s", dir, sb_key_vars[i].file);
	if (!f->path)
		return EFI_OUT_OF_RESOURCES;
	if (sb_key_vars[i].optional) {
		if (file_open(root, f->path, &h) != EFI_SUCCESS)
			return EFI_SUCCESS;
		file_close(h);
	}
	err = file_read_all(root, f->path, SB_AUTH_MAX + 1, &f->data, &f->size);
	if (EFI_ERROR(err))
		return err;
	return sb_auth_check(f->data, f->size, f->path, i == SB_KEY_PK);
}

EFI_STATUS sb_enroll(const struct loader *l, const char *dir)
{
	struct sb_key_file files[SB_N_KEYS] = {0};
	EFI_STATUS err = EFI_SUCCESS;

	if (!con_countdown("Enrolling Secure Boot keys from ", dir, l->cfg.sb_enroll_timeout_sec)) {
		log_info("%s: enrollment aborted", dir);
		return EFI_ABORTED;
	}
	for (size_t i = 0; i < SB_N_KEYS && !EFI_ERROR(err); i++)
		err = read_key(l->volumes[0].root, dir, i, &files[i]);
	if (!EFI_ERROR(err))
		err = sb_keys_write(RT, files, l->cfg.sb_enroll_shutdown);
	for (size_t i = 0; i < SB_N_KEYS; i++) {
		mem_free(files[i].data);
		mem_free(files[i].path);
	}
	return err;
}

void sb_enroll_offer(struct loader *l, const struct sb_vars *sb)
{
	static const char auto_dir[] = SB_KEYS_DIR "\\auto"; /* FAT: any case, as systemd-boot */
	enum sb_enroll_do what = sb_enroll_decide(l->cfg.sb_enroll, sb, in_virtual_machine());
	EFI_FILE_PROTOCOL *root = l->volumes[0].root, *h;
	char **names;
	size_t n;

	/* Keys from the loader's own disk only: whoever answers a network boot must not choose the PK. */
	if (what == SB_ENROLL_NOTHING || l->volumes[0].network)
		return;
	/* Entries only beside entries that boot: a key set is never the default. */
	if (l->n_entries && file_list_dir(root, SB_KEYS_DIR, NULL, &names, &n) == EFI_SUCCESS) {
		for (size_t i = 0; i < n; i++)
			bls_add_sb_keys_entry(names[i], &l->entries, &l->n_entries);
		strv_free(names, n);
	}
	if (what != SB_ENROLL_AUTO || file_open(root, auto_dir, &h) != EFI_SUCCESS)
		return;
	file_close(h);
	/* sb_enroll() returns only when aborted or refused: then the menu, the reason under it. */
	if (sb_enroll(l, auto_dir) != EFI_SUCCESS)
		l->force_menu = true;
}
