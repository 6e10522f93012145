/*
 * EFI_TIMER_ARCH_PROTOCOL (UEFI PI 1.7, Vol. 2 §12.10, "Timer Architectural
 * Protocol"): the firmware's periodic tick behind SetTimer() events.
 * SetTimerPeriod(0) stops the tick; GetTimerPeriod() reports the period in
 * 100 ns units (0 = stopped).
 */
#ifndef EFI_PROTO_TIMER_ARCH_H
#define EFI_PROTO_TIMER_ARCH_H

#include <efi/efi.h>

#define EFI_TIMER_ARCH_PROTOCOL_GUID \
	{ 0x26baccb3, 0x6f42, 0x11d4, { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } }

typedef struct EFI_TIMER_ARCH_PROTOCOL EFI_TIMER_ARCH_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_TIMER_REGISTER_HANDLER)(IN EFI_TIMER_ARCH_PROTOCOL *This, IN VOID *NotifyFunction);
typedef EFI_STATUS(EFIAPI *EFI_TIMER_SET_TIMER_PERIOD)(IN EFI_TIMER_ARCH_PROTOCOL *This, IN UINT64 TimerPeriod);
typedef EFI_STATUS(EFIAPI *EFI_TIMER_GET_TIMER_PERIOD)(IN EFI_TIMER_ARCH_PROTOCOL *This, OUT UINT64 *TimerPeriod);
typedef EFI_STATUS(EFIAPI *EFI_TIMER_GENERATE_SOFT_INTERRUPT)(IN EFI_TIMER_ARCH_PROTOCOL *This);

struct EFI_TIMER_ARCH_PROTOCOL {
	EFI_TIMER_REGISTER_HANDLER RegisterHandler;
	EFI_TIMER_SET_TIMER_PERIOD SetTimerPeriod;
	EFI_TIMER_GET_TIMER_PERIOD GetTimerPeriod;
	EFI_TIMER_GENERATE_SOFT_INTERRUPT GenerateSoftInterrupt;
};
_Static_assert(offsetof(EFI_TIMER_ARCH_PROTOCOL, SetTimerPeriod) == EFI_LAYOUT(8, 4), "SetTimerPeriod");
_Static_assert(offsetof(EFI_TIMER_ARCH_PROTOCOL, GetTimerPeriod) == EFI_LAYOUT(16, 8), "GetTimerPeriod");
_Static_assert(sizeof(EFI_TIMER_ARCH_PROTOCOL) == EFI_LAYOUT(32, 16), "EFI_TIMER_ARCH_PROTOCOL size");

#endif /* EFI_PROTO_TIMER_ARCH_H */
