/* Formatting side of logging; the line itself goes to the platform's log_write(). */
#include "log.h"
#include "fmt.h"

#define LOG_LINE_MAX 512

static void log_vprintf(enum log_level level, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];

	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	log_write(level, line);
}

void log_printf(enum log_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_vprintf(level, fmt, ap);
	va_end(ap);
}

static void log_vstatus(enum log_level level, EFI_STATUS status, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];

	fmt_vsnprintf_status(line, sizeof(line), status, fmt, ap);
	log_write(level, line);
}

void log_status(enum log_level level, EFI_STATUS status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vstatus(level, status, fmt, ap);
	va_end(ap);
}

EFI_STATUS log_error_status(EFI_STATUS status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vstatus(LOG_ERROR, status, fmt, ap);
	va_end(ap);
	return status;
}

const char *efi_status_str(EFI_STATUS s)
{
	static const char *const errors[] = {
		[1] = "EFI_LOAD_ERROR", [2] = "EFI_INVALID_PARAMETER", [3] = "EFI_UNSUPPORTED",
		[4] = "EFI_BAD_BUFFER_SIZE", [5] = "EFI_BUFFER_TOO_SMALL", [6] = "EFI_NOT_READY",
		[7] = "EFI_DEVICE_ERROR", [8] = "EFI_WRITE_PROTECTED", [9] = "EFI_OUT_OF_RESOURCES",
		[10] = "EFI_VOLUME_CORRUPTED", [11] = "EFI_VOLUME_FULL", [12] = "EFI_NO_MEDIA",
		[13] = "EFI_MEDIA_CHANGED", [14] = "EFI_NOT_FOUND", [15] = "EFI_ACCESS_DENIED",
		[16] = "EFI_NO_RESPONSE", [17] = "EFI_NO_MAPPING", [18] = "EFI_TIMEOUT",
		[19] = "EFI_NOT_STARTED", [20] = "EFI_ALREADY_STARTED", [21] = "EFI_ABORTED",
		[22] = "EFI_ICMP_ERROR", [23] = "EFI_TFTP_ERROR", [24] = "EFI_PROTOCOL_ERROR",
		[26] = "EFI_SECURITY_VIOLATION", [27] = "EFI_CRC_ERROR", [28] = "EFI_END_OF_MEDIA",
		[31] = "EFI_END_OF_FILE", [33] = "EFI_COMPROMISED_DATA", [35] = "EFI_HTTP_ERROR",
	};
	/* from 100: the network's (UEFI 2.10 §28.1.2), as a network boot meets them */
	static const char *const net[] = {
		"EFI_NETWORK_UNREACHABLE", "EFI_HOST_UNREACHABLE", "EFI_PROTOCOL_UNREACHABLE",
		"EFI_PORT_UNREACHABLE", "EFI_CONNECTION_FIN", "EFI_CONNECTION_RESET", "EFI_CONNECTION_REFUSED",
	};
	uint64_t code = s & ~EFI_ERROR_BIT;

	if (s == EFI_SUCCESS)
		return "EFI_SUCCESS";
	if (EFI_ERROR(s) && code < ARRAY_SIZE(errors) && errors[code])
		return errors[code];
	if (EFI_ERROR(s) && code - 100 < ARRAY_SIZE(net))
		return net[code - 100];
	return EFI_ERROR(s) ? "EFI error" : "EFI warning";
}
