/* systemd's Boot Loader Interface (vendor GUID 4a67b082-0a4c-41cf-b6c7-
 * 440b29bb8c4f): what the loader is, where it came from, and which entries it
 * offered, so `bootctl status` and `systemd-analyze` work on a system booted
 * by handoff (all volatile); what the OS asked of this boot
 * (LoaderEntryDefault, LoaderEntryOneShot, LoaderConfigTimeout[OneShot]);
 * and the entry booted (LoaderEntrySelected, LoaderEntryLastBooted). */
#include "loader.h"
#include "loader_vars.h"

/* LoaderFeatures bits handoff implements (systemd's numbering). */
#define FEATURE_CONFIG_TIMEOUT          (1ull << 0)
#define FEATURE_CONFIG_TIMEOUT_ONE_SHOT (1ull << 1)
#define FEATURE_ENTRY_DEFAULT           (1ull << 2)
#define FEATURE_ENTRY_ONESHOT           (1ull << 3)
#define FEATURE_BOOT_COUNTING           (1ull << 4)
#define FEATURE_XBOOTLDR                (1ull << 5)
#define FEATURE_RANDOM_SEED             (1ull << 6)
#define FEATURE_LOAD_DRIVER             (1ull << 7)
#define FEATURE_SORT_KEY                (1ull << 8)
#define FEATURE_SAVED_ENTRY             (1ull << 9)
#define FEATURE_SECUREBOOT_ENROLL       (1ull << 11)

static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

/* LoaderEntries: every id, each NUL-terminated, in menu order. */
static void set_entries(const struct loader *l)
{
	size_t n = 0;
	CHAR16 *buf;

	for (size_t i = 0; i < l->n_entries; i++)
		n += strlen(l->entries[i]->id) + 1;
	buf = mem_alloc(n * sizeof(CHAR16) + 1);
	if (!buf)
		return;
	n = 0;
	for (size_t i = 0; i < l->n_entries; i++) {
		_cleanup_free_ CHAR16 *id = str8_to_16(l->entries[i]->id, /* path= */ false);
		if (!id)
			continue;
		memcpy(buf + n, id, (strlen16(id) + 1) * sizeof(CHAR16));
		n += strlen16(id) + 1;
	}
	loader_var_set_raw(u"LoaderEntries", buf, n * sizeof(CHAR16));
	mem_free(buf);
}

void loader_info_publish(const struct loader *l, EFI_HANDLE image)
{
	uint64_t features = FEATURE_CONFIG_TIMEOUT | FEATURE_CONFIG_TIMEOUT_ONE_SHOT | FEATURE_ENTRY_DEFAULT |
			    FEATURE_ENTRY_ONESHOT | FEATURE_BOOT_COUNTING | FEATURE_XBOOTLDR | FEATURE_RANDOM_SEED |
			    FEATURE_LOAD_DRIVER | FEATURE_SORT_KEY | FEATURE_SAVED_ENTRY | FEATURE_SECUREBOOT_ENROLL;
	EFI_LOADED_IMAGE_PROTOCOL *li;

	loader_var_set_str(u"LoaderInfo", "handoff " HANDOFF_VERSION);
	loader_var_set_raw(u"LoaderFeatures", &features, sizeof(features));
	if (BS->HandleProtocol(image, &li_guid, (void **)&li) == EFI_SUCCESS)
		bli_publish_origin(li, /* keep= */ false);
	set_entries(l);
}

void loader_requests_read(struct bli_request *req)
{
	*req = (struct bli_request){
		.timeout = loader_var_get_str(u"LoaderConfigTimeout"),
		.timeout_oneshot = loader_var_get_str(u"LoaderConfigTimeoutOneShot"),
		.entry_default = loader_var_get_str(u"LoaderEntryDefault"),
		.entry_oneshot = loader_var_get_str(u"LoaderEntryOneShot"),
		.last_booted = loader_var_get_str(u"LoaderEntryLastBooted"),
	};
	/* one shot: gone before anything can fail, as systemd-boot does */
	if (req->timeout_oneshot)
		loader_var_delete(u"LoaderConfigTimeoutOneShot");
	if (req->entry_oneshot)
		loader_var_delete(u"LoaderEntryOneShot");
}

void loader_save_selected(const struct loader *l, const struct bls_entry *e)
{
	bool oneshot = l->oneshot && e == l->entries[l->default_idx];

	loader_var_set_str(u"LoaderEntrySelected", e->id);
	switch (bli_saved_action(&l->req, l->cfg.default_saved, e->id, oneshot)) {
	case BLI_SAVED_SET:
		loader_var_set_str_attr(u"LoaderEntryLastBooted", e->id, VAR_NON_VOLATILE);
		break;
	case BLI_SAVED_DELETE:
		loader_var_delete(u"LoaderEntryLastBooted");
		break;
	default:
		break;
	}
}
