/* File helpers of the host tool. Outputs are written atomically
 * (temp file + fsync + rename) so an interrupted or failed command never
 * leaves a half-written file; every failure prints one line naming the path. */
#define _GNU_SOURCE
#include "tool.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int too_big(const char *path, uint64_t size, uint64_t max)
{
	return tool_fail("%s: %llu bytes or more, more than the %llu handoff reads", path, (unsigned long long)size,
			 (unsigned long long)max),
	       -1;
}

/* Reads to the end of file, not to st_size: sysfs says 4096 and procfs 0
 * whatever a file holds. Only a size backed by blocks is refused unread. */
static int read_fd(int fd, const char *path, uint64_t max, uint8_t **ret, size_t *ret_len)
{
	struct stat st;
	uint8_t *buf;
	size_t len = 0, cap = 4096;

	if (fstat(fd, &st) < 0)
		return tool_fail("%s: %s", path, strerror(errno)), -1;
	if (S_ISDIR(st.st_mode))
		return tool_fail("%s: is a directory", path), -1;
	if (S_ISREG(st.st_mode) && st.st_blocks && (uint64_t)st.st_size > max)
		return too_big(path, (uint64_t)st.st_size, max);
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size <= max)
		cap += (size_t)st.st_size; /* one read, and room for the NUL text readers rely on */
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (len + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return tool_fail("%s: read: %s", path, strerror(errno)), -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			free(buf);
			return too_big(path, len, max);
		}
	}
	buf[len] = '\0';
	*ret = buf;
	*ret_len = len;
	return 0;
}

static int read_file_impl(const char *path, uint64_t max, bool optional, uint8_t **ret, size_t *ret_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r;

	*ret = NULL;
	*ret_len = 0;
	if (fd < 0) {
		if (optional && errno == ENOENT)
			return 0;
		return tool_fail("%s: %s", path, strerror(errno)), -1;
	}
	r = read_fd(fd, path, max, ret, ret_len);
	close(fd);
	return r;
}

int read_file(const char *path, uint64_t max, uint8_t **ret, size_t *ret_len)
{
	return read_file_impl(path, max, false, ret, ret_len);
}

int read_file_opt(const char *path, uint64_t max, uint8_t **ret, size_t *ret_len)
{
	return read_file_impl(path, max, true, ret, ret_len);
}

static int write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void fsync_dir_of(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int fd;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd); /* best effort: some file systems refuse fsync on directories */
		close(fd);
	}
	free(dir);
}

int write_file_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	const char *base = path_basename(path);
	char *tmp = xasprintf("%.*s.%s.XXXXXX", (int)(base - path), path, base);
	int fd = mkstemp(tmp);

	if (fd < 0) {
		tool_fail("%s: cannot create a temporary file beside it: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	if (write_all(fd, data, len) < 0 || fchmod(fd, mode) < 0 || fsync(fd) < 0) {
		tool_fail("%s: write: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		tool_fail("%s: rename: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	fsync_dir_of(path);
	return 0;
}

bool file_has_content(const char *path, const void *data, size_t len)
{
	uint8_t *buf = NULL;
	size_t n = 0;
	bool same = false;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == len) {
		buf = xmalloc(len);
		n = (size_t)pread(fd, buf, len, 0);
		same = n == len && memcmp(buf, data, len) == 0;
		free(buf);
	}
	close(fd);
	return same;
}

int install_file(const char *path, const void *data, size_t len, mode_t mode)
{
	if (file_has_content(path, data, len))
		return 0;
	return write_file_atomic(path, data, len, mode) < 0 ? -1 : 1;
}

int copy_file(const char *src, const char *dst)
{
	uint8_t *buf;
	size_t len;
	int r;

	if (read_file(src, TOOL_READ_MAX, &buf, &len) < 0)
		return -1;
	r = install_file(dst, buf, len, 0644);
	free(buf);
	return r < 0 ? -1 : 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; ; s++) {
		bool end = *s == '\0';
		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			tool_fail("%s: mkdir: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		if (!is_dir(p)) {
			tool_fail("%s: exists and is not a directory", p);
			free(p);
			return -1;
		}
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return 0;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a);

	while (*b == '/')
		b++;
	return xasprintf("%s%s%s", a, n && a[n - 1] == '/' ? "" : "/", b);
}

const char *path_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

char *tmpdir_create(const char *tag)
{
	const char *base = getenv("TMPDIR");
	char *t = xasprintf("%s/handoff-%s.XXXXXX", base && *base ? base : "/tmp", tag);

	if (!mkdtemp(t)) {
		tool_fail("%s: cannot create a temporary directory: %s", t, strerror(errno));
		free(t);
		return NULL;
	}
	return t;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int random_bytes(void *buf, size_t n)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	while (fd >= 0 && got < n) {
		ssize_t r = read(fd, (uint8_t *)buf + got, n - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	if (got != n)
		return tool_fail("/dev/urandom: cannot read %zu random bytes", n), -1;
	return 0;
}

static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

bool parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*ret = v;
	return true;
}

int usage_bad_option(int c, char **argv)
{
	if (c == ':')
		return tool_usage("option '%s' needs a value", argv[optind - 1]);
	if (optopt)
		return tool_usage("unknown option '-%c'", optopt);
	return tool_usage("unknown option '%s'", argv[optind - 1]);
}

int parse_listing_opts(int argc, char **argv, const char *help, struct listing_opts *o)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "boot", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	*o = (struct listing_opts){ 0 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'e')
			o->esp = optarg;
		else if (c == 'b')
			o->boot = optarg;
		else if (c == 'j')
			o->json = true;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return usage_bad_option(c, argv);
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	return -1;
}

static char *artifact_find(const char *opt, const char *local, const char *installed, const char *what)
{
	char *dir = self_dir(), *cand[2] = { NULL, NULL };
	char *found = NULL;

	if (opt) {
		free(dir);
		if (!is_file(opt)) {
			tool_fail("%s: %s not found", opt, what);
			return NULL;
		}
		return xstrdup(opt);
	}
	if (dir) {
		cand[0] = path_join(dir, local);
		cand[1] = path_join(dir, installed);
	}
	for (size_t i = 0; i < 2 && !found; i++)
		if (cand[i] && is_file(cand[i]))
			found = xstrdup(cand[i]);
	if (!found)
		tool_fail("no %s: neither %s nor %s exists; build it (make) or name it with an option",
			  what, cand[0] ? cand[0] : local, cand[1] ? cand[1] : installed);
	free(cand[0]);
	free(cand[1]);
	free(dir);
	return found;
}

char *loader_find(const char *opt)
{
	return artifact_find(opt, "handoff.efi", "../lib/handoff/handoffx64.efi", "loader");
}

char *loader32_find(const char *opt)
{
	return artifact_find(opt, "handoffia32.efi", "../lib/handoff/handoffia32.efi", "IA-32 loader");
}

char *loaderaa64_find(const char *opt)
{
	return artifact_find(opt, "handoffaa64.efi", "../lib/handoff/handoffaa64.efi", "AArch64 loader");
}

char *stub_find(const char *opt)
{
	return artifact_find(opt, "handoff-stub.efi", "../lib/handoff/handoff-stub.efi", "stub");
}

char *stubaa64_find(const char *opt)
{
	return artifact_find(opt, "handoff-stubaa64.efi", "../lib/handoff/handoff-stubaa64.efi", "AArch64 stub");
}
