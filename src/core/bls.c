/* Boot Loader Specification Type #1 entries (UAPI.1 "Type #1 Boot Loader
 * Entry Keys"): one \loader\entries\*.conf file into a struct bls_entry.
 * handoff adds "protocol auto|stub|handover|legacy". "uki", "uki-url",
 * "profile" and "extra" mean what systemd-boot makes of them. Line syntax and error
 * reporting: conf_line.h. Sorting and default selection: bls_order.c. */
#include "bls.h"
#include "array.h"
#include "bls_count.h"
#include "conf_line.h"
#include "fmt.h"
#include "fwarch.h"
#include "log.h"

/* The single-valued keys come first: a repeated one replaces the earlier
 * value (as in systemd-boot) with a warning. */
enum bls_key {
	BLS_KEY_TITLE, BLS_KEY_VERSION, BLS_KEY_MACHINE_ID, BLS_KEY_SORT_KEY, BLS_KEY_LINUX, BLS_KEY_EFI,
	BLS_KEY_PROTOCOL, BLS_KEY_ARCHITECTURE, BLS_KEY_UKI, BLS_KEY_UKI_URL, BLS_KEY_PROFILE,
	BLS_KEY_INITRD, BLS_KEY_OPTIONS, BLS_KEY_EXTRA, /* repeatable */
	BLS_KEY_MAX
};
#define BLS_KEY_FIRST_REPEATABLE BLS_KEY_INITRD

static const char *const bls_key_names[BLS_KEY_MAX] = {
	[BLS_KEY_TITLE] = "title", [BLS_KEY_VERSION] = "version", [BLS_KEY_MACHINE_ID] = "machine-id",
	[BLS_KEY_SORT_KEY] = "sort-key", [BLS_KEY_LINUX] = "linux", [BLS_KEY_EFI] = "efi",
	[BLS_KEY_PROTOCOL] = "protocol", [BLS_KEY_ARCHITECTURE] = "architecture",
	[BLS_KEY_UKI] = "uki", [BLS_KEY_UKI_URL] = "uki-url", [BLS_KEY_PROFILE] = "profile",
	[BLS_KEY_INITRD] = "initrd", [BLS_KEY_OPTIONS] = "options", [BLS_KEY_EXTRA] = "extra",
};

/* BLS keys handoff accepts without using them, and why (a debug line): on
 * x86 device trees do not matter; the AArch64 loader takes "devicetree"
 * (bls_set_devicetree) but applies no overlays. */
static const struct {
	const char *key, *why;
	enum log_level level;
} bls_ignored_keys[] = {
	{ "devicetree", "device trees are not used on x86-64", LOG_DEBUG },
	{ "devicetree-overlay", FW_NATIVE_DT ? "not applied" : "device trees are not used on x86-64",
	  LOG_DEBUG },
};

/* UEFI 2.10 3.5.1.1's short names of the kernels this build boots: "aa64"
 * on AArch64; "x64" on x86-64 and on IA-32 firmware too, which boots x86-64
 * kernels (mixed mode). */
#define BLS_LOCAL_ARCHITECTURE (FW_ARCH_NATIVE == FW_AA64 ? "aa64" : "x64")

struct bls_parser {
	struct conf_reader r;
	struct bls_entry *e;
	size_t options_len, options_cap; /* bytes used/allocated, NUL included in cap */
	unsigned seen;                    /* bit per single-valued key */
	bool foreign_arch;
};

void bls_entry_free(struct bls_entry *e)
{
	mem_free(e->id);
	mem_free(e->path);
	mem_free(e->title);
	mem_free(e->version);
	mem_free(e->sort_key);
	mem_free(e->machine_id);
	mem_free(e->kernel);
	mem_free(e->efi);
	mem_free(e->url);
	strv_free(e->initrd, e->n_initrd);
	strv_free(e->extra, e->n_extra);
	mem_free(e->options);
	if (FW_NATIVE_DT) /* else never set */
		mem_free(e->devicetree);
	*e = (struct bls_entry){ 0 };
}

static EFI_STATUS bls_oom(struct bls_parser *p, const struct conf_kv *kv)
{
	return log_error_status(EFI_OUT_OF_RESOURCES, "%s:%u: out of memory", p->r.path, kv->line);
}

