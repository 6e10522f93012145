"""`bootctl status` (systemd 252, Debian 12) against `handoff status --json`,
field by field, for the fields both print: the boot loader (LoaderInfo), the
firmware (LoaderFirmwareType and LoaderFirmwareInfo), Secure Boot, the
loader's features (LoaderFeatures, and whether it set LoaderDevicePartUUID),
the ESP's PARTUUID and the loader's file (LoaderImageIdentifier). bootctl's
entries and default are not compared: it reads the ESP and XBOOTLDR only,
not the entries in place in an ext4 /boot that handoff reads.

bootctl prints check marks and tree glyphs in UTF-8, or ASCII ("+", "-",
"`-") without a UTF-8 locale, as in the test's systemd service."""
import re

# bootctl's feature lines (systemd src/boot/bootctl.c) -> handoff status's names
FEATURES = {
    "Boot counting": "boot-counting",
    "Menu timeout control": "config-timeout",
    "One-shot menu timeout control": "config-timeout-one-shot",
    "Default entry control": "entry-default",
    "One-shot entry control": "entry-one-shot",
    "Support for XBOOTLDR partition": "xbootldr",
    "Support for passing random seed to OS": "random-seed",
    "Load drop-in drivers": "load-driver",
    "Support Type #1 sort-key field": "sort-key",
    "Support @saved pseudo-entry": "saved-entry",
    "Support Type #1 devicetree field": "devicetree",
}
ESP_INFO = "Boot loader sets ESP information"
MARKS = {"\u2713": True, "+": True, "\u2717": False, "-": False}


def sections(text):
    """{section title: [its lines]} of bootctl status's output."""
    out, cur = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            cur = out.setdefault(line[:-1], [])
        elif cur is not None and line.strip():
            cur.append(line)
    return out


def parse(text):
    """What bootctl status says of the firmware and the current boot loader."""
    s = sections(text)
    got, features = {}, {}
    for line in s.get("System", []) + s.get("Current Boot Loader", []):
        m = re.match(r"\s*(Features:)?\s*(\u2713|\u2717|\+|-) (.+)$", line)
        if m and (m.group(1) or features):
            features[m.group(3)] = MARKS[m.group(2)]
            continue
        m = re.match(r"\s*([A-Za-z ]+): (.*)$", line)
        if m:
            got[m.group(1)] = m.group(2)
    got["features"] = features
    return got


def compare_status(bootctl_text, status):
    """([names of the fields compared], [(field, bootctl's, handoff's) that differ])."""
    b, lo = parse(bootctl_text), status.get("loader", {})
    feats = b["features"]
    pairs = [
        ("product", b.get("Product"), lo.get("info")),
        ("firmware", b.get("Firmware"), "%s (%s)" % (lo.get("firmware_type"), lo.get("firmware_info"))),
        ("secure boot", (b.get("Secure Boot") or "").split(" ")[0] or None,
         {True: "enabled", False: "disabled"}.get(status.get("secure_boot"))),
        ("features", sorted(FEATURES[k] for k, on in feats.items() if on and k in FEATURES) if feats else None,
         sorted(f for f in lo.get("features", []) if f in FEATURES.values())),
        ("ESP information", feats.get(ESP_INFO), lo.get("device_part_uuid") is not None),
        ("ESP PARTUUID", re.sub(r"^/dev/disk/by-partuuid/", "", b["ESP"]) if "ESP" in b else None,
         lo.get("device_part_uuid") or "n/a"),
        ("loader file", re.sub(r"^(\u2514\u2500|`-)", "", b.get("File", "")) or None,
         (lo.get("image") or "").replace("\\", "/") or None),
    ]
    compared = [name for name, x, _ in pairs if x is not None]
    return compared, [(name, x, y) for name, x, y in pairs if x is None or x != y]
