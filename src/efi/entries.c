/* Configuration discovery on the boot volume: \loader\loader.conf and the
 * Boot Loader Specification entries in \loader\entries\*.conf. A file that
 * cannot be read or parsed is reported and skipped; the rest still counts. */
#include "loader.h"
#include "loader_vars.h"
#include "core/fmt.h"
#include "core/pe.h"
#include "core/uki.h"

static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

#define LOADER_CONF "\\loader\\loader.conf"
#define ENTRIES_DIR "/loader/entries"
#define UKI_DIR "/EFI/Linux"
#define UKI_HEAD_SIZE 8192u      /* PE headers and section table */
#define OSREL_MAX_SIZE (64u << 10)

static void load_loader_conf(struct loader *l)
{
	EFI_FILE_PROTOCOL *root = l->volumes[0].root;
	_cleanup_free_ uint8_t *text = NULL;
	size_t size;

	cfg_init(&l->cfg);
	if (file_stat(root, LOADER_CONF, NULL) != EFI_SUCCESS)
		return; /* optional, as in systemd-boot */
	if (file_read_all(root, LOADER_CONF, FILE_READ_ALL_MAX, &text, &size) == EFI_SUCCESS)
		cfg_parse_loader_conf((const char *)text, size, LOADER_CONF, &l->cfg);
}

static EFI_STATUS add_entry(struct loader *l, struct bls_entry *e)
{
	return array_append(&l->entries, &l->n_entries, sizeof(e), &e);
}

static void load_type1_entry(struct loader *l, struct volume *vol, const char *name)
{
	_cleanup_free_ char *path = fmt_asprintf("%s%s/%s", vol->prefix, ENTRIES_DIR, name);
	_cleanup_free_ uint8_t *text = NULL;
	struct bls_entry *e;
	size_t size;

	if (!path || file_read_all(vol->root, path, FILE_READ_ALL_MAX, &text, &size) != EFI_SUCCESS)
		return;
	e = mem_zalloc(sizeof(*e));
	if (!e)
		return;
	if (bls_parse_entry((const char *)text, size, name, path, e) != EFI_SUCCESS ||
	    add_entry(l, e) != EFI_SUCCESS) {
		bls_entry_free(e);
		mem_free(e);
		return;
	}
	e->volume = vol;
}

static void load_type1_entries(struct loader *l, struct volume *vol)
{
	_cleanup_free_ char *dir = fmt_asprintf("%s%s", vol->prefix, ENTRIES_DIR);
	char **names;
	size_t n;

	if (!dir || file_list_dir(vol->root, dir, ".conf", &names, &n) != EFI_SUCCESS)
		return;
	for (size_t i = 0; i < n; i++)
		load_type1_entry(l, vol, names[i]);
	strv_free(names, n);
}

/* Section @i of the file @f (its first OSREL_MAX_SIZE bytes), NUL-terminated;
 * "" for i < 0. NULL when it cannot be read. */
static char *read_section(EFI_FILE_PROTOCOL *f, const char *path, const struct pe_info *pe, int i, size_t *ret_len)
{
	const struct pe_section *sec = i >= 0 ? &pe->sections[i] : NULL;
	size_t n = sec ? MIN(MIN(sec->raw_size, sec->virtual_size ? sec->virtual_size : sec->raw_size), OSREL_MAX_SIZE)
		       : 0;
	char *text = mem_zalloc(n + 1);

	if (text && n &&
	    (f->SetPosition(f, sec->raw_offset) != EFI_SUCCESS || file_read_exact(f, text, n, path) != EFI_SUCCESS)) {
		mem_free(text);
		return NULL;
	}
	*ret_len = n;
	return text;
}

/* The entry of profile @profile of a UKI (systemd-boot: one per profile),
 * from its .osrel, .cmdline and .profile as that profile sees them. */
static void add_uki_profile(struct loader *l, struct volume *vol, const char *name, const char *path,
			    EFI_FILE_PROTOCOL *f, const struct pe_info *pe, uint32_t profile)
{
	size_t len = 0, plen = 0;
	_cleanup_free_ char *text = read_section(f, path, pe, uki_profile_find(pe, profile, ".osrel"), &len);
	_cleanup_free_ char *ptext = read_section(f, path, pe, uki_profile_find(pe, profile, ".profile"), &plen);
	struct bls_entry *e;

	if (!text || !ptext || !(e = mem_zalloc(sizeof(*e))))
		return;
	e->efi = fmt_asprintf("%s/%s", UKI_DIR, name);
	e->volume = vol;
	if (bls_entry_from_uki(e, name, path, text, len, uki_profile_find(pe, profile, ".cmdline") >= 0) !=
		    EFI_SUCCESS ||
	    bls_entry_uki_profile(e, profile, ptext, plen) != EFI_SUCCESS || !e->efi ||
	    add_entry(l, e) != EFI_SUCCESS) {
		bls_entry_free(e);
		mem_free(e);
	}
}

/* A UKI's headers, read without the rest: an EFI program without .linux is
 * not a UKI, not listed (BLS Type #2). */
