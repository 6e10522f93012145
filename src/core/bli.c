/* Boot Loader Interface requests: which entry and how long the menu waits. */
#include "bli.h"
#include "config.h"
#include "log.h"

static bool apply_timeout(const char *var, const char *value, bool oneshot, uint32_t *timeout_sec)
{
	uint32_t t;

	if (!value)
		return false;
	if (!cfg_parse_timeout(value, strlen(value), &t)) {
		log_warning("%s '%s' is not " CFG_TIMEOUT_WHAT ", ignored", var, value, CFG_TIMEOUT_MENU_FORCE - 1);
		return false;
	}
	*timeout_sec = oneshot && t == 0 && strcmp(value, "0") == 0 ? CFG_TIMEOUT_MENU_FORCE : t;
	return true;
}

static bool apply_entry(const char *var, const char *value, struct bls_entry *const *entries, size_t n,
			size_t *default_idx)
{
	size_t i;

	if (!value)
		return false;
	i = *value ? bls_find_entry(entries, n, value) : SIZE_MAX;
	if (i == SIZE_MAX) {
		log_warning("%s '%s' matches no boot entry, ignored", var, value);
		return false;
	}
	*default_idx = i;
	return true;
}

static bool is_saved(const char *value)
{
	return value && strcmp(value, "@saved") == 0;
}

bool bli_apply(const struct bli_request *req, struct bls_entry *const *entries, size_t n, uint32_t *timeout_sec,
	       size_t *default_idx)
{
	if (!apply_timeout("LoaderConfigTimeoutOneShot", req->timeout_oneshot, true, timeout_sec))
		apply_timeout("LoaderConfigTimeout", req->timeout, false, timeout_sec);
	if (apply_entry("LoaderEntryOneShot", req->entry_oneshot, entries, n, default_idx))
		return true;
	if (is_saved(req->entry_default))
		apply_entry("LoaderEntryLastBooted", req->last_booted, entries, n, default_idx);
	else
		apply_entry("LoaderEntryDefault", req->entry_default, entries, n, default_idx);
	return false;
}

enum bli_saved_action bli_saved_action(const struct bli_request *req, bool cfg_saved, const char *booted_id,
				       bool oneshot)
{
	bool saved = is_saved(req->entry_default) || (!req->entry_default && cfg_saved);

	if (oneshot)
		return BLI_SAVED_KEEP;
	if (saved)
		return req->last_booted && strcmp(req->last_booted, booted_id) == 0 ? BLI_SAVED_KEEP : BLI_SAVED_SET;
	return req->last_booted ? BLI_SAVED_DELETE : BLI_SAVED_KEEP;
}

void bli_request_free(struct bli_request *req)
{
	mem_free(req->timeout);
	mem_free(req->timeout_oneshot);
	mem_free(req->entry_default);
	mem_free(req->entry_oneshot);
	mem_free(req->last_booted);
	*req = (struct bli_request){ 0 };
}
