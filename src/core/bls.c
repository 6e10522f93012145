/* Boot Loader Specification Type #1 entries (UAPI.1 "Boot Loader
 * Specification"), their order, and the default entry. handoff adds one key,
 * "protocol". Values are kept as written; paths are resolved by the loader. */
#include "bls.h"
#include "array.h"
#include "fmt.h"
#include "lines.h"
#include "log.h"

struct bls_ctx {
	struct bls_entry *e;
	const char *path;
	bool oom;
};

static bool set_single(struct bls_ctx *c, char **field, const struct kv_line *l)
{
	char *v = kv_value_dup(l);

	if (!v)
		return c->oom = true, true;
	if (*field)
		log_warning("%s:%u: '%.*s' given again, the last one counts", c->path, l->number, (int)l->key_len, l->key);
	mem_free(*field);
	*field = v;
	return true;
}

static bool add_initrd(struct bls_ctx *c, const struct kv_line *l)
{
	char *v = kv_value_dup(l);

	if (!v || array_append(&c->e->initrd, &c->e->n_initrd, sizeof(v), &v) != EFI_SUCCESS) {
		mem_free(v);
		c->oom = true;
	}
	return true;
}

static bool add_options(struct bls_ctx *c, const struct kv_line *l)
{
	char *joined = c->e->options ? fmt_asprintf("%s %.*s", c->e->options, (int)l->value_len, l->value)
				     : kv_value_dup(l);

	if (!joined)
		return c->oom = true, true;
	mem_free(c->e->options);
	c->e->options = joined;
	return true;
}

static bool set_protocol(struct bls_ctx *c, const struct kv_line *l)
{
	char buf[16];

	if (l->value_len < sizeof(buf)) {
		memcpy(buf, l->value, l->value_len);
		buf[l->value_len] = '\0';
		if (scheme_from_string(buf, &c->e->protocol))
			return true;
	}
	log_error("%s:%u: protocol '%.*s' is not auto, stub, handover or legacy, ignored", c->path, l->number,
		  (int)MIN(l->value_len, (size_t)64), l->value);
	return false;
}

/* Keys of the specification that handoff accepts but does not use on x86-64. */
static const char *const accepted_keys[] = { "devicetree", "devicetree-overlay", "architecture" };

static bool bls_line(void *p, const struct kv_line *l)
{
	struct bls_ctx *c = p;
	struct bls_entry *e = c->e;

	if (kv_key_is(l, "title")) return set_single(c, &e->title, l);
	if (kv_key_is(l, "version")) return set_single(c, &e->version, l);
	if (kv_key_is(l, "machine-id")) return set_single(c, &e->machine_id, l);
	if (kv_key_is(l, "sort-key")) return set_single(c, &e->sort_key, l);
	if (kv_key_is(l, "linux")) return set_single(c, &e->kernel, l);
	if (kv_key_is(l, "efi")) return set_single(c, &e->efi, l);
	if (kv_key_is(l, "initrd")) return add_initrd(c, l);
	if (kv_key_is(l, "options")) return add_options(c, l);
	if (kv_key_is(l, "protocol")) return set_protocol(c, l);
	for (size_t i = 0; i < ARRAY_SIZE(accepted_keys); i++)
		if (kv_key_is(l, accepted_keys[i]))
			return true;
	log_warning("%s:%u: unknown key '%.*s', ignored", c->path, l->number, (int)MIN(l->key_len, (size_t)64), l->key);
	return true;
}

static char *id_from_filename(const char *filename)
{
	size_t n = strlen(filename);

	if (n > 5 && strcmp(filename + n - 5, ".conf") == 0)
		n -= 5;
	return fmt_asprintf("%.*s", (int)n, filename);
}

EFI_STATUS bls_parse_entry(const char *text, size_t len, const char *filename, const char *path, struct bls_entry *ret)
{
	struct bls_entry e = { .type = BLS_TYPE1, .protocol = SCHEME_AUTO };
	struct bls_ctx c = { .e = &e, .path = path };

	e.id = id_from_filename(filename);
	e.path = fmt_asprintf("%s", path);
	if (!e.id || !e.path) {
		bls_entry_free(&e);
		return EFI_OUT_OF_RESOURCES;
	}
	e.n_errors = kv_parse(text, len, path, bls_line, &c);
	if (c.oom) {
		bls_entry_free(&e);
		return EFI_OUT_OF_RESOURCES;
	}
	if (!e.kernel && !e.efi) {
		bls_entry_free(&e);
		return log_error_status(EFI_LOAD_ERROR, "%s: neither 'linux' nor 'efi': nothing to boot, entry skipped", path);
	}
	*ret = e;
	return EFI_SUCCESS;
}

void bls_entry_free(struct bls_entry *e)
{
	char **fields[] = { &e->id, &e->path, &e->title, &e->version, &e->sort_key, &e->machine_id,
			    &e->kernel, &e->efi, &e->options };

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		mem_free(*fields[i]);
		*fields[i] = NULL;
	}
	strv_free(e->initrd, e->n_initrd);
	e->initrd = NULL;
	e->n_initrd = 0;
}

char *bls_display_title(const struct bls_entry *e)
{
	if (e->title && e->version)
		return fmt_asprintf("%s (%s)", e->title, e->version);
	return fmt_asprintf("%s", e->title ? e->title : e->id);
}
