"""Multi-profile UKIs (UAPI.5; systemd-stub(7), ukify(1) --profile): `handoff
uki --profile/--profile-cmdline` lays the profiles out after the base, each
opened by .profile; `handoff inspect` lists them; `inspect --pcrs` predicts
PCR 11 per profile and `--pcr-private-key` signs a .pcrsig per profile. The
oracle is tests/boot/measured.py (hashlib, its own section walk) and openssl."""
import base64
import json
import os

from boot import measured
from common import KERNEL, Tmp, fails, h, need, ok, test
from cmd_pcr import openssl, rsa

DEFAULT = 'ID=default\nTITLE="Default boot"'
RESCUE = 'ID=rescue\nTITLE="Rescue shell"'


def build(tmp, *extra, out="multi.efi"):
    out = os.path.join(tmp, out)
    ok(h("uki", "--linux", KERNEL, "--cmdline", "console=ttyS0 quiet", "--profile", DEFAULT,
         "--profile", RESCUE, "--profile-cmdline", "console=ttyS0 rescue", "-o", out, *extra), "uki")
    return out


def names(data):
    return [s[0] for s in measured.pe_sections(data)[2]]


def in_range(data, profile, name):
    """@name in profile @profile's own sections (after its .profile)."""
    rng, found = None, None
    for n, vsize, va, rsize, roff in measured.pe_sections(data)[2]:
        if n == ".profile":
            rng = 0 if rng is None else rng + 1
        if rng == profile and n == name and found is None:
            found = data[roff:roff + vsize]
    return found


@test
def uki_profiles_layout_and_inspect():
    """Base, then .profile per profile with its own .cmdline; inspect lists
    ID, TITLE and the command line each profile boots with."""
    need(KERNEL)
    with Tmp() as tmp:
        image = build(tmp)
        data = open(image, "rb").read()
        n = names(data)
        assert n[-4:] == [".linux", ".profile", ".profile", ".cmdline"], n
        assert in_range(data, 0, ".profile") == DEFAULT.encode()
        assert in_range(data, 1, ".profile") == RESCUE.encode()
        assert in_range(data, 1, ".cmdline") == b"console=ttyS0 rescue"
        assert measured.uki_profile_sections(data, 0)[".cmdline"] == b"console=ttyS0 quiet"
        text = ok(h("inspect", image)).stdout.decode()
        assert "UKI profile 0        ID=default TITLE=Default boot\n    .cmdline           console=ttyS0 quiet\n" \
            in text, text
        assert "UKI profile 1        ID=rescue TITLE=Rescue shell\n    .cmdline           console=ttyS0 rescue\n" \
            in text, text
        j = json.loads(ok(h("inspect", "--json", image)).stdout)
        assert j["uki"]["profiles"] == [
            {"profile": 0, "id": "default", "title": "Default boot", "cmdline": "console=ttyS0 quiet"},
            {"profile": 1, "id": "rescue", "title": "Rescue shell", "cmdline": "console=ttyS0 rescue"}], j["uki"]
        # a UKI without profiles lists none
        plain = os.path.join(tmp, "plain.efi")
        ok(h("uki", "--linux", KERNEL, "-o", plain))
        assert json.loads(ok(h("inspect", "--json", plain)).stdout)["uki"]["profiles"] == []
        assert "UKI profile" not in ok(h("inspect", plain)).stdout.decode()


@test
def uki_profiles_pcrs_per_profile():
    """inspect --pcrs: each profile's PCR 11 (the base's sections with the
    profile's own instead, .profile measured last), as measured.py computes it."""
    need(KERNEL)
    with Tmp() as tmp:
        image = build(tmp)
        data = open(image, "rb").read()
        text = ok(h("inspect", "--pcrs", "--phases", "enter-initrd", image)).stdout.decode()
        want = ""
        for p, pid in ((0, "default"), (1, "rescue")):
            v = measured.uki_pcr11(data, "sha256", p)
            want += ("\n" if p else "") + f"# profile {p} ({pid})\n# PCR 11 after the stub\n11:sha256={v.hex()}\n"
            want += f"# PCR 11 in phase enter-initrd\n11:sha256={measured.phase_pcr11(v, 'enter-initrd').hex()}\n"
        assert text == want, (text, want)
        assert measured.uki_pcr11(data, "sha256", 0) != measured.uki_pcr11(data, "sha256", 1)
        j = json.loads(ok(h("inspect", "--pcrs", "--json", "--phases", "ready", image)).stdout)
        assert [e["sha256"][0]["hash"] for e in j] == [
            measured.phase_pcr11(measured.uki_pcr11(data, "sha256", p), "ready").hex() for p in (0, 1)], j


