/*
 * DSN lists: split into DSNs (each parsed by redislock_dsn.c), finished
 * into servers (TLS settings, label, pool identity), shared by reference;
 * the per-process cache of parsed lists (each distinct text, with each
 * distinct TLS settings, parsed once) and their canonical form, which is
 * also how phpinfo() shows them, passwords masked. Error messages never
 * repeat the DSN: it may carry a password.
 */
#include "php_redislock.h"
#include "redislock_config.h"
#include "redislock_dsn.h"

#include <string.h>

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); return REDISLOCK_ERR; } while (0)

/* Appends one field to a server's identity: its length, then its bytes,
 * so that no two different servers ever have the same identity. */
static void id_field(smart_str *id, const char *s, size_t len)
{
    uint32_t n = (uint32_t) len;

    smart_str_appendl_ex(id, (const char *) &n, sizeof(n), 1);
    if (len) {
        smart_str_appendl_ex(id, s, len, 1);
    }
}

/* The TLS settings a rediss:// server takes where its DSN says nothing. */
static void server_apply_tls(redislock_server *srv, const redislock_tls_settings *tls)
{
    if (!srv->tls) {
        srv->tls_verify = 0;
        return;
    }
    if (srv->tls_verify < 0) {
        srv->tls_verify = tls ? tls->verify : 1;
    }
    if (!tls) {
        return;
    }
    if (!srv->tls_ca && tls->ca && *tls->ca) {
        srv->tls_ca = pestrdup(tls->ca, 1);
    }
    if (!srv->tls_cert && tls->cert && *tls->cert) {
        srv->tls_cert = pestrdup(tls->cert, 1);
    }
    if (!srv->tls_key && tls->key && *tls->key) {
        srv->tls_key = pestrdup(tls->key, 1);
    }
}

/* Appends a C string field (NULL as empty) to an identity. */
static void id_cfield(smart_str *id, const char *s)
{
    id_field(id, s, s ? strlen(s) : 0);
}

/* Builds the printable label and the pool identity of a parsed server. The
 * identity is every field that decides what a connection is (address, db,
 * user, password, TLS settings), each whole and length-prefixed: two
 * servers share a connection only when all of them are equal byte for
 * byte. */
static void server_finish(redislock_server *srv)
{
    smart_str label = { 0 }, id = { 0 };
    char num[24];
    size_t nlen;

    if (srv->path) {
        smart_str_appends_ex(&label, srv->path, 1);
        if (srv->db) {
            smart_str_appends_ex(&label, "?db=", 1);
            smart_str_append_long_ex(&label, srv->db, 1);
        }
    } else {
        bool v6 = strchr(srv->host, ':') != NULL;
        if (v6) smart_str_appendc_ex(&label, '[', 1);
        smart_str_appends_ex(&label, srv->host, 1);
        if (v6) smart_str_appendc_ex(&label, ']', 1);
        smart_str_appendc_ex(&label, ':', 1);
        smart_str_append_long_ex(&label, srv->port, 1);
        if (srv->db) {
            smart_str_appendc_ex(&label, '/', 1);
            smart_str_append_long_ex(&label, srv->db, 1);
        }
    }
    smart_str_0(&label);
    srv->label = pestrndup(ZSTR_VAL(label.s), ZSTR_LEN(label.s), 1);
    smart_str_free_ex(&label, 1);

    smart_str_appendc_ex(&id, srv->path ? 'u' : 't', 1);
    if (srv->path) {
        id_field(&id, srv->path, strlen(srv->path));
    } else {
        id_field(&id, srv->host, strlen(srv->host));
    }
    nlen = (size_t) snprintf(num, sizeof(num), "%d/" ZEND_LONG_FMT, srv->port, srv->db);
    id_field(&id, num, nlen);
    id_field(&id, srv->user, srv->user_len);
    id_field(&id, srv->password, srv->password_len);
    if (srv->tls) {
        smart_str_appendc_ex(&id, srv->tls_verify ? 'V' : 'v', 1);
        id_cfield(&id, srv->tls_ca);
        id_cfield(&id, srv->tls_cert);
        id_cfield(&id, srv->tls_key);
    }
    srv->id_len = ZSTR_LEN(id.s);
    srv->id = pemalloc(srv->id_len, 1);
    memcpy(srv->id, ZSTR_VAL(id.s), srv->id_len);
    ZEND_SECURE_ZERO(ZSTR_VAL(id.s), ZSTR_LEN(id.s));
    smart_str_free_ex(&id, 1);
}

