/*
 * Commands in RESP, the protocol Redis speaks: arrays of bulk strings.
 */
#include "base/resp.h"

/* Digits of v in decimal. */
static inline size_t digits(size_t v)
{
    size_t n = 1;

    /* Almost every length here is under 100. */
    if (v < 10) {
        return 1;
    }
    if (v < 100) {
        return 2;
    }
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* Writes "<c><v>\r\n" at p (v in n digits) and returns the end. */
static inline char *put_header(char *p, char c, size_t v, size_t n)
{
    *p++ = c;
    if (n == 1) {
        *p++ = (char) ('0' + v);
    } else {
        for (size_t i = n; i-- > 0; v /= 10) {
            p[i] = (char) ('0' + v % 10);
        }
        p += n;
    }
    *p++ = '\r';
    *p++ = '\n';
    return p;
}

void redislock_resp_encode(smart_str *out, int argc, const char **argv, const size_t *lens)
{
    size_t n[32]; /* the digits of the first lengths, counted once */
    size_t total = 1 + digits((size_t) argc) + 2;
    char *p;

    for (int i = 0; i < argc; i++) {
        size_t d = digits(lens[i]);
        if (i < 32) {
            n[i] = d;
        }
        total += 1 + d + 2 + lens[i] + 2;
    }
    p = smart_str_extend(out, total);
    p = put_header(p, '*', (size_t) argc, digits((size_t) argc));
    for (int i = 0; i < argc; i++) {
        p = put_header(p, '$', lens[i], i < 32 ? n[i] : digits(lens[i]));
        memcpy(p, argv[i], lens[i]);
        p += lens[i];
        *p++ = '\r';
        *p++ = '\n';
    }
}