@test
def uki_profiles_pcrsig_per_profile():
    """--pcr-private-key: the base's .pcrsig signs the base alone, each
    profile's (in its own sections) the profile as the stub measures it;
    every signature verifies with openssl against .pcrpkey."""
    need(KERNEL)
    with Tmp() as tmp:
        key, pub = rsa(tmp)
        image = build(tmp, "--pcr-private-key", key, "--phases", "enter-initrd")
        data = open(image, "rb").read()
        sigs = {None: measured.uki_profile_sections(data, None)[".pcrsig"],
                0: in_range(data, 0, ".pcrsig"), 1: in_range(data, 1, ".pcrsig")}
        for p, raw in sigs.items():
            assert raw, f"profile {p}: no .pcrsig of its own"
            e = json.loads(raw)["sha256"]
            assert len(e) == 1, e
            value = measured.phase_pcr11(measured.uki_pcr11(data, "sha256", p), "enter-initrd")
            pol = measured.policy_pcr11(value)
            assert e[0]["pol"] == pol.hex(), (p, e[0]["pol"], pol.hex())
            open(os.path.join(tmp, "pol"), "wb").write(pol)
            open(os.path.join(tmp, "sig"), "wb").write(base64.b64decode(e[0]["sig"]))
            openssl("dgst", "-sha256", "-verify", pub, "-signature", os.path.join(tmp, "sig"),
                    os.path.join(tmp, "pol"))
        assert len({json.loads(v)["sha256"][0]["pol"] for v in sigs.values()}) == 3


@test
def uki_profiles_refused():
    """A --profile-cmdline without its --profile, twice, or a command line
    the stub would refuse: usage errors, one line, nothing written."""
    need(KERNEL)
    with Tmp() as tmp:
        out = os.path.join(tmp, "x.efi")
        fails(h("uki", "--linux", KERNEL, "--profile-cmdline", "quiet", "-o", out), 2,
              "--profile-cmdline goes once after each --profile")
        fails(h("uki", "--linux", KERNEL, "--profile", "ID=a", "--profile-cmdline", "a", "--profile-cmdline", "b",
                "-o", out), 2, "--profile-cmdline goes once after each --profile")
        fails(h("uki", "--linux", KERNEL, "--profile", "ID=a", "--profile-cmdline", "bad\nline", "-o", out), 1,
              "of a profile")
        fails(h("uki", "--linux", KERNEL, "--profile", "", "-o", out), 1, "profile 0: empty .profile")
        assert not os.path.exists(out)


@test
def entry_list_lists_each_profile():
    """`entry list` shows a multi-profile UKI in EFI/Linux as the loader's
    menu does (systemd-boot's names): one entry per profile, in profile
    order, titled "NAME (TITLE)", else "(ID)", else "(Profile #N+1)"; the
    ids of profiles past 0 end "@ID" or "@N", their options are "@N"."""
    with Tmp() as tmp:
        linux = os.path.join(tmp, "esp", "EFI", "Linux")
        os.makedirs(linux)
        build(tmp, "--profile", "ID=third", "--profile", "VERSION_ID=4", out="esp/EFI/Linux/multi.efi")
        j = json.loads(ok(h("entry", "list", "--esp", os.path.join(tmp, "esp"), "--json")).stdout)
        got = [(e["id"], e["title"], e["options"], e["default"], e["problems"]) for e in j["entries"]]
        name = got[0][1][:-len(" (Default boot)")]
        assert name and got == [
            ("multi.efi", name + " (Default boot)", None, True, []),
            ("multi.efi@rescue", name + " (Rescue shell)", "@1", False, []),
            ("multi.efi@third", name + " (third)", "@2", False, []),
            ("multi.efi@3", name + " (Profile #4)", "@3", False, []),
        ], got
        assert all(e["efi"] == "/EFI/Linux/multi.efi" for e in j["entries"])
