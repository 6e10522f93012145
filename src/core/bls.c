/* Boot Loader Specification Type #1 entries (UAPI.1 "Type #1 Boot Loader
 * Entry Keys"): one \loader\entries\*.conf file into a struct bls_entry.
 * handoff adds "protocol auto|stub|handover|legacy". Line syntax and error
 * reporting: conf_line.h. Sorting and default selection: bls_order.c. */
#include "bls.h"
#include "array.h"
#include "bls_count.h"
#include "conf_line.h"
#include "fmt.h"
#include "log.h"

/* The single-valued keys come first: a repeated one replaces the earlier
 * value (as in systemd-boot) with a warning. */
enum bls_key {
	BLS_KEY_TITLE, BLS_KEY_VERSION, BLS_KEY_MACHINE_ID, BLS_KEY_SORT_KEY, BLS_KEY_LINUX, BLS_KEY_EFI,
	BLS_KEY_PROTOCOL, BLS_KEY_ARCHITECTURE,
	BLS_KEY_INITRD, BLS_KEY_OPTIONS, /* repeatable */
	BLS_KEY_MAX
};
#define BLS_KEY_FIRST_REPEATABLE BLS_KEY_INITRD

static const char *const bls_key_names[BLS_KEY_MAX] = {
	[BLS_KEY_TITLE] = "title", [BLS_KEY_VERSION] = "version", [BLS_KEY_MACHINE_ID] = "machine-id",
	[BLS_KEY_SORT_KEY] = "sort-key", [BLS_KEY_LINUX] = "linux", [BLS_KEY_EFI] = "efi",
	[BLS_KEY_PROTOCOL] = "protocol", [BLS_KEY_ARCHITECTURE] = "architecture",
	[BLS_KEY_INITRD] = "initrd", [BLS_KEY_OPTIONS] = "options",
};

/* BLS keys handoff accepts without using them, and why. Device trees do not
 * matter on x86-64 (a debug line); the others change what the entry would
 * boot, so the user hears of them (an info line). */
static const struct {
	const char *key, *why;
	enum log_level level;
} bls_ignored_keys[] = {
	{ "devicetree", "device trees are not used on x86-64", LOG_DEBUG },
	{ "devicetree-overlay", "device trees are not used on x86-64", LOG_DEBUG },
	{ "uki", "not supported by handoff", LOG_INFO },
	{ "uki-url", "not supported by handoff", LOG_INFO },
	{ "profile", "not supported by handoff", LOG_INFO },
	{ "extra", "not supported by handoff", LOG_INFO },
};

/* UEFI 2.10 3.5.1.1: the architecture short name of x86-64 is "x64". */
#define BLS_LOCAL_ARCHITECTURE "x64"

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
	strv_free(e->initrd, e->n_initrd);
	mem_free(e->options);
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
	case BLS_KEY_EFI: return &e->efi;
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

/* "initrd" may repeat: all are used, in the order listed (UAPI.1). */
static EFI_STATUS bls_add_initrd(struct bls_parser *p, const struct conf_kv *kv)
{
	char *s = conf_strndup(kv->value, kv->value_len);

	if (!s || array_append(&p->e->initrd, &p->e->n_initrd, sizeof(s), &s) != EFI_SUCCESS) {
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

static EFI_STATUS bls_apply(struct bls_parser *p, const struct conf_kv *kv, enum bls_key key)
{
	switch (key) {
	case BLS_KEY_PROTOCOL:
		bls_set_protocol(p, kv);
		return EFI_SUCCESS;
	case BLS_KEY_ARCHITECTURE:
		bls_check_architecture(p, kv);
		return EFI_SUCCESS;
	case BLS_KEY_INITRD:
		return bls_add_initrd(p, kv);
	case BLS_KEY_OPTIONS:
		return bls_add_options(p, kv);
	default:
		return bls_set_string(p, kv, bls_string_field(p->e, key));
	}
}

static void bls_other_key(struct bls_parser *p, const struct conf_kv *kv)
{
	for (size_t i = 0; i < ARRAY_SIZE(bls_ignored_keys); i++)
		if (conf_key_is(kv, bls_ignored_keys[i].key)) {
			log_printf(bls_ignored_keys[i].level, "%s:%u: '%s' ignored: %s", p->r.path, kv->line,
				   bls_ignored_keys[i].key, bls_ignored_keys[i].why);
			return;
		}
	log_warning("%s:%u: unknown key '%.*s', ignored", p->r.path, kv->line, (int)kv->key_len, kv->key);
}

static EFI_STATUS bls_line(struct bls_parser *p, const struct conf_kv *kv)
{
	for (unsigned k = 0; k < BLS_KEY_MAX; k++) {
		unsigned n_errors = p->r.n_errors;
		EFI_STATUS err;

		if (!conf_key_is(kv, bls_key_names[k]))
			continue;
		err = bls_apply(p, kv, (enum bls_key)k);
		if (EFI_ERROR(err) || p->r.n_errors != n_errors || k >= BLS_KEY_FIRST_REPEATABLE)
			return err; /* a bad value replaced nothing; repeatable keys add up */
		if (p->seen & (1u << k))
			log_warning("%s:%u: '%s' given again, the last one counts", p->r.path, kv->line,
				    bls_key_names[k]);
		p->seen |= 1u << k;
		return EFI_SUCCESS;
	}
	bls_other_key(p, kv);
	return EFI_SUCCESS;
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

/* After the last line: what the entry boots, and whether it is shown. */
static EFI_STATUS bls_finish(struct bls_parser *p)
{
	struct bls_entry *e = p->e;

	if (!e->kernel && !e->efi)
		return log_error_status(EFI_LOAD_ERROR, "%s: neither 'linux' nor 'efi': nothing to boot, entry skipped",
					p->r.path);
	if (e->kernel && e->efi) {
		log_warning("%s: both 'linux' and 'efi' given: 'linux' is used", p->r.path);
		mem_free(e->efi);
		e->efi = NULL;
	}
	return p->foreign_arch ? EFI_UNSUPPORTED : EFI_SUCCESS;
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
