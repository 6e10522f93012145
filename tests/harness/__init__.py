"""The Python harness that the boot tests (tests/boot), the CLI tests
(tests/cli), the system test (tests/system) and the benchmark (bench/) share.

    paths      where things are: the repository, build outputs, the boot cache
    host       running the host's programs; HarnessError (the machine lacks something)
    case       the running test: its directory, runs and notes; @needs; tests from a table
    qemu       QEMU + OVMF runs (Result), assertions on a run and on what Linux reported
    firmware   the OVMF builds, the Secure Boot (snakeoil) key and signing, swtpm
    ovmfvars   OVMF variable stores booted once, for runs on the standard machine
    esp        ESP trees, BLS entries, bare FAT images of a tree
    disk       GPT disks made by `build/handoff disk`, read back by gpt and mtools
    gpt        an independent GPT reader (UEFI 2.10 §5.3)
    tool       running build/handoff (`handoff uki`, ...)
    loaders    the other loaders: systemd-boot, shim, standalone GRUB images
    initramfs  the test initramfs (its /init reports HANDOFF-INIT) and its checksum
    net        network boots: the logging HTTP(S) test server, TFTP, the QEMU network arguments

An entry point puts tests/ on sys.path once and imports `from harness import
qemu, esp`; nothing imports another suite's directory.
"""
