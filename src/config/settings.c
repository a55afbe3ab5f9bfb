/*
 * The settings' table, made from the list (config/settings.h), and the
 * checks of their values: a value from the constructor's $options, the
 * text of an INI entry. Every check reports what is wrong as a status and a
 * message ("must be ..."): the PHP binding names the option or the entry
 * and raises.
 */
#include "php.h"
#include "config/settings.h"

#include <ctype.h>
#include <string.h>

#define TABLE_ENTRY(n, t, lo, hi, def) REDISLOCK_SETTING_ENTRY(redislock_settings, n, t, lo, hi)

const redislock_setting redislock_settings_table[] = {
    REDISLOCK_SETTINGS(TABLE_ENTRY)
    { NULL, 0, REDISLOCK_SETTING_BOOL, NULL, 0, 0, 0 },
};


int redislock_settings_range_error(const redislock_setting *opt, char *err, size_t errlen)
{
    snprintf(err, errlen, "must be between " ZEND_LONG_FMT " and " ZEND_LONG_FMT, opt->min, opt->max);
    return REDISLOCK_ERR;
}

int redislock_settings_check_path(const char *s, size_t len, char *err, size_t errlen)
{
    if (memchr(s, '\0', len)) {
        snprintf(err, errlen, "must not contain any null bytes");
        return REDISLOCK_ERR;
    }
    return REDISLOCK_OK;
}

/* The number of decimal digits of v (> 0). */
static size_t digits_of(zend_long v)
{
    size_t n = 1;

    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

int redislock_settings_parse_long(const char *s, size_t len, zend_long min, zend_long max, bool strict,
                                  zend_long *out, char *err, size_t errlen)
{
    size_t i = 0;
    zend_long v = 0;

    if (!strict) {
        while (len > 0 && isspace((unsigned char) s[len - 1])) len--;
        while (i < len && isspace((unsigned char) s[i])) i++;
    }
    if (i == len || (strict && len > digits_of(max))) {
        goto bad;
    }
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9' || v > (max - (s[i] - '0')) / 10) {
            goto bad;
        }
        v = v * 10 + (s[i] - '0');
    }
    if (v < min) {
        goto bad;
    }
    *out = v;
    return REDISLOCK_OK;

bad:
    snprintf(err, errlen, "must be an integer between " ZEND_LONG_FMT " and " ZEND_LONG_FMT, min, max);
    return REDISLOCK_ERR;
}

int redislock_settings_parse_bool(const char *s, size_t len, bool *out, char *err, size_t errlen)
{
    static const char *const yes[] = { "1", "on", "yes", "true" }, *const no[] = { "", "0", "off", "no", "false" };
    const size_t nyes = sizeof(yes) / sizeof(yes[0]), nno = sizeof(no) / sizeof(no[0]);

    while (len > 0 && isspace((unsigned char) s[len - 1])) len--;
    while (len > 0 && isspace((unsigned char) *s)) s++, len--;
    for (size_t i = 0; i < nyes + nno; i++) {
        const char *word = i < nyes ? yes[i] : no[i - nyes];
        if (strlen(word) == len && zend_binary_strncasecmp(s, len, word, len, len) == 0) {
            *out = i < nyes;
            return REDISLOCK_OK;
        }
    }
    snprintf(err, errlen, "must be on or off (1/0, yes/no, true/false)");
    return REDISLOCK_ERR;
}

void redislock_settings_tls(const redislock_settings *s, redislock_tls_settings *tls)
{
    tls->ca = s->tls_ca ? ZSTR_VAL(s->tls_ca) : NULL;
    tls->cert = s->tls_cert ? ZSTR_VAL(s->tls_cert) : NULL;
    tls->key = s->tls_key ? ZSTR_VAL(s->tls_key) : NULL;
    tls->verify = s->tls_verify;
}

void redislock_settings_dtor(redislock_settings *s)
{
    redislock_servers_release(s->servers);
    s->servers = NULL;
}
