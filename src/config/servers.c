/*
 * DSN lists: split into DSNs (each parsed by config/dsn.c), finished
 * into servers (TLS settings, label, pool identity), shared by reference;
 * the per-process cache of parsed lists (each distinct text, with each
 * distinct TLS settings, parsed once) and their canonical form, which is
 * also how phpinfo() shows them, passwords masked. Error messages never
 * repeat the DSN: it may carry a password.
 */
#include "php_redislock.h"
#include "config/servers.h"
#include "config/dsn.h"
#include "config/topology.h"

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

    if (srv->kind == REDISLOCK_SERVER_SENTINEL) {
        smart_str_appends_ex(&label, "Sentinel master ", 1);
        smart_str_appends_ex(&label, srv->topo->master, 1);
    } else if (srv->kind == REDISLOCK_SERVER_CLUSTER) {
        smart_str_appends_ex(&label, "cluster of ", 1);
        smart_str_appends_ex(&label, srv->topo->seeds[0].label, 1);
    } else if (srv->path) {
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

/* Frees a persistent field (NULL: nothing), its first secret_len bytes
 * zeroed first: those of a password, or of an identity that holds one. */
static void free_field(char *s, size_t secret_len)
{
    if (s) {
        ZEND_SECURE_ZERO(s, secret_len);
        pefree(s, 1);
    }
}

/* Frees what a parsed server holds (not the server itself). */
static void server_dtor(redislock_server *srv)
{
    char *plain[] = { srv->host, srv->path, srv->user, srv->label, srv->tls_ca, srv->tls_cert, srv->tls_key };

    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
        free_field(plain[i], 0);
    }
    free_field(srv->password, srv->password_len);
    free_field(srv->id, srv->id_len);
    if (srv->topo) {
        redislock_servers_topology_free(srv->topo);
    }
}

/* Copies a C string (NULL stays NULL), persistent. */
static char *dup_or_null(const char *s)
{
    return s ? pestrdup(s, 1) : NULL;
}

/* Gives seed the credentials, database and TLS settings of tmpl. */
static void inherit(redislock_server *seed, const redislock_server *tmpl, const char *password, size_t password_len,
                    const char *user, size_t user_len)
{
    seed->user = user ? pestrndup(user, user_len, 1) : NULL;
    seed->user_len = user_len;
    seed->password = password ? pestrndup(password, password_len, 1) : NULL;
    seed->password_len = password_len;
    seed->tls = tmpl->tls;
    seed->tls_verify = tmpl->tls_verify;
    seed->tls_ca = dup_or_null(tmpl->tls_ca);
    seed->tls_cert = dup_or_null(tmpl->tls_cert);
    seed->tls_key = dup_or_null(tmpl->tls_key);
}

redislock_server *redislock_servers_node(const redislock_server *tmpl, const char *host, size_t hlen, int port)
{
    redislock_server *node = pecalloc(1, sizeof(*node), 1);

    node->host = pestrndup(host, hlen, 1);
    node->port = port;
    node->db = tmpl->db;
    inherit(node, tmpl, tmpl->password, tmpl->password_len, tmpl->user, tmpl->user_len);
    server_finish(node);
    return node;
}

void redislock_servers_node_free(redislock_server *srv)
{
    if (srv) {
        server_dtor(srv);
        pefree(srv, 1);
    }
}

void redislock_servers_topology_finish(redislock_server *srv)
{
    redislock_topology *topo = srv->topo;

    for (uint32_t i = 0; i < topo->nseeds; i++) {
        redislock_server *seed = &topo->seeds[i];
        if (srv->kind == REDISLOCK_SERVER_SENTINEL) {
            /* The Sentinels take their own password, no user, no database. */
            inherit(seed, srv, topo->sentinel_password, topo->sentinel_password_len, NULL, 0);
        } else {
            inherit(seed, srv, srv->password, srv->password_len, srv->user, srv->user_len);
        }
        server_finish(seed);
    }
}

void redislock_servers_topology_free(redislock_topology *topo)
{
    for (uint32_t i = 0; i < topo->nseeds; i++) {
        server_dtor(&topo->seeds[i]);
    }
    free_field(topo->master, 0);
    free_field(topo->sentinel_password, topo->sentinel_password_len);
    redislock_servers_node_free(topo->node);
    redislock_servers_node_free(topo->pin);
    for (uint32_t i = 0; i < topo->nnodes; i++) {
        redislock_servers_node_free(topo->nodes[i]);
    }
    if (topo->nodes) pefree(topo->nodes, 1);
    if (topo->slots) pefree(topo->slots, 1);
    pefree(topo, 1);
}

/* Two entries name the same server when they reach the same address (a
 * Sentinel or Cluster entry: the same first seed, and the same master). */
static bool same_address(const redislock_server *a, const redislock_server *b)
{
    if (a->kind != b->kind) {
        return false;
    }
    if (a->kind == REDISLOCK_SERVER_SENTINEL && strcmp(a->topo->master, b->topo->master) != 0) {
        return false;
    }
    if (a->path || b->path) {
        return a->path && b->path && strcmp(a->path, b->path) == 0;
    }
    return a->port == b->port && strcasecmp(a->host, b->host) == 0;
}