static void load_type2_entry(struct loader *l, struct volume *vol, const char *name)
{
	_cleanup_free_ char *path = fmt_asprintf("%s%s/%s", vol->prefix, UKI_DIR, name);
	_cleanup_free_ uint8_t *head = mem_alloc(UKI_HEAD_SIZE);
	_cleanup_free_ struct pe_info *pe = mem_alloc(sizeof(*pe));
	EFI_FILE_PROTOCOL *f = NULL;
	uint64_t size;
	size_t head_len;

	if (!path || !head || !pe || file_open(vol->root, path, &f) != EFI_SUCCESS)
		return;
	if (file_size(f, &size) == EFI_SUCCESS && (head_len = MIN(size, (uint64_t)UKI_HEAD_SIZE)) &&
	    file_read_exact(f, head, head_len, path) == EFI_SUCCESS &&
	    pe_parse_head(head, head_len, size, path, pe) == EFI_SUCCESS && uki_profile_find(pe, 0, ".linux") >= 0)
		for (uint32_t p = 0; p < MAX(uki_profile_count(pe), 1u) && p < UKI_PROFILES_MAX; p++)
			add_uki_profile(l, vol, name, path, f, pe, p);
	file_close(f);
}

static void load_type2_entries(struct loader *l, struct volume *vol)
{
	_cleanup_free_ char *dir = fmt_asprintf("%s%s", vol->prefix, UKI_DIR);
	char **names;
	size_t n;

	if (!dir || file_list_dir(vol->root, dir, ".efi", &names, &n) != EFI_SUCCESS)
		return;
	for (size_t i = 0; i < n; i++)
		load_type2_entry(l, vol, names[i]);
	strv_free(names, n);
}

/* Is @path the file this loader was started from (@li)? The same size and
 * bytes, so that a second copy (handoff install writes two) counts too,
 * while another OS's loader or another handoff does not. */
static bool is_self(EFI_FILE_PROTOCOL *root, const char *path, const EFI_LOADED_IMAGE_PROTOCOL *li)
{
	_cleanup_free_ char *own = image_file_path(li);
	_cleanup_free_ uint8_t *a = NULL, *b = NULL;
	uint64_t size_a = 0, size_b = 1;
	size_t n_a, n_b;

	if (!own || file_stat(root, own, &size_a) != EFI_SUCCESS || file_stat(root, path, &size_b) != EFI_SUCCESS ||
	    size_a != size_b)
		return false;
	return file_read_all(root, own, size_a + 1, &a, &n_a) == EFI_SUCCESS &&
	       file_read_all(root, path, size_a + 1, &b, &n_b) == EFI_SUCCESS && n_a == n_b && memcmp(a, b, n_a) == 0;
}

/* The other loaders on the ESP (systemd-boot's automatic entries): which of
 * them are there is found here, the entries are bls_add_os_entries()'s.
 * After the sorted ones; not on a network boot's server. */
static void load_os_entries(struct loader *l, const EFI_LOADED_IMAGE_PROTOCOL *li)
{
	struct volume *esp = &l->volumes[0];
	size_t first = l->n_entries;
	unsigned found = 0;

	if (!l->cfg.auto_entries || esp->network)
		return;
	for (unsigned i = 0; i < BLS_OS_MAX; i++) {
		const char *path = bls_os_path(i, FW_ARCH_NATIVE);

		if (file_stat(esp->root, path, NULL) == EFI_SUCCESS &&
		    (i != BLS_OS_DEFAULT || !is_self(esp->root, path, li)))
			found |= 1u << i;
	}
	bls_add_os_entries(found, FW_ARCH_NATIVE, &l->entries, &l->n_entries);
	for (size_t i = first; i < l->n_entries; i++)
		l->entries[i]->volume = esp;
}

EFI_STATUS loader_load(struct loader *l, EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_STATUS err;

	err = BS->HandleProtocol(image, &li_guid, (void **)&li);
	if (EFI_ERROR(err))
		return log_error_status(err, "no loaded image protocol on handoff itself: %m");
	err = volumes_boot(li->DeviceHandle, &l->volumes, &l->n_volumes);
	if (EFI_ERROR(err))
		return err;
	/* loader.conf first, from the ESP alone: it names the partitions that may add entries */
	load_loader_conf(l);
	drivers_load(&l->volumes[0]);
	volumes_add_partitions(l->cfg.boot_partitions, l->cfg.n_boot_partitions, &l->volumes, &l->n_volumes);
	for (size_t i = 0; i < l->n_volumes; i++) {
		load_type1_entries(l, &l->volumes[i]);
		load_type2_entries(l, &l->volumes[i]);
	}
	/* a network boot that lost a file its entries.list vouches for boots nothing by itself */
	l->force_menu = l->volumes[0].lost && *l->volumes[0].lost;
	bls_sort(l->entries, l->n_entries);
	load_os_entries(l, li);
	loader_requests_read(&l->req);
	l->default_idx = bls_find_default(l->entries, l->n_entries,
					  l->cfg.default_saved ? l->req.last_booted : l->cfg.default_glob);
	l->oneshot = bli_apply(&l->req, l->entries, l->n_entries, &l->cfg.timeout_sec, &l->default_idx);
	/* After the others and never the default (systemd-boot's place); none
	 * when there is nothing to boot, so that the menu says so. */
	if (l->n_entries)
		bls_add_auto_entries(cfg_auto_entries(&l->cfg), firmware_ui_supported(), &l->entries, &l->n_entries);
	return EFI_SUCCESS;
}