static char **bls_string_field(struct bls_entry *e, enum bls_key key)
{
	switch (key) {
	case BLS_KEY_TITLE: return &e->title;
	case BLS_KEY_VERSION: return &e->version;
	case BLS_KEY_MACHINE_ID: return &e->machine_id;
	case BLS_KEY_SORT_KEY: return &e->sort_key;
	case BLS_KEY_LINUX: return &e->kernel;
	case BLS_KEY_EFI: case BLS_KEY_UKI: return &e->efi; /* which of them: e->uki */
	case BLS_KEY_UKI_URL: return &e->url;
	default: return NULL;
	}
}

static EFI_STATUS bls_set_string(struct bls_parser *p, const struct conf_kv *kv, char **field)
{
	char *s = conf_strndup(kv->value, kv->value_len);

	if (!s)
		return bls_oom(p, kv);
	mem_free(*field);
	*field = s;
	return EFI_SUCCESS;
}

/* "initrd" and "extra" may repeat: all are used, in the order listed (UAPI.1). */
static EFI_STATUS bls_add_path(struct bls_parser *p, const struct conf_kv *kv, char ***v, size_t *n)
{
	char *s = conf_strndup(kv->value, kv->value_len);

	if (!s || array_append(v, n, sizeof(s), &s) != EFI_SUCCESS) {
		mem_free(s);
		return bls_oom(p, kv);
	}
	return EFI_SUCCESS;
}

/* "options" may repeat: combined in the order listed (UAPI.1), one space
 * between. The buffer doubles, so many lines cost linear time. */
static EFI_STATUS bls_add_options(struct bls_parser *p, const struct conf_kv *kv)
{
	size_t need = p->options_len + (p->options_len ? 1 : 0) + kv->value_len + 1;

	if (need > p->options_cap) {
		size_t cap = MAX(need, p->options_cap * 2);
		char *grown = mem_alloc(cap);

		if (!grown)
			return bls_oom(p, kv);
		if (p->options_len)
			memcpy(grown, p->e->options, p->options_len);
		mem_free(p->e->options);
		p->e->options = grown;
		p->options_cap = cap;
	}
	if (p->options_len)
		p->e->options[p->options_len++] = ' ';
	memcpy(p->e->options + p->options_len, kv->value, kv->value_len);
	p->options_len += kv->value_len;
	p->e->options[p->options_len] = '\0';
	return EFI_SUCCESS;
}

static void bls_set_protocol(struct bls_parser *p, const struct conf_kv *kv)
{
	char name[16];

	if (kv->value_len < sizeof(name)) {
		memcpy(name, kv->value, kv->value_len);
		name[kv->value_len] = '\0';
		if (scheme_from_string(name, &p->e->protocol))
			return;
	}
	conf_line_error(&p->r, kv, "protocol '%.*s' is not auto, stub, handover or legacy, ignored",
			(int)kv->value_len, kv->value);
}

/* UAPI.1: an entry for another architecture should be hidden; compared
 * case-insensitively, in the EFI vocabulary (IA32, x64, AA64, ...). */
static void bls_check_architecture(struct bls_parser *p, const struct conf_kv *kv)
{
	p->foreign_arch = !conf_value_is(kv, BLS_LOCAL_ARCHITECTURE);
	if (p->foreign_arch)
		log_info("%s:%u: architecture '%.*s' is not %s: entry not shown", p->r.path, kv->line,
			 (int)kv->value_len, kv->value, BLS_LOCAL_ARCHITECTURE);
}

/* "profile N": a decimal number up to UINT_MAX, as systemd-boot takes it. */
static void bls_set_profile(struct bls_parser *p, const struct conf_kv *kv)
{
	uint64_t n;

	if (conf_parse_uint(kv, UINT32_MAX, &n))
		p->e->profile = (uint32_t)n;
	else
		conf_line_error(&p->r, kv, "profile '%.*s' is not a number up to %u, ignored", (int)kv->value_len,
				kv->value, UINT32_MAX);
}

