/* handoff run: boot a disk image, an ESP directory or an EFI file (kernel,
 * UKI, loader) in QEMU with OVMF (x86-64) or AAVMF (AArch64), serial console
 * on stdout, and exit with the guest's status: the value it wrote to
 * isa-debug-exit (port 0xf4, x86 only), 0 after a clean power-off, 124 when
 * --timeout expires. */
#define _GNU_SOURCE
#include "entry.h"
#include "run_machine.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_TIMEOUT 124
#define KILL_GRACE_SEC 5.0 /* SIGTERM, then SIGKILL: QEMU can hang on a SIGTERM early in OVMF's start */

static const char help[] =
	"Usage: handoff run TARGET [--arch x64|aa64] [--timeout S] [--protocol P] [--loader FILE]\n"
	"                   [--initrd FILE]... [--options TEXT] [-- QEMU-ARGS...]\n\n"
	"Boot TARGET in QEMU (TCG) with OVMF (x64: q35) or AAVMF (aa64: virt,\n"
	"cortex-a57); the serial console is on stdout. TARGET is a GPT disk image, an\n"
	"ESP directory (made into a disk image), or an EFI file. A Linux kernel is put\n"
	"on a temporary ESP with the loader and one entry (--protocol, --initrd,\n"
	"--options: default console=ttyS0); any other EFI application (a UKI, a boot\n"
	"loader) becomes \\EFI\\BOOT\\BOOTX64.EFI, or BOOTAA64.EFI for AArch64.\n\n"
	"Exit status: the guest's isa-debug-exit code (port 0xf4, x64 only), 0 after a\n"
	"power-off, 124 after --timeout seconds, 1 when QEMU could not run.\n\n"
	"  --arch ARCH      x64 or aa64: the machine to emulate (default: aa64 for an\n"
	"                   AArch64 EFI file or an ESP directory with only\n"
	"                   EFI/BOOT/BOOTAA64.EFI, else x64; a disk image needs it)\n"
	"  --timeout S      stop the guest after S seconds (default: no limit)\n"
	"  --protocol P     auto, stub, handover or legacy (kernel targets)\n"
	"  --loader FILE    the loader for kernel targets (default: handoff.efi beside\n"
	"                   the tool, or PREFIX/lib/handoff/handoffx64.efi)\n"
	"  --initrd FILE    initrd for a kernel target (repeatable)\n"
	"  --options TEXT   kernel command line for a kernel target\n"
	"  -- QEMU-ARGS     passed to QEMU after handoff's own arguments\n"
	"Environment: HANDOFF_QEMU (QEMU binary), HANDOFF_OVMF_DIR (instead of " RUN_OVMF_DIR "),\n"
	"HANDOFF_AAVMF_DIR (instead of " RUN_AAVMF_DIR ").\n";

enum target_kind { TARGET_DIR, TARGET_DISK, TARGET_KERNEL, TARGET_EFI };

struct run_args {
	const char *target;
	uint64_t timeout_sec;
	enum boot_scheme protocol;
	const char *loader_opt;
	const char **initrds;
	size_t n_initrds;
	const char *options;
	char **qemu_extra;
	int n_extra;
	const struct run_machine *m; /* --arch, then what the target says */
};

static volatile sig_atomic_t run_interrupted;