/* Whether [p, end) starts (after white space) with a scheme: "name://". */
static bool starts_scheme(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char) *p)) p++;
    if (p == end || !isalpha((unsigned char) *p)) {
        return false;
    }
    while (p < end && (isalnum((unsigned char) *p) || *p == '+' || *p == '-' || *p == '.')) p++;
    return end - p >= 3 && memcmp(p, "://", 3) == 0;
}

/* The end of the DSN that starts at p: the next comma, or for a DSN that
 * lists several hosts (Sentinel, Cluster) the next comma a scheme follows. */
static const char *dsn_end(const char *p, const char *end)
{
    const char *s = p;
    bool multi;

    while (s < end && isspace((unsigned char) *s)) s++;
    multi = redislock_dsn_multi(s, (size_t) (end - s));
    for (;;) {
        const char *comma = memchr(p, ',', (size_t) (end - p));
        if (!comma) {
            return end;
        }
        if (!multi || starts_scheme(comma + 1, end)) {
            return comma;
        }
        p = comma + 1;
    }
}

int redislock_servers_parse_tls(const char *dsn, size_t len, const redislock_tls_settings *tls, redislock_servers **out,
                         char *err, size_t errlen)
{
    redislock_servers *list;
    const char *p = dsn, *end = dsn + len;
    uint32_t count = 0;

    if (memchr(dsn, '\0', len)) {
        ERR("the server list contains a NUL byte");
    }
    for (const char *q = dsn; q <= end; q = dsn_end(q, end) + 1) {
        count++;
    }
    if (count > REDISLOCK_MAX_SERVERS) {
        ERR("at most %d servers are supported", REDISLOCK_MAX_SERVERS);
    }
    list = pecalloc(1, sizeof(*list) + (count - 1) * sizeof(redislock_server), 1);
    list->refcount = 1;

    while (list->count < count) {
        const char *stop = dsn_end(p, end), *s = p, *e = stop;
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
        if (srv->topo) {
            redislock_servers_topology_finish(srv);
        }
        server_finish(srv);
        for (uint32_t j = 0; j + 1 < list->count; j++) {
            if (same_address(&list->server[j], srv)) {
                snprintf(err, errlen, "servers %u and %u are the same server (%s)", j + 1, list->count, srv->label);
                goto fail;
            }
        }
        p = stop + 1;
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

/* Appends a password, or *** when masking. */
static void format_secret(smart_str *out, const char *s, size_t len, bool mask)
{
    if (mask) {
        smart_str_appendl(out, "***", 3);
    } else {
        pct_encode(out, s, len);
    }
}

/* Appends a Sentinel or Cluster entry: its seeds, database and query. */
static void format_multi(const redislock_server *srv, bool mask, smart_str *out)
{
    const redislock_topology *topo = srv->topo;

    for (uint32_t k = 0; k < topo->nseeds; k++) {
        if (k > 0) {
            smart_str_appendc(out, ',');
        }
        smart_str_appends(out, topo->seeds[k].label);
    }
    if (srv->db) {
        smart_str_appendc(out, '/');
        smart_str_append_long(out, srv->db);
    }
    if (srv->kind == REDISLOCK_SERVER_SENTINEL) {
        smart_str_appends(out, "?master=");
        pct_encode(out, topo->master, strlen(topo->master));
        if (topo->sentinel_password) {
            smart_str_appends(out, "&sentinel_password=");
            format_secret(out, topo->sentinel_password, topo->sentinel_password_len, mask);
        }
    }
}

void redislock_servers_format(const redislock_servers *list, bool mask, smart_str *out)
{
    static const char *schemes[][2] = {
        { "redis://", "rediss://" }, { "redis-sentinel://", "rediss-sentinel://" },
        { "redis-cluster://", "rediss-cluster://" },
    };

    for (uint32_t i = 0; i < list->count; i++) {
        const redislock_server *srv = &list->server[i];
        size_t mark;

        if (i > 0) {
            smart_str_appendc(out, ',');
        }
        smart_str_appends(out, srv->path ? "unix://" : schemes[srv->kind][srv->tls]);
        if (srv->password) {
            if (srv->user) {
                pct_encode(out, srv->user, srv->user_len);
            }
            smart_str_appendc(out, ':');
            format_secret(out, srv->password, srv->password_len, mask);
            smart_str_appendc(out, '@');
        }
        if (srv->kind == REDISLOCK_SERVER_DIRECT) {
            /* The label is the address and database in DSN syntax. */
            smart_str_appends(out, srv->label);
        } else {
            format_multi(srv, mask, out);
        }
        mark = out->s ? ZSTR_LEN(out->s) : 0;
        format_tls(srv, out);
        if (srv->kind == REDISLOCK_SERVER_SENTINEL && out->s && ZSTR_LEN(out->s) > mark) {
            ZSTR_VAL(out->s)[mark] = '&'; /* the query began with master= */
        }
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

