"""handoff install, random-seed and status for the random seed the loader
passes to Linux: \\loader\\random-seed (32 bytes, mode 0600) and the
LoaderSystemToken variable (32 bytes, non-volatile, mode 0600 in a stand-in
efivarfs), as bootctl writes them; status reads LoaderFeatures' random-seed
bit (6) and the file, as bootctl status does."""
import json
import os
import stat
import struct

from common import LOADER, Tmp, fails, h, ok, tree_state, test

LOADER_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"


def token_path(ev):
    return os.path.join(ev, "LoaderSystemToken-" + LOADER_GUID)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def setup(tmp, efivars=True):
    esp, ev = os.path.join(tmp, "esp"), os.path.join(tmp, "efivars")
    os.mkdir(esp)
    if efivars:
        os.mkdir(ev)
    return esp, ev, {"HANDOFF_EFIVARS_DIR": ev}


@test
def install_creates_seed_and_token():
    with Tmp() as tmp:
        esp, ev, env = setup(tmp)
        seed = os.path.join(esp, "loader/random-seed")
        r = ok(h("install", "--esp", esp, "--loader", LOADER, env=env))
        assert b"created %s/loader/random-seed (32 bytes)" % esp.encode() in r.stdout, r.stdout
        assert b"set LoaderSystemToken (32 bytes)" in r.stdout, r.stdout
        assert os.path.getsize(seed) == 32 and mode(seed) == 0o600, (os.path.getsize(seed), oct(mode(seed)))
        tok = open(token_path(ev), "rb").read()
        assert len(tok) == 36 and struct.unpack("<I", tok[:4])[0] == 7, tok[:4]  # NV|BS|RT, then 32 bytes
        assert mode(token_path(ev)) == 0o600
        assert open(seed, "rb").read() != tok[4:]
        before, tok_before = tree_state(esp), tok
        r = ok(h("install", "--esp", esp, "--loader", LOADER, env=env))
        assert r.stdout == b"" and r.stderr == b"", (r.stdout, r.stderr)
        assert tree_state(esp) == before and open(token_path(ev), "rb").read() == tok_before
        # a file cut short (a power cut after creating it) is written again
        with open(seed, "wb") as f:
            f.write(b"short")
        r = ok(h("install", "--esp", esp, "--loader", LOADER, env=env))
        assert os.path.getsize(seed) == 32 and b"created" in r.stdout


@test
def install_without_efivars_says_so_once():
    with Tmp() as tmp:
        esp, ev, env = setup(tmp, efivars=False)
        r = ok(h("install", "--esp", esp, "--loader", LOADER, env=env))
        assert os.path.getsize(os.path.join(esp, "loader/random-seed")) == 32
        err = r.stderr.decode()
        assert "LoaderSystemToken not set: %s is missing" % ev in err, err
        assert not os.path.exists(ev)
        r = ok(h("install", "--esp", esp, "--loader", LOADER, env=env))
        assert r.stderr == b"" and r.stdout == b"", r.stderr


@test
def random_seed_refreshes_file_keeps_token():
    with Tmp() as tmp:
        esp, ev, env = setup(tmp)
        seed = os.path.join(esp, "loader/random-seed")
        r = ok(h("random-seed", "--esp", esp, env=env))
        assert b"wrote %s (32 bytes)" % seed.encode() in r.stdout, r.stdout
        first, tok = open(seed, "rb").read(), open(token_path(ev), "rb").read()
        with open(seed, "ab") as f:
            f.write(b"x" * 100)  # a longer file is replaced by 32 bytes
        ok(h("random-seed", "--esp", esp, env=env))
        second = open(seed, "rb").read()
        assert len(second) == 32 and second != first[:32] and mode(seed) == 0o600
        assert open(token_path(ev), "rb").read() == tok, "an existing token of 32 bytes is kept"
        # a token too short for the loader to count is replaced
        with open(token_path(ev), "wb") as f:
            f.write(struct.pack("<I", 7) + b"0123456789abcdef")
        r = ok(h("random-seed", "--esp", esp, env=env))
        assert b"set LoaderSystemToken" in r.stdout and len(open(token_path(ev), "rb").read()) == 36
        fails(h("random-seed", "--esp", os.path.join(tmp, "nope"), env=env), 1, "not a directory")
        fails(h("random-seed", "--esp", esp, "--json", env=env), 2, "only --esp")
        assert sorted(os.listdir(os.path.join(esp, "loader"))) == ["random-seed"], os.listdir(esp + "/loader")


@test
def status_says_whether_a_seed_is_passed():
    with Tmp() as tmp:
        esp, ev, env = setup(tmp)

        def seed_status():
            return json.loads(ok(h("status", "--esp", esp, "--json", env=env)).stdout)["random_seed"]

        assert seed_status() == {"passed": False, "system_token": False, "file_size": None}
        ok(h("random-seed", "--esp", esp, env=env))
        assert seed_status() == {"passed": False, "system_token": True, "file_size": 32}
        features = os.path.join(ev, "LoaderFeatures-" + LOADER_GUID)
        with open(features, "wb") as f:  # a loader without the random-seed bit (6)
            f.write(struct.pack("<IQ", 6, 0x33f))
        assert seed_status()["passed"] is False
        with open(features, "wb") as f:
            f.write(struct.pack("<IQ", 6, 0x33f | 1 << 6))
        assert seed_status() == {"passed": True, "system_token": True, "file_size": 32}
        text = ok(h("status", "--esp", esp, env=env)).stdout.decode()
        assert "Random seed: passed to Linux by the loader; LoaderSystemToken set; loader/random-seed 32 bytes" \
            in text, text
        os.unlink(os.path.join(esp, "loader/random-seed"))
        assert seed_status() == {"passed": False, "system_token": True, "file_size": None}