static void on_signal(int sig)
{
	run_interrupted = sig;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' }, { "protocol", required_argument, NULL, 'p' },
		{ "loader", required_argument, NULL, 'l' }, { "initrd", required_argument, NULL, 'i' },
		{ "options", required_argument, NULL, 'o' }, { "arch", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	/* Everything after "--" belongs to QEMU, untouched by getopt's permutation. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			a->qemu_extra = argv + i + 1;
			a->n_extra = argc - i - 1;
			argc = i;
			break;
		}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (!parse_u64(optarg, 86400 * 365, &a->timeout_sec) || a->timeout_sec == 0)
				return tool_usage("--timeout '%s': expected seconds, at least 1", optarg);
			break;
		case 'p':
			if (!scheme_from_string(optarg, &a->protocol))
				return tool_usage("--protocol '%s': expected auto, stub, handover or legacy", optarg);
			break;
		case 'l': a->loader_opt = optarg; break;
		case 'a':
			a->m = strcmp(optarg, "aa64") == 0 ? &run_machine_aa64 : NULL;
			if (strcmp(optarg, "x64") == 0)
				a->m = &run_machine_x64;
			if (!a->m)
				return tool_usage("--arch '%s': expected x64 or aa64", optarg);
			break;
		case 'o': a->options = optarg; break;
		case 'i':
			a->initrds = xrealloc(a->initrds, (a->n_initrds + 1) * sizeof(char *));
			a->initrds[a->n_initrds++] = optarg;
			break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind + 1 != argc)
		return tool_usage(optind == argc ? "missing TARGET" : "one TARGET only (QEMU arguments go after --)");
	a->target = argv[optind];
	return 0;
}

static ssize_t read_head(const char *path, uint8_t *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -tool_fail("%s: %s", path, strerror(errno));
	n = pread(fd, buf, size, 0);
	close(fd);
	if (n < 0)
		return -tool_fail("%s: read: %s", path, strerror(errno));
	return n;
}

/* GPT ("EFI PART" at LBA 1) is a disk; "MZ" or "HdrS" an image (kernel or
 * EFI application); anything else with an MBR boot signature a raw disk. */
static int classify(const char *path, enum target_kind *ret, uint16_t *ret_machine)
{
	struct image_info *img;
	uint8_t head[1024], *buf;
	ssize_t n;
	size_t len;
	int r = 0;

	if (is_dir(path)) {
		*ret = TARGET_DIR;
		return 0;
	}
	n = read_head(path, head, sizeof(head));
	if (n < 0)
		return -1;
	if (n >= 1024 && memcmp(head + 512, "EFI PART", 8) == 0) {
		*ret = TARGET_DISK;
		return 0;
	}
	if (!(n >= 2 && head[0] == 'M' && head[1] == 'Z') && !(n >= 0x206 && memcmp(head + 0x202, "HdrS", 4) == 0)) {
		if (n >= 512 && head[510] == 0x55 && head[511] == 0xaa) {
			*ret = TARGET_DISK;
			return 0;
		}
		return -tool_fail("%s: not a disk image, ESP directory, kernel or EFI application", path);
	}
	if (read_file(path, TOOL_READ_MAX, &buf, &len) < 0)
		return -1;
	img = xmalloc(sizeof(*img));
	if (image_identify(buf, len, path, img) == EFI_SUCCESS) {
		*ret = img->is_bz ? TARGET_KERNEL : TARGET_EFI;
		*ret_machine = img->is_pe ? img->pe.machine : 0;
	} else
		r = -1;
	free(img);
	free(buf);
	return r;
}

/* A kernel goes on the ESP with the loader and one entry, so that --protocol,
 * --initrd and --options take effect exactly as on a real ESP. Without a
 * loader, a plain kernel is started by the firmware through its EFI stub. */
static int stage_kernel(const struct run_args *a, const char *esp, const char *bootx64)
{
	struct entry_spec spec = {
		.esp = esp, .token = "run", .version = "kernel", .title = "handoff run",
		.options = a->options ? a->options : "console=ttyS0", .linux_path = a->target,
		.initrds = a->initrds, .n_initrds = a->n_initrds, .protocol = a->protocol,
	};
	bool needs_loader = a->loader_opt || a->protocol == SCHEME_HANDOVER || a->protocol == SCHEME_LEGACY ||
			    a->n_initrds || a->options;
	struct diag_capture why;
	char *loader, *conf, *ldir;
	int r;

	diag_capture_begin(&why);
	loader = loader_find(a->loader_opt);
	diag_capture_end(&why);
	if (!loader) {
		if (needs_loader)
			diag_capture_replay(&why, LOG_ERROR);
		diag_capture_free(&why);
		if (needs_loader)
			return -1;
		tool_note("starting %s directly by its EFI stub", a->target);
		return copy_file(a->target, bootx64);
	}
	diag_capture_free(&why);
	ldir = path_join(esp, "loader");
	conf = path_join(ldir, "loader.conf");
	r = copy_file(loader, bootx64);
	if (r == 0)
		r = mkdir_p(ldir, 0755);
	if (r == 0)
		r = write_file_atomic(conf, "timeout 0\n", 10, 0644);
	if (r == 0)
		r = entry_install(&spec);
	free(conf);
	free(ldir);
	free(loader);
	return r;
}

static char *stage_disk(const struct run_args *a, enum target_kind kind, const char *work)
{
	char *esp = path_join(work, "esp"), *boot = path_join(esp, "EFI/BOOT");
	char *bootx64 = path_join(boot, a->m->fallback), *disk = path_join(work, "disk.img");
	const char *tree = kind == TARGET_DIR ? a->target : esp;
	int r = 0;

	if (kind == TARGET_DISK) {
		free(disk);
		disk = xstrdup(a->target);
	} else {
		if (kind != TARGET_DIR && (r = mkdir_p(boot, 0755)) == 0)
			r = kind == TARGET_KERNEL ? stage_kernel(a, esp, bootx64) : copy_file(a->target, bootx64);
		if (r == 0)
			r = disk_build(disk, tree, NULL, false, 0, /* report= */ false);
	}
	free(bootx64);
	free(boot);
	free(esp);
	if (r < 0) {
		free(disk);
		return NULL;
	}
	return disk;
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads what QEMU wrote to stderr, waiting up to @ms (the first 64 KiB are
 * kept). Return: 1 read something, 0 nothing yet, -1 end of file. */
static int read_stderr(int fd, int ms, struct strbuf *err)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char chunk[4096];
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return 0;
	n = read(fd, chunk, sizeof(chunk));
	if (n > 0 && err->len < (1u << 16))
		sb_putn(err, chunk, (size_t)n);
	return n > 0 ? 1 : n < 0 && errno == EINTR ? 0 : -1;
}

/* Waits for QEMU, collecting its stderr; on timeout or a signal, SIGTERM and
 * after a grace period SIGKILL. Ends when QEMU has exited, even if something
 * it started still holds its stderr. */
static int qemu_wait(pid_t pid, int err_fd, uint64_t timeout_sec, struct strbuf *err, bool *ret_timed_out)
{
	double deadline = timeout_sec ? now_sec() + (double)timeout_sec : 0, killed_at = 0;
	bool open_fd = true;
	int status, killed = 0;

	*ret_timed_out = false;
	for (;;) {
		pid_t w;

		if (!killed && (run_interrupted || (deadline && now_sec() >= deadline))) {
			*ret_timed_out = !run_interrupted;
			kill(pid, SIGTERM);
			killed = 1;
			killed_at = now_sec();
		} else if (killed == 1 && now_sec() >= killed_at + KILL_GRACE_SEC) {
			kill(pid, SIGKILL);
			killed = 2;
		}
		if (open_fd)
			open_fd = read_stderr(err_fd, 200, err) >= 0;
		else
			usleep(100000);
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid) {
			while (open_fd && read_stderr(err_fd, 0, err) > 0) /* what is left in the pipe */
				;
			return status;
		}
		if (w < 0 && errno != EINTR)
			return -1;
	}
}

/* QEMU's own last complaint, for the one error line. */
static const char *last_err_line(struct strbuf *err)
{
	char *s = err->buf;
	size_t n = err->len;

	if (!s)
		return "";
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	while (n && s[n - 1] != '\n')
		n--;
	return s + n;
}

/* Did QEMU complain about more than warnings? */
static bool has_error_line(const struct strbuf *err)
{
	for (const char *p = sb_str(err); *p;) {
		size_t n = strcspn(p, "\n");
		if (n && !memmem(p, n, "warning:", 8))
			return true;
		p += n + (p[n] == '\n');
	}
	return false;
}

/* isa-debug-exit makes QEMU exit with (value << 1) | 1; a power-off gives 0.
 * QEMU's own failures also exit 1, but say why on stderr. */
static int guest_status(int status, bool timed_out, struct strbuf *err, const struct run_args *a)
{
	if (timed_out)
		return tool_fail("%s: timed out after %llu s", a->target, (unsigned long long)a->timeout_sec),
		       EXIT_TIMEOUT;
	if (run_interrupted)
		return tool_fail("interrupted by signal %d", (int)run_interrupted);
	if (status < 0 || !WIFEXITED(status))
		return tool_fail("QEMU ended by signal %d: %s", WIFSIGNALED(status) ? WTERMSIG(status) : 0,
				 last_err_line(err));
	if (WEXITSTATUS(status) == 0)
		return EXIT_OK;
	if ((WEXITSTATUS(status) & 1) && !(WEXITSTATUS(status) == 1 && has_error_line(err)))
		return WEXITSTATUS(status) >> 1;
	return tool_fail("QEMU failed (exit %d): %s", WEXITSTATUS(status), last_err_line(err));
}

/* fork and exec rather than posix_spawn: the child asks to be killed with
 * its parent (PR_SET_PDEATHSIG), so a `handoff run` killed by SIGKILL leaves
 * no QEMU behind. exec's errno comes back through a close-on-exec pipe.
 * Return: 0, or the errno of fork or exec. */
static int spawn_qemu(char **argv, int err_fd, pid_t *ret_pid)
{
	pid_t parent = getpid(), pid;
	int ep[2], e = 0;

	if (pipe2(ep, O_CLOEXEC) < 0)
		return errno;
	pid = fork();
	if (pid == 0) {
		close(ep[0]);
		if (dup2(err_fd, 2) >= 0 && prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == parent)
			execvp(argv[0], argv);
		e = errno;
		(void)!write(ep[1], &e, sizeof(e));
		_exit(127);
	}
	if (pid < 0)
		e = errno;
	close(ep[1]);
	if (pid > 0 && read(ep[0], &e, sizeof(e)) != sizeof(e))
		e = 0; /* closed by a successful exec */
	close(ep[0]);
	if (pid > 0 && e)
		waitpid(pid, NULL, 0);
	*ret_pid = pid;
	return e;
}

static int qemu_run(const struct run_args *a, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal }, old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct strbuf err = { 0 };
	int pipefd[2], status, r, spawn_err;
	bool timed_out;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return tool_fail("pipe: %s", strerror(errno));
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	fflush(stdout);
	spawn_err = spawn_qemu(argv, pipefd[1], &pid);
	close(pipefd[1]);
	if (spawn_err) {
		r = tool_fail("cannot run %s: %s (install the Debian package %s)", argv[0], strerror(spawn_err),
			      a->m->qemu_package);
	} else {
		status = qemu_wait(pid, pipefd[0], a->timeout_sec, &err, &timed_out);
		r = guest_status(status, timed_out, &err, a);
	}
	close(pipefd[0]);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (getenv("HANDOFF_LOG") && err.len)
		fputs(sb_str(&err), stderr);
	sb_free(&err);
	return r;
}

