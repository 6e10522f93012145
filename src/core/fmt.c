/* A small vsnprintf: enough of C99 for diagnostics and generated text, with
 * the same behaviour in the UEFI build (which has no libc) and on the host. */
#include "fmt.h"
#include "log.h"

struct out {
	char *buf;
	size_t size;
	size_t len;
	EFI_STATUS status;   /* what %m names */
};

static void put_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		put_char(o, c);
}

struct spec {
	bool left, zero, plus, space, alt;
	int width, prec;
};

static void put_padded(struct out *o, const struct spec *s, const char *prefix,
		       const char *body, size_t body_len, size_t min_digits)
{
	size_t plen = strlen(prefix);
	size_t zeros = min_digits > body_len ? min_digits - body_len : 0;
	size_t total = plen + zeros + body_len;
	int pad = s->width > (int)total ? s->width - (int)total : 0;

	if (!s->left && !(s->zero && s->prec < 0))
		put_repeat(o, ' ', pad);
	for (size_t i = 0; i < plen; i++)
		put_char(o, prefix[i]);
	if (!s->left && s->zero && s->prec < 0)
		put_repeat(o, '0', pad);
	put_repeat(o, '0', (int)zeros);
	for (size_t i = 0; i < body_len; i++)
		put_char(o, body[i]);
	if (s->left)
		put_repeat(o, ' ', pad);
}

static void put_number(struct out *o, const struct spec *s, uint64_t v, bool neg,
		       unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	size_t n = 0;
	const char *prefix = "";

	while (v) {
		tmp[sizeof(tmp) - 1 - n++] = digits[v % base];
		v /= base;
	}
	if (n == 0 && s->prec != 0)
		tmp[sizeof(tmp) - 1 - n++] = '0';
	if (neg)
		prefix = "-";
	else if (s->plus)
		prefix = "+";
	else if (s->space)
		prefix = " ";
	if (s->alt && base == 16 && n && !(n == 1 && tmp[sizeof(tmp) - 1] == '0'))
		prefix = upper ? "0X" : "0x";
	if (s->alt && base == 8 && tmp[sizeof(tmp) - n] != '0')
		prefix = "0";
	put_padded(o, s, prefix, tmp + sizeof(tmp) - n, n, s->prec > 0 ? (size_t)s->prec : 0);
}

enum length { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LLONG, LEN_SIZE };

static const char *parse_length(const char *f, enum length *len)
{
	*len = LEN_INT;
	if (f[0] == 'h' && f[1] == 'h')
		return *len = LEN_CHAR, f + 2;
	if (f[0] == 'h')
		return *len = LEN_SHORT, f + 1;
	if (f[0] == 'l' && f[1] == 'l')
		return *len = LEN_LLONG, f + 2;
	if (f[0] == 'l')
		return *len = LEN_LONG, f + 1;
	if (f[0] == 'z' || f[0] == 'j' || f[0] == 't')
		return *len = LEN_SIZE, f + 1;
	return f;
}

static int64_t arg_signed(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_CHAR: return (signed char)va_arg(*ap, int);
	case LEN_SHORT: return (short)va_arg(*ap, int);
	case LEN_LONG: return va_arg(*ap, long);
	case LEN_LLONG: return va_arg(*ap, long long);
	case LEN_SIZE: return (int64_t)va_arg(*ap, size_t);
	default: return va_arg(*ap, int);
	}
}

static uint64_t arg_unsigned(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_CHAR: return (unsigned char)va_arg(*ap, unsigned);
	case LEN_SHORT: return (unsigned short)va_arg(*ap, unsigned);
	case LEN_LONG: return va_arg(*ap, unsigned long);
	case LEN_LLONG: return va_arg(*ap, unsigned long long);
	case LEN_SIZE: return va_arg(*ap, size_t);
	default: return va_arg(*ap, unsigned);
	}
}

static const char *parse_spec(const char *f, struct spec *s, va_list *ap)
{
	*s = (struct spec){ .prec = -1 };
	for (;; f++) {
		if (*f == '-') s->left = true;
		else if (*f == '0') s->zero = true;
		else if (*f == '+') s->plus = true;
		else if (*f == ' ') s->space = true;
		else if (*f == '#') s->alt = true;
		else break;
	}
	if (*f == '*') {
		s->width = va_arg(*ap, int);
		if (s->width < 0) {
			s->left = true;
			s->width = -s->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		s->width = s->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		s->prec = 0;
		if (*f == '*') {
			s->prec = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			s->prec = s->prec * 10 + (*f++ - '0');
	}
	return f;
}

static void put_string(struct out *o, const struct spec *s, const char *str)
{
	size_t n = 0;

	if (!str)
		str = "(null)";
	/* Precision first: "%.*s" may point at bytes that are not NUL-terminated. */
	while ((s->prec < 0 || n < (size_t)s->prec) && str[n])
		n++;
	struct spec t = *s;
	t.zero = false;
	put_padded(o, &t, "", str, n, 0);
}

size_t fmt_vsnprintf(char *buf, size_t size, const char *f, va_list ap)
{
	return fmt_vsnprintf_status(buf, size, EFI_SUCCESS, f, ap);
}

size_t fmt_vsnprintf_status(char *buf, size_t size, EFI_STATUS status, const char *f, va_list ap_in)
{
	struct out o = { buf, size, 0, status };
	va_list ap;

	va_copy(ap, ap_in);
	while (*f) {
		if (*f != '%') {
			put_char(&o, *f++);
			continue;
		}
		struct spec s;
		enum length len;
		f = parse_length(parse_spec(f + 1, &s, &ap), &len);
		switch (*f) {
		case 'd': case 'i': {
			int64_t v = arg_signed(&ap, len);
			put_number(&o, &s, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, false);
			break;
		}
		case 'u': put_number(&o, &s, arg_unsigned(&ap, len), false, 10, false); break;
		case 'x': put_number(&o, &s, arg_unsigned(&ap, len), false, 16, false); break;
		case 'X': put_number(&o, &s, arg_unsigned(&ap, len), false, 16, true); break;
		case 'o': put_number(&o, &s, arg_unsigned(&ap, len), false, 8, false); break;
		case 'p':
			s.alt = true;
			put_number(&o, &s, (uintptr_t)va_arg(ap, void *), false, 16, false);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			struct spec t = s;
			t.zero = false;
			put_padded(&o, &t, "", &c, 1, 0);
			break;
		}
		case 's': put_string(&o, &s, va_arg(ap, const char *)); break;
		case 'm': put_string(&o, &s, efi_status_str(o.status)); break;
		case '%': put_char(&o, '%'); break;
		case '\0': f--; break;
		default: put_char(&o, '%'); put_char(&o, *f); break;
		}
		f++;
	}
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

size_t fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

char *fmt_asprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = mem_alloc(n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	fmt_vsnprintf(s, n + 1, fmt, ap);
	va_end(ap);
	return s;
}
