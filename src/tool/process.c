/* Running other programs (mkfs.vfat, sbsign, systemctl) from the host tool:
 * argv[0] looked up in PATH, stdin /dev/null, the output collected (up to
 * 1 MiB) so that a failure is one line naming what was being done and the
 * last line the program printed. */
#define _GNU_SOURCE
#include "tool.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define OUTPUT_MAX (1u << 20)

/* The last non-empty line of a command's output: usually the reason. */
static void last_line(const char *out, size_t len, char *line, size_t size)
{
	size_t end = len, start;

	while (end && (out[end - 1] == '\n' || out[end - 1] == '\r'))
		end--;
	start = end;
	while (start && out[start - 1] != '\n')
		start--;
	snprintf(line, size, "%.*s", (int)(end - start), out + start);
}

static int wait_collect(pid_t pid, int fd, struct strbuf *out)
{
	char chunk[4096];
	ssize_t n;
	int status;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (out->len < OUTPUT_MAX)
			sb_putn(out, chunk, (size_t)n);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/* Run @argv with stdout (and, with @merge, stderr) into @out. Return: 0, or -1 (printed). */
static int run(const char *what, char *const argv[], bool merge, struct strbuf *out)
{
	posix_spawn_file_actions_t fa;
	char line[512];
	int pipefd[2], status, err;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return tool_fail("%s: pipe: %s", what, strerror(errno)), -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	if (merge)
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (err) {
		close(pipefd[0]);
		return tool_fail("%s: cannot run %s: %s", what, argv[0], strerror(err)), -1;
	}
	status = wait_collect(pid, pipefd[0], out);
	close(pipefd[0]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	last_line(sb_str(out), out->len, line, sizeof(line));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !*line)
		snprintf(line, sizeof(line), "not found");
	tool_fail("%s: %s failed (%s %d)%s%s", what, argv[0], WIFEXITED(status) ? "exit" : "signal",
		  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), *line ? ": " : "", line);
	return -1;
}

int run_command(const char *what, char *const argv[])
{
	struct strbuf out = { 0 };
	int r = run(what, argv, /* merge= */ true, &out);

	sb_free(&out);
	return r;
}

int run_output(const char *what, char *const argv[], char **ret)
{
	struct strbuf out = { 0 };
	int r = run(what, argv, /* merge= */ false, &out);

	*ret = r == 0 ? xstrdup(sb_str(&out)) : NULL;
	sb_free(&out);
	return r;
}

char *find_program(const char *name)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	char *save = NULL, *found = NULL;

	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = path_join(d, name);
		struct stat st;

		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}