static bool dir_has(const char *dir, const char *file)
{
	char *p = path_join(dir, file);
	bool r = is_file(p);

	free(p);
	return r;
}

/* The machine to emulate: --arch, else what the target is built for (an EFI
 * application's PE machine; an ESP directory whose only fallback loader is
 * AArch64's); a disk image is not looked into: x64 unless --arch says. An
 * x86 kernel (bzImage) or an EFI application of the other machine cannot run
 * on the --arch asked for. */
static int choose_machine(struct run_args *a, enum target_kind kind, uint16_t pe_machine)
{
	const struct run_machine *seen = NULL;

	if (kind == TARGET_KERNEL)
		seen = &run_machine_x64;
	else if (kind == TARGET_EFI && (pe_machine == PE_MACHINE_AA64 || pe_machine == PE_MACHINE_X64))
		seen = pe_machine == PE_MACHINE_AA64 ? &run_machine_aa64 : &run_machine_x64;
	else if (kind == TARGET_DIR && !a->m && dir_has(a->target, "EFI/BOOT/BOOTAA64.EFI") &&
		 !dir_has(a->target, "EFI/BOOT/BOOTX64.EFI"))
		seen = &run_machine_aa64;
	if (a->m && seen && a->m != seen)
		return tool_usage("%s is %s for %s: --arch %s cannot run it", a->target,
				  kind == TARGET_KERNEL ? "an x86 kernel" : "an EFI application", seen->name,
				  a->m->name);
	if (!a->m)
		a->m = seen ? seen : &run_machine_x64;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .protocol = SCHEME_AUTO };
	enum target_kind kind;
	uint16_t pe_machine = 0;
	char *work = NULL, *code = NULL, *vars = NULL, *disk = NULL, **qargv = NULL;
	int r = parse_args(argc, argv, &a);

	if (r)
		goto out;
	r = EXIT_FAIL;
	if (classify(a.target, &kind, &pe_machine) < 0)
		goto out;
	if (choose_machine(&a, kind, pe_machine)) {
		r = EXIT_USAGE;
		goto out;
	}
	if (kind != TARGET_KERNEL && (a.protocol != SCHEME_AUTO || a.n_initrds || a.options || a.loader_opt)) {
		r = tool_usage("--protocol, --initrd, --options and --loader apply to a kernel TARGET only");
		goto out;
	}
	if (!(work = tmpdir_create("run")) || run_find_firmware(a.m, work, &code, &vars) < 0 ||
	    !(disk = stage_disk(&a, kind, work)))
		goto out;
	qargv = run_qemu_argv(a.m, code, vars, disk, a.qemu_extra, a.n_extra);
	r = qemu_run(&a, qargv);
out:
	for (size_t i = 0; qargv && qargv[i]; i++)
		free(qargv[i]);
	free(qargv);
	if (work)
		rm_rf(work);
	free(work);
	free(code);
	free(vars);
	free(disk);
	free(a.initrds);
	return r < 0 ? EXIT_OK : r;
}
