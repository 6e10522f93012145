"""The host's programs: run one and fail with what it said, or say which
Debian package provides a missing one (scripts/packages.txt lists them all)."""
import os
import shutil
import subprocess


class HarnessError(Exception):
    """The environment lacks something (a package, a file) or a helper
    program failed: the test fails, saying so, and is never skipped."""


def need_tool(tool, package):
    if shutil.which(tool) is None:
        raise HarnessError("'%s' not found: install the Debian package '%s' (scripts/deps.sh)"
                           % (tool, package))


def need_file(path, package):
    if not os.path.isfile(path):
        raise HarnessError("%s missing: install the Debian package '%s' (scripts/deps.sh)" % (path, package))
    return path


def stop(p, timeout=5):
    """End the child process @p: SIGTERM, then SIGKILL after @timeout s."""
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def run(cmd, env=None):
    """Run @cmd; HarnessError with its last words when it fails."""
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise HarnessError("%s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                   (p.stderr or p.stdout).strip()[-2000:]))
    return p
