/*
 * Parsed DSN lists after the parse (redislock_dsn.c's): the per-process
 * cache of them (each distinct text, with each distinct TLS settings,
 * parsed once) and their canonical form, which is also how phpinfo() shows
 * them, passwords masked.
 */
#include "php_redislock.h"
#include "redislock_config.h"

#include <string.h>

/* Appends [s, s+len) percent-encoded: everything but RFC 3986's unreserved
 * characters, so the text parses back to the same bytes. */
static void pct_encode(smart_str *out, const char *s, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";

    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) s[i];
        if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            smart_str_appendc(out, (char) c);
        } else {
            smart_str_appendc(out, '%');
            smart_str_appendc(out, hex[c >> 4]);
            smart_str_appendc(out, hex[c & 15]);
        }
    }
}

/* Appends a rediss:// server's TLS settings as its query, where they are
 * not the defaults. */
static void format_tls(const redislock_server *srv, smart_str *out)
{
    const char *names[] = { "tls_ca", "tls_cert", "tls_key" };
    const char *values[] = { srv->tls_ca, srv->tls_cert, srv->tls_key };
    char sep = '?';

    if (!srv->tls) {
        return;
    }
    if (!srv->tls_verify) {
        smart_str_appends(out, "?tls_verify=0");
        sep = '&';
    }
    for (int i = 0; i < 3; i++) {
        if (values[i]) {
            smart_str_appendc(out, sep);
            smart_str_appends(out, names[i]);
            smart_str_appendc(out, '=');
            pct_encode(out, values[i], strlen(values[i]));
            sep = '&';
        }
    }
}

void redislock_servers_format(const redislock_servers *list, bool mask, smart_str *out)
{
    for (uint32_t i = 0; i < list->count; i++) {
        const redislock_server *srv = &list->server[i];

        if (i > 0) {
            smart_str_appendc(out, ',');
        }
        smart_str_appends(out, srv->path ? "unix://" : srv->tls ? "rediss://" : "redis://");
        if (srv->password) {
            if (srv->user) {
                pct_encode(out, srv->user, srv->user_len);
            }
            smart_str_appendc(out, ':');
            if (mask) {
                smart_str_appendl(out, "***", 3);
            } else {
                pct_encode(out, srv->password, srv->password_len);
            }
            smart_str_appendc(out, '@');
        }
        /* The label is the address and database in DSN syntax. */
        smart_str_appends(out, srv->label);
        format_tls(srv, out);
    }
}

/* Keeps a parsed list under key, up to REDISLOCK_PARSED_MAX of them. */
static void remember(const char *key, size_t len, redislock_servers *list)
{
    HashTable *parsed = REDISLOCK_G(parsed);

    if (!parsed) {
        parsed = REDISLOCK_G(parsed) = pemalloc(sizeof(HashTable), 1);
        zend_hash_init(parsed, 8, NULL, NULL, 1);
    }
    if (zend_hash_num_elements(parsed) < REDISLOCK_PARSED_MAX) {
        redislock_servers_addref(list);
        zend_hash_str_add_ptr(parsed, key, len, list);
    }
}

int redislock_servers_get(const zend_string *dsn, redislock_servers **out, char *err, size_t errlen)
{
    HashTable *parsed = REDISLOCK_G(parsed);
    redislock_servers *list;

    if (parsed && (list = zend_hash_str_find_ptr(parsed, ZSTR_VAL(dsn), ZSTR_LEN(dsn))) != NULL) {
        redislock_servers_addref(list);
        *out = list;
        return REDISLOCK_OK;
    }
    if (redislock_servers_parse(ZSTR_VAL(dsn), ZSTR_LEN(dsn), &list, err, errlen) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    remember(ZSTR_VAL(dsn), ZSTR_LEN(dsn), list);
    *out = list;
    return REDISLOCK_OK;
}

/* The cache key of a text parsed with TLS settings: the text, then each
 * setting, NUL-separated (no DSN contains a NUL byte). */
static void tls_key(smart_str *key, const zend_string *dsn, const redislock_tls_settings *tls)
{
    const char *fields[] = { tls->ca, tls->cert, tls->key };

    smart_str_append(key, dsn);
    for (int i = 0; i < 3; i++) {
        smart_str_appendc(key, '\0');
        if (fields[i]) {
            smart_str_appends(key, fields[i]);
        }
    }
    smart_str_appendc(key, '\0');
    smart_str_appendc(key, tls->verify ? '1' : '0');
    smart_str_0(key);
}

int redislock_servers_get_tls(const zend_string *dsn, const redislock_tls_settings *tls, redislock_servers **out,
                              char *err, size_t errlen)
{
    HashTable *parsed;
    redislock_servers *list;
    smart_str key = { 0 };

    *out = NULL;
    if (redislock_servers_get(dsn, out, err, errlen) != REDISLOCK_OK || !redislock_servers_tls(*out)) {
        return *out ? REDISLOCK_OK : REDISLOCK_ERR;
    }
    redislock_servers_release(*out);
    *out = NULL;
    tls_key(&key, dsn, tls);
    parsed = REDISLOCK_G(parsed);
    if (parsed && (list = zend_hash_str_find_ptr(parsed, ZSTR_VAL(key.s), ZSTR_LEN(key.s))) != NULL) {
        redislock_servers_addref(list);
    } else if (redislock_servers_parse_tls(ZSTR_VAL(dsn), ZSTR_LEN(dsn), tls, &list, err, errlen) == REDISLOCK_OK) {
        remember(ZSTR_VAL(key.s), ZSTR_LEN(key.s), list);
    } else {
        list = NULL;
    }
    smart_str_free(&key);
    *out = list;
    return list ? REDISLOCK_OK : REDISLOCK_ERR;
}

bool redislock_servers_tls(const redislock_servers *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        if (list->server[i].tls) {
            return true;
        }
    }
    return false;
}

void redislock_servers_forget_parsed(void)
{
    HashTable *parsed = REDISLOCK_G(parsed);
    redislock_servers *list;

    if (!parsed) {
        return;
    }
    ZEND_HASH_FOREACH_PTR(parsed, list) {
        redislock_servers_release(list);
    } ZEND_HASH_FOREACH_END();
    zend_hash_destroy(parsed);
    pefree(parsed, 1);
    REDISLOCK_G(parsed) = NULL;
}