static void server_dtor(redislock_server *srv)
{
    if (srv->host) pefree(srv->host, 1);
    if (srv->path) pefree(srv->path, 1);
    if (srv->user) pefree(srv->user, 1);
    if (srv->password) {
        ZEND_SECURE_ZERO(srv->password, srv->password_len);
        pefree(srv->password, 1);
    }
    if (srv->label) pefree(srv->label, 1);
    if (srv->tls_ca) pefree(srv->tls_ca, 1);
    if (srv->tls_cert) pefree(srv->tls_cert, 1);
    if (srv->tls_key) pefree(srv->tls_key, 1);
    if (srv->id) {
        ZEND_SECURE_ZERO(srv->id, srv->id_len);
        pefree(srv->id, 1);
    }
}

/* Two entries name the same server when they reach the same address. */
static bool same_address(const redislock_server *a, const redislock_server *b)
{
    if (a->path || b->path) {
        return a->path && b->path && strcmp(a->path, b->path) == 0;
    }
    return a->port == b->port && strcasecmp(a->host, b->host) == 0;
}

int redislock_servers_parse_tls(const char *dsn, size_t len, const redislock_tls_settings *tls, redislock_servers **out,
                         char *err, size_t errlen)
{
    redislock_servers *list;
    const char *p = dsn, *end = dsn + len;
    uint32_t count = 1;

    for (size_t i = 0; i < len; i++) {
        if (dsn[i] == ',') {
            count++;
        }
        if (dsn[i] == '\0') {
            ERR("the server list contains a NUL byte");
        }
    }
    if (count > REDISLOCK_MAX_SERVERS) {
        ERR("at most %d servers are supported", REDISLOCK_MAX_SERVERS);
    }
    list = pecalloc(1, sizeof(*list) + (count - 1) * sizeof(redislock_server), 1);
    list->refcount = 1;

    while (list->count < count) {
        const char *comma = memchr(p, ',', (size_t) (end - p));
        const char *s = p, *e = comma ? comma : end;
        redislock_server *srv = &list->server[list->count];
        char detail[160];

        while (s < e && isspace((unsigned char) *s)) s++;
        while (e > s && isspace((unsigned char) e[-1])) e--;
        list->count++;
        if (s == e) {
            snprintf(err, errlen, "server %u: the DSN is empty", list->count);
            goto fail;
        }
        if (redislock_dsn_parse_one(srv, s, (size_t) (e - s), detail, sizeof(detail)) != REDISLOCK_OK) {
            snprintf(err, errlen, "server %u: %s", list->count, detail);
            goto fail;
        }
        server_apply_tls(srv, tls);
        server_finish(srv);
        for (uint32_t j = 0; j + 1 < list->count; j++) {
            if (same_address(&list->server[j], srv)) {
                snprintf(err, errlen, "servers %u and %u are the same server (%s)", j + 1, list->count, srv->label);
                goto fail;
            }
        }
        p = comma ? comma + 1 : end;
    }
    *out = list;
    return REDISLOCK_OK;

fail:
    redislock_servers_release(list);
    return REDISLOCK_ERR;
}

int redislock_servers_parse(const char *dsn, size_t len, redislock_servers **out, char *err, size_t errlen)
{
    return redislock_servers_parse_tls(dsn, len, NULL, out, err, errlen);
}

void redislock_servers_addref(redislock_servers *list)
{
    list->refcount++;
}

void redislock_servers_release(redislock_servers *list)
{
    if (!list || --list->refcount > 0) {
        return;
    }
    for (uint32_t i = 0; i < list->count; i++) {
        server_dtor(&list->server[i]);
    }
    pefree(list, 1);
}

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