static EFI_STATUS bls_apply(struct bls_parser *p, const struct conf_kv *kv, enum bls_key key)
{
	switch (key) {
	case BLS_KEY_PROFILE:
		bls_set_profile(p, kv);
		return EFI_SUCCESS;
	case BLS_KEY_PROTOCOL:
		bls_set_protocol(p, kv);
		return EFI_SUCCESS;
	case BLS_KEY_ARCHITECTURE:
		bls_check_architecture(p, kv);
		return EFI_SUCCESS;
	case BLS_KEY_INITRD:
		return bls_add_path(p, kv, &p->e->initrd, &p->e->n_initrd);
	case BLS_KEY_EXTRA:
		return bls_add_path(p, kv, &p->e->extra, &p->e->n_extra);
	case BLS_KEY_OPTIONS:
		return bls_add_options(p, kv);
	default:
		if (key == BLS_KEY_EFI || key == BLS_KEY_UKI)
			p->e->uki = key == BLS_KEY_UKI;
		return bls_set_string(p, kv, bls_string_field(p->e, key));
	}
}

/* "devicetree PATH" (FW_NATIVE_DT builds): one file, a later line replacing
 * an earlier one with a warning, as the single-valued keys (systemd-boot
 * keeps the last one too). The path is the entry's, as "linux" and "initrd"
 * paths are: opened on the entry's volume when it boots. */
static EFI_STATUS bls_set_devicetree(struct bls_parser *p, const struct conf_kv *kv)
{
	if (p->e->devicetree)
		log_warning("%s:%u: '%s' given again, the last one counts", p->r.path, kv->line, "devicetree");
	return bls_set_string(p, kv, &p->e->devicetree);
}

static EFI_STATUS bls_other_key(struct bls_parser *p, const struct conf_kv *kv)
{
	if (FW_NATIVE_DT && conf_key_is(kv, "devicetree"))
		return bls_set_devicetree(p, kv);
	for (size_t i = 0; i < ARRAY_SIZE(bls_ignored_keys); i++)
		if (conf_key_is(kv, bls_ignored_keys[i].key)) {
			log_printf(bls_ignored_keys[i].level, "%s:%u: '%s' ignored: %s", p->r.path, kv->line,
				   bls_ignored_keys[i].key, bls_ignored_keys[i].why);
			return EFI_SUCCESS;
		}
	log_warning("%s:%u: unknown key '%.*s', ignored", p->r.path, kv->line, (int)kv->key_len, kv->key);
	return EFI_SUCCESS;
}

static EFI_STATUS bls_line(struct bls_parser *p, const struct conf_kv *kv)
{
	for (unsigned k = 0; k < BLS_KEY_MAX; k++) {
		unsigned n_errors = p->r.n_errors, bit;
		EFI_STATUS err;

		if (!conf_key_is(kv, bls_key_names[k]))
			continue;
		err = bls_apply(p, kv, (enum bls_key)k);
		if (EFI_ERROR(err) || p->r.n_errors != n_errors || k >= BLS_KEY_FIRST_REPEATABLE)
			return err; /* a bad value replaced nothing; repeatable keys add up */
		bit = 1u << (k == BLS_KEY_UKI ? BLS_KEY_EFI : k); /* one program: "efi" or "uki" */
		if (p->seen & bit)
			log_warning("%s:%u: '%s' given again, the last one counts", p->r.path, kv->line,
				    bls_key_names[k]);
		p->seen |= bit;
		return EFI_SUCCESS;
	}
	return bls_other_key(p, kv);
}

