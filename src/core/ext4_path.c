/* ext4 path lookup: component by component from the root or a directory
 * handle, following symlinks the way Linux's namei does (relative targets
 * from the symlink's directory, absolute ones from this partition's root, at
 * most EXT4_MAX_SYMLINKS per lookup, so loops end). */
#include "ext4_priv.h"
#include "fmt.h"
#include "log.h"

static const char *skip_slashes(const char *p)
{
	while (*p == '/')
		p++;
	return p;
}

struct walk {
	struct ext4_fs *fs;
	struct ext4_file *cur;   /* the directory reached so far (owned) */
	char *path;              /* owned copy of what is left to resolve */
	const char *p;           /* position in path */
	unsigned n_links;
	uint32_t flags;
};

/* Reads a symlink's target into a new NUL-terminated string. */
static EFI_STATUS read_link(struct ext4_file *link, char **ret)
{
	struct ext4_fs *fs = link->fs;
	uint64_t size = ext4_file_size(link);
	_cleanup_free_ char *target = NULL;
	size_t n;
	EFI_STATUS err;

	if (size == 0 || size >= EXT4_PATH_MAX)
		return log_error_status(size ? EFI_VOLUME_CORRUPTED : EFI_NOT_FOUND,
					"%s: inode %u: symlink target length %llu is invalid", fs->name,
					link->inode.ino, (unsigned long long)size);
	target = mem_alloc((size_t)size + 1);
	if (!target)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", fs->name);
	err = ext4_read(link, 0, target, (size_t)size, &n);
	if (err != EFI_SUCCESS)
		return err;
	target[n] = '\0';
	*ret = TAKE_PTR(target);
	return EFI_SUCCESS;
}

/* Replaces the rest of the path by "target/rest"; an absolute target
 * restarts from the root. */
static EFI_STATUS follow(struct walk *w, struct ext4_file *link)
{
	_cleanup_free_ char *target = NULL;
	char *joined;
	EFI_STATUS err;

	if (++w->n_links > EXT4_MAX_SYMLINKS)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: more than %u symlinks in one lookup (symlink loop)", w->fs->name,
					link->inode.ino, EXT4_MAX_SYMLINKS);
	err = read_link(link, &target);
	if (err != EFI_SUCCESS)
		return err;
	if (strlen(target) + strlen(w->p) + 2 > EXT4_PATH_MAX)
		return log_error_status(EFI_INVALID_PARAMETER,
					"%s: inode %u: path through symlink longer than %u bytes", w->fs->name,
					link->inode.ino, EXT4_PATH_MAX);
	joined = fmt_asprintf("%s/%s", target, w->p);
	if (!joined)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", w->fs->name);
	mem_free(w->path);
	w->path = joined;
	w->p = joined;
	if (target[0] == '/') {
		ext4_close(w->cur);
		w->cur = NULL;
		return ext4_file_new(w->fs, EXT4_ROOT_INO, &w->cur);
	}
	return EFI_SUCCESS;
}

/* Resolves the next component of w->p, which starts at a non-'/'. */
static EFI_STATUS step(struct walk *w)
{
	const char *name = w->p, *end = strchr(name, '/');
	size_t len = end ? (size_t)(end - name) : strlen(name);
	struct ext4_file *child = NULL;
	uint32_t ino;
	bool last;
	EFI_STATUS err;

	w->p = name + len;
	if (len == 1 && name[0] == '.')
		return EFI_SUCCESS;
	/* A missing name is not an error of the file system: like the firmware's
	 * FAT driver (UEFI 2.10 §13.5 Open), say EFI_NOT_FOUND and let the caller,
	 * which knows whether the file was optional, decide what to print. */
	if (!ext4_file_is_dir(w->cur) || len > EXT4_NAME_MAX)
		return EFI_NOT_FOUND;
	err = ext4_dir_lookup(w->cur, name, len, &ino);
	if (err == EFI_SUCCESS)
		err = ext4_file_new(w->fs, ino, &child);
	if (err != EFI_SUCCESS)
		return err;
	last = *skip_slashes(w->p) == '\0';
	if ((child->inode.mode & S_IFMT) == S_IFLNK && (!last || !(w->flags & EXT4_OPEN_NOFOLLOW))) {
		err = follow(w, child);
		ext4_close(child);
		return err;
	}
	ext4_close(w->cur);
	w->cur = child;
	return EFI_SUCCESS;
}

EFI_STATUS ext4_open_at(struct ext4_fs *fs, struct ext4_file *dir, const char *path, uint32_t flags,
			struct ext4_file **ret)
{
	struct walk w = { .fs = fs, .flags = flags };
	size_t len = strlen(path);
	EFI_STATUS err;

	if (len >= EXT4_PATH_MAX)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: path of %zu bytes is too long", fs->name, len);
	w.path = mem_alloc(len + 1);
	if (!w.path)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", fs->name);
	memcpy(w.path, path, len + 1);
	w.p = w.path;
	err = ext4_file_new(fs, dir && path[0] != '/' ? dir->inode.ino : EXT4_ROOT_INO, &w.cur);
	while (err == EFI_SUCCESS) {
		w.p = skip_slashes(w.p);
		if (*w.p == '\0')
			break;
		err = step(&w);
	}
	mem_free(w.path);
	if (err != EFI_SUCCESS) {
		ext4_close(w.cur);
		return err;
	}
	*ret = w.cur;
	return EFI_SUCCESS;
}

EFI_STATUS ext4_open(struct ext4_fs *fs, const char *path, struct ext4_file **ret)
{
	return ext4_open_at(fs, NULL, path, 0, ret);
}
