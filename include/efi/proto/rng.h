/*
 * EFI_RNG_PROTOCOL (UEFI 2.10 §37.5 "Random Number Generator Protocol"):
 * GetRNG() fills a buffer from the firmware's generator; a NULL algorithm
 * takes the firmware's default. EFI_NOT_READY: not enough entropy yet.
 */
#ifndef EFI_PROTO_RNG_H
#define EFI_PROTO_RNG_H

#include <efi/efi.h>

#define EFI_RNG_PROTOCOL_GUID \
	{ 0x3152bca5, 0xeade, 0x433d, { 0x86, 0x2e, 0xc0, 0x1c, 0xdc, 0x29, 0x1f, 0x44 } }

typedef struct EFI_RNG_PROTOCOL EFI_RNG_PROTOCOL;
typedef EFI_GUID EFI_RNG_ALGORITHM;

typedef EFI_STATUS(EFIAPI *EFI_RNG_GET_INFO)(IN EFI_RNG_PROTOCOL *This, IN OUT UINTN *RNGAlgorithmListSize,
					     OUT EFI_RNG_ALGORITHM *RNGAlgorithmList);
typedef EFI_STATUS(EFIAPI *EFI_RNG_GET_RNG)(IN EFI_RNG_PROTOCOL *This, IN EFI_RNG_ALGORITHM *RNGAlgorithm,
					    IN UINTN RNGValueLength, OUT UINT8 *RNGValue);

struct EFI_RNG_PROTOCOL {
	EFI_RNG_GET_INFO GetInfo;
	EFI_RNG_GET_RNG GetRNG;
};
_Static_assert(offsetof(EFI_RNG_PROTOCOL, GetRNG) == EFI_LAYOUT(8, 4), "EFI_RNG_PROTOCOL.GetRNG");
_Static_assert(sizeof(EFI_RNG_PROTOCOL) == EFI_LAYOUT(16, 8), "EFI_RNG_PROTOCOL size");

#endif /* EFI_PROTO_RNG_H */
