/* SPDX-License-Identifier: MIT */
/*
 * EFI_SERVICE_BINDING_PROTOCOL (UEFI 2.10 §11.6): how a network driver hands
 * out per-user protocol instances. Each service (HTTP, TCP, ...) installs it
 * under its own GUID on the NIC's handle; CreateChild() makes a handle with
 * one instance of the service's protocol.
 */
#ifndef EFI_PROTO_SERVICE_BINDING_H
#define EFI_PROTO_SERVICE_BINDING_H

#include <efi/efi.h>

typedef struct EFI_SERVICE_BINDING_PROTOCOL EFI_SERVICE_BINDING_PROTOCOL;

/* *ChildHandle NULL: a new handle is made; otherwise the protocol is added to it. */
typedef EFI_STATUS(EFIAPI *EFI_SERVICE_BINDING_CREATE_CHILD)(IN EFI_SERVICE_BINDING_PROTOCOL *This,
							     IN OUT EFI_HANDLE *ChildHandle);
typedef EFI_STATUS(EFIAPI *EFI_SERVICE_BINDING_DESTROY_CHILD)(IN EFI_SERVICE_BINDING_PROTOCOL *This,
							      IN EFI_HANDLE ChildHandle);

struct EFI_SERVICE_BINDING_PROTOCOL {
	EFI_SERVICE_BINDING_CREATE_CHILD CreateChild;
	EFI_SERVICE_BINDING_DESTROY_CHILD DestroyChild;
};
_Static_assert(offsetof(EFI_SERVICE_BINDING_PROTOCOL, DestroyChild) == EFI_LAYOUT(8, 4), "DestroyChild");
_Static_assert(sizeof(EFI_SERVICE_BINDING_PROTOCOL) == EFI_LAYOUT(16, 8), "EFI_SERVICE_BINDING_PROTOCOL size");

#endif /* EFI_PROTO_SERVICE_BINDING_H */