EFI_STATUS bls_entry_set_name(struct bls_entry *e, const char *name, const char *suffix, bool keep_suffix)
{
	struct bls_counter c;

	bls_count_parse(name, suffix, &c);
	mem_free(e->id);
	e->id = keep_suffix ? fmt_asprintf("%.*s%s", (int)c.base_len, name, name + c.suffix_pos)
			    : conf_strndup(name, c.base_len);
	e->counted = c.counted;
	e->tries_left = c.left;
	e->tries_done = c.done;
	return e->id ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

/* One of two keys that name what to boot is used, the first: "linux",
 * then "efi" or "uki", then "uki-url". */
static void bls_drop(struct bls_parser *p, const char *used, const char *dropped, char **field)
{
	if (!*field)
		return;
	log_warning("%s: both '%s' and '%s' given: '%s' is used", p->r.path, used, dropped, used);
	mem_free(*field);
	*field = NULL;
}

/* After the last line: what the entry boots, and whether it is shown. A
 * profile and extras are for a UKI (and extras for a kernel too). */
static EFI_STATUS bls_finish(struct bls_parser *p)
{
	struct bls_entry *e = p->e;
	const char *efi = e->uki ? "uki" : "efi";

	if (!e->kernel && !e->efi && !e->url)
		return log_error_status(EFI_LOAD_ERROR, "%s: no 'linux', 'efi', 'uki' or 'uki-url': nothing to boot, "
					"entry skipped", p->r.path);
	if (e->kernel) {
		bls_drop(p, "linux", efi, &e->efi);
		bls_drop(p, "linux", "uki-url", &e->url);
	} else if (e->efi)
		bls_drop(p, efi, "uki-url", &e->url);
	e->uki = !e->kernel && (e->uki || e->url);
	if (e->profile && !e->uki) {
		log_warning("%s: 'profile' is for a UKI: ignored", p->r.path);
		e->profile = 0;
	}
	if (e->n_extra && !e->uki && !e->kernel) {
		log_warning("%s: 'extra' is for a UKI or a kernel: ignored", p->r.path);
		strv_free(e->extra, e->n_extra);
		e->extra = NULL;
		e->n_extra = 0;
	}
	return p->foreign_arch ? EFI_UNSUPPORTED : EFI_SUCCESS;
}

char *bls_load_options(const struct bls_entry *e, const char *line)
{
	if (!e->profile)
		return fmt_asprintf("%s", line);
	return fmt_asprintf("@%u%s%s", e->profile, *line ? " " : "", line);
}

EFI_STATUS bls_parse_entry(const char *text, size_t len, const char *filename, const char *path,
			   struct bls_entry *ret)
{
	struct bls_parser p = { .e = ret };
	struct conf_kv kv;
	EFI_STATUS err = EFI_SUCCESS;

	*ret = (struct bls_entry){ .type = BLS_TYPE1, .protocol = SCHEME_AUTO };
	filename = filename ? filename : "";
	path = path ? path : filename;
	ret->path = conf_strndup(path, strlen(path));
	if (bls_entry_set_name(ret, filename, ".conf", /* keep_suffix= */ false) != EFI_SUCCESS || !ret->path)
		err = log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", path);
	conf_reader_init(&p.r, text, len, path);
	while (!EFI_ERROR(err) && conf_next(&p.r, &kv))
		err = bls_line(&p, &kv);
	ret->n_errors = p.r.n_errors;
	if (!EFI_ERROR(err))
		err = bls_finish(&p);
	if (EFI_ERROR(err))
		bls_entry_free(ret);
	return err;
}

char *bls_display_title(const struct bls_entry *e)
{
	if (e->title && e->version)
		return fmt_asprintf("%s (%s)", e->title, e->version);
	return fmt_asprintf("%s", e->title ? e->title : e->id ? e->id : "");
}

/* systemd-boot's suffixes, and the companion files (sidecar.h) of the same kind. */
static const struct {
	const char *suffix;
	enum sidecar_kind kind;
} bls_extra_suffixes[] = {
	{ ".cred", SIDECAR_CREDENTIALS },
	{ ".sysext.raw", SIDECAR_SYSEXT },
	{ ".confext.raw", SIDECAR_CONFEXT },
};

const struct sidecar_spec *bls_extra_kind(const char *path, const char **ret_name)
{
	const char *name = path;
	size_t len;

	for (const char *c = path; *c; c++)
		if (*c == '/' || *c == '\\')
			name = c + 1;
	*ret_name = name;
	len = strlen(name);
	for (size_t i = 0; i < ARRAY_SIZE(bls_extra_suffixes); i++) {
		size_t n = strlen(bls_extra_suffixes[i].suffix);

		if (len > n && memcmp(name + len - n, bls_extra_suffixes[i].suffix, n) == 0)
			return sidecar_spec(bls_extra_suffixes[i].kind);
	}
	return NULL;
}

char *bls_url_resolve(const char *url, const char *origin)
{
	const char *slash = NULL;

	if (url[0] != ':')
		return fmt_asprintf("%s", url);
	for (const char *c = origin; c && *c; c++)
		if (*c == '/')
			slash = c;
	if (!slash)
		return NULL;
	return fmt_asprintf("%.*s%s", (int)(slash + 1 - origin), origin, url + 1);
}
