/*
 * DSN lists: the one grammar of redislock.servers and the servers option,
 * parsed into redislock_servers (persistent, shared by reference; the
 * cache of parsed lists and their canonical form are config/servers.c's).
 * Error messages describe what
 * is wrong and where, but never repeat the DSN: it may carry a password.
 */
#include "php_redislock.h"
#include "config/servers.h"
#include "config/dsn.h"
#include "config/topology.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); return REDISLOCK_ERR; } while (0)

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Percent-decodes [s, s+len) into a new NUL-terminated malloc'd buffer.
 * Returns its length, or -1 on a malformed escape. */
static ssize_t pct_decode(const char *s, size_t len, char **out)
{
    char *buf = pemalloc(len + 1, 1);
    size_t i, n = 0;

    for (i = 0; i < len; i++) {
        if (s[i] == '%') {
            int hi, lo;
            if (i + 2 >= len || (hi = hexval(s[i + 1])) < 0 || (lo = hexval(s[i + 2])) < 0) {
                pefree(buf, 1);
                return -1;
            }
            buf[n++] = (char) (hi * 16 + lo);
            i += 2;
        } else {
            buf[n++] = s[i];
        }
    }
    buf[n] = '\0';
    *out = buf;
    return (ssize_t) n;
}

/* Parses a decimal number in [min, max] from [s, s+len). */
static int parse_number(const char *s, size_t len, zend_long min, zend_long max, zend_long *out)
{
    zend_long v = 0;
    size_t i;

    if (len == 0 || len > 10) {
        return REDISLOCK_ERR;
    }
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return REDISLOCK_ERR;
        }
        v = v * 10 + (s[i] - '0');
    }
    if (v < min || v > max) {
        return REDISLOCK_ERR;
    }
    *out = v;
    return REDISLOCK_OK;
}

/* Whether [s, s+len) is exactly "${NAME}", NAME an environment variable's
 * name ([A-Za-z_][A-Za-z0-9_]*, at most 64 bytes): the name into name. */
static bool env_reference(const char *s, size_t len, char *name, size_t namelen)
{
    if (len < 4 || len - 3 > 64 || len - 3 >= namelen || s[0] != '$' || s[1] != '{' || s[len - 1] != '}'
        || (s[2] >= '0' && s[2] <= '9')) {
        return false;
    }
    for (size_t i = 2; i < len - 1; i++) {
        if (!isalnum((unsigned char) s[i]) && s[i] != '_') {
            return false;
        }
    }
    memcpy(name, s + 2, len - 3);
    name[len - 3] = '\0';
    return true;
}

/* Refuses a credential (what: "user name", "password", ...) in [s, s+len),
 * still percent-encoded, that an environment variable left wrong: empty
 * where one was given (php.ini puts an empty string for a ${NAME} whose
 * variable is not set, and the name is gone by then), or "${NAME}" as
 * written (only php.ini expands it). Names the variable, never its value.
 * A credential that really is "${...}" is given with its '$' as %24. */
static int check_credential(const char *what, const char *s, size_t len, bool may_be_empty, char *err, size_t errlen)
{
    char name[65];

    if (len == 0 && !may_be_empty) {
        ERR("the %s is empty (php.ini puts \"\" for a ${NAME} whose variable is not set)", what);
    }
    if (env_reference(s, len, name, sizeof(name))) {
        if (!getenv(name)) {
            ERR("the %s is ${%s}, and the environment variable %s is not set", what, name, name);
        }
        ERR("the %s is ${%s} unexpanded: only php.ini expands it (in PHP, use getenv())", what, name);
    }
    return REDISLOCK_OK;
}

/* Splits "user:password" (still percent-encoded) into the server's fields. */
static int parse_userinfo(redislock_server *srv, const char *s, size_t len, char *err, size_t errlen)
{
    const char *colon = memchr(s, ':', len);
    size_t ulen = colon ? (size_t) (colon - s) : len;
    ssize_t n;

    if (check_credential("user name", s, ulen, true, err, errlen) != REDISLOCK_OK
        || (colon && check_credential("password", colon + 1, len - ulen - 1, false, err, errlen) != REDISLOCK_OK)) {
        return REDISLOCK_ERR;
    }
    if (ulen > 0) {
        if ((n = pct_decode(s, ulen, &srv->user)) < 0) {
            ERR("malformed percent-escape in the user name");
        }
        srv->user_len = (size_t) n;
    }
    if (colon) {
        if ((n = pct_decode(colon + 1, len - ulen - 1, &srv->password)) < 0) {
            ERR("malformed percent-escape in the password");
        }
        srv->password_len = (size_t) n;
    }
    if (srv->user && !srv->password) {
        ERR("a user name needs a password (redis://user:password@host)");
    }
    return REDISLOCK_OK;
}

/* Parses "host[:port]" of a DSN; the port is defport when not given. */
static int parse_hostport(redislock_server *srv, const char *s, size_t len, int defport, char *err, size_t errlen)
{
    const char *host = s, *p;
    size_t hlen;
    zend_long port = defport;

    if (len > 0 && s[0] == '[') {
        const char *close = memchr(s, ']', len);
        if (!close) {
            ERR("unterminated [ in the host");
        }
        host = s + 1;
        hlen = (size_t) (close - host);
        p = close + 1;
        if (p < s + len && *p != ':') {
            ERR("unexpected character after ]");
        }
    } else {
        p = memchr(s, ':', len);
        if (!p) {
            p = s + len;
        }
        hlen = (size_t) (p - s);
    }
    if (hlen == 0) {
        ERR("the host is empty");
    }
    for (size_t i = 0; i < hlen; i++) {
        unsigned char c = (unsigned char) host[i];
        if (!(isalnum(c) || c == '.' || c == '-' || c == '_' || (s[0] == '[' && c == ':'))) {
            ERR("the host contains an invalid character");
        }
    }
    if (p < s + len) {
        if (parse_number(p + 1, (size_t) (s + len - p - 1), 1, 65535, &port) != REDISLOCK_OK) {
            ERR("the port must be a number between 1 and 65535");
        }
    }
    srv->host = pestrndup(host, hlen, 1);
    srv->port = (int) port;
    return REDISLOCK_OK;
}

/* Stores the percent-decoded value [v, v+len) of query parameter name in
 * *field, which must not be set yet. */
static int query_string(char **field, const char *name, const char *v, size_t len, char *err, size_t errlen)
{
    ssize_t n;

    if (*field) {
        ERR("the query parameter %s is given twice", name);
    }
    if (len == 0) {
        ERR("the query parameter %s is empty", name);
    }
    if ((n = pct_decode(v, len, field)) < 0) {
        ERR("malformed percent-escape in the query parameter %s", name);
    }
    if (strlen(*field) != (size_t) n) {
        ERR("the query parameter %s contains a NUL byte", name);
    }
    return REDISLOCK_OK;
}

/* Applies one query parameter key=value ([k, k+klen), [v, v+vlen)) of a
 * rediss:// DSN. */
static int query_param(redislock_server *srv, const char *k, size_t klen, const char *v, size_t vlen, char *err,
                       size_t errlen)
{
#define KEY_IS(lit) (klen == sizeof(lit) - 1 && memcmp(k, lit, klen) == 0)
    if (srv->kind == REDISLOCK_SERVER_SENTINEL && KEY_IS("master")) {
        return query_string(&srv->topo->master, "master", v, vlen, err, errlen);
    }
    if (srv->kind == REDISLOCK_SERVER_SENTINEL && KEY_IS("sentinel_password")) {
        ssize_t n;
        if (srv->topo->sentinel_password) {
            ERR("the query parameter sentinel_password is given twice");
        }
        if (check_credential("query parameter sentinel_password", v, vlen, false, err, errlen) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        if ((n = pct_decode(v, vlen, &srv->topo->sentinel_password)) < 0) {
            ERR("malformed percent-escape in the query parameter sentinel_password");
        }
        srv->topo->sentinel_password_len = (size_t) n;
        return REDISLOCK_OK;
    }
    if (!srv->tls) {
        ERR("unknown query parameter (redis-sentinel:// takes master and sentinel_password)");
    }
    if (KEY_IS("tls_verify")) {
        if (srv->tls_verify >= 0 || vlen != 1 || (v[0] != '0' && v[0] != '1')) {
            ERR("tls_verify must be given once, as 0 or 1");
        }
        srv->tls_verify = (signed char) (v[0] - '0');
        return REDISLOCK_OK;
    }
    if (KEY_IS("tls_ca")) {
        return query_string(&srv->tls_ca, "tls_ca", v, vlen, err, errlen);
    }
    if (KEY_IS("tls_cert")) {
        return query_string(&srv->tls_cert, "tls_cert", v, vlen, err, errlen);
    }
    if (KEY_IS("tls_key")) {
        return query_string(&srv->tls_key, "tls_key", v, vlen, err, errlen);
    }
#undef KEY_IS
    ERR("unknown query parameter (%s takes %stls_verify, tls_ca, tls_cert, tls_key)",
        srv->kind == REDISLOCK_SERVER_SENTINEL ? "rediss-sentinel://" : srv->kind ? "rediss-cluster://" : "rediss://",
        srv->kind == REDISLOCK_SERVER_SENTINEL ? "master, sentinel_password, " : "");
}

/* Parses the query [q, end) of a DSN: key=value pairs separated by &. */
static int parse_query(redislock_server *srv, const char *q, const char *end, char *err, size_t errlen)
{
    while (q < end) {
        const char *amp = memchr(q, '&', (size_t) (end - q)), *e = amp ? amp : end;
        const char *eq = memchr(q, '=', (size_t) (e - q));

        if (!eq) {
            ERR("a query parameter needs a value (name=value)");
        }
        if (query_param(srv, q, (size_t) (eq - q), eq + 1, (size_t) (e - eq - 1), err, errlen) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        q = amp ? amp + 1 : end;
    }
    return REDISLOCK_OK;
}

/* Reads the userinfo of [*s, end) (up to the last '@' before the first
 * '/'), if any, and moves *s past it; *slash: where the hosts end (the '/'
 * before the database, or end). */
static int parse_authority(redislock_server *srv, const char **s, const char *end, const char **slash, char *err,
                           size_t errlen)
{
    const char *at = NULL;

    *slash = memchr(*s, '/', (size_t) (end - *s));
    if (!*slash) {
        *slash = end;
    }
    for (const char *q = *s; q < *slash; q++) {
        if (*q == '@') {
            at = q;
        }
    }
    if (at) {
        if (parse_userinfo(srv, *s, (size_t) (at - *s), err, errlen) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        *s = at + 1;
    }
    return REDISLOCK_OK;
}

/* Parses what follows "redis://" or "rediss://" in [s, end):
 * [userinfo@]host[:port][/db], and for rediss:// a query. */
static int parse_redis(redislock_server *srv, const char *s, const char *end, char *err, size_t errlen)
{
    const char *query = memchr(s, '?', (size_t) (end - s)), *slash;

    if (memchr(s, '#', (size_t) (end - s))) {
        ERR("a DSN takes no fragment");
    }
    if (query && !srv->tls) {
        ERR("redis:// DSNs take no query");
    }
    if (query) {
        if (parse_query(srv, query + 1, end, err, errlen) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        end = query;
    }
    if (parse_authority(srv, &s, end, &slash, err, errlen) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (parse_hostport(srv, s, (size_t) (slash - s), REDISLOCK_DEFAULT_PORT, err, errlen) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (slash + 1 < end
        && parse_number(slash + 1, (size_t) (end - slash - 1), 0, INT_MAX, &srv->db) != REDISLOCK_OK) {
        ERR("the database must be a non-negative number");
    }
    return REDISLOCK_OK;
}

/* Checks a socket path [p, q) for what connect() or the canonical form
 * could not take. */
static int check_socket_path(const char *p, const char *q, char *err, size_t errlen)
{
    if (q - p < 2) {
        ERR("the socket path is empty");
    }
    if ((size_t) (q - p) >= sizeof(((struct sockaddr_un *) 0)->sun_path)) {
        ERR("the socket path is longer than the system allows (%zu bytes)",
            sizeof(((struct sockaddr_un *) 0)->sun_path) - 1);
    }
    if (memchr(p, '\0', (size_t) (q - p))) {
        ERR("the socket path contains a NUL byte");
    }
    if (isspace((unsigned char) q[-1])) {
        /* It could not be written back: a DSN's ends are trimmed. */
        ERR("the socket path ends in white space");
    }
    return REDISLOCK_OK;
}

/* Parses what follows "unix://" in [p, end): [userinfo@]/path[?db=N]. */
static int parse_unix(redislock_server *srv, const char *p, const char *end, char *err, size_t errlen)
{
    const char *q;

    if (p < end && *p != '/') {
        const char *at = memchr(p, '@', (size_t) (end - p));
        if (!at) {
            ERR("unix:// DSNs need an absolute socket path");
        }
        if (parse_userinfo(srv, p, (size_t) (at - p), err, errlen) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        p = at + 1;
    }
    if (p >= end || *p != '/') {
        ERR("unix:// DSNs need an absolute socket path");
    }
    q = memchr(p, '?', (size_t) (end - p));
    if (!q) {
        q = end;
    }
    if (check_socket_path(p, q, err, errlen) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    srv->path = pestrndup(p, (size_t) (q - p), 1);
    if (q < end) {
        q++;
        if ((size_t) (end - q) < 3 || strncmp(q, "db=", 3) != 0
            || parse_number(q + 3, (size_t) (end - q - 3), 0, INT_MAX, &srv->db) != REDISLOCK_OK) {
            ERR("the only query parameter is db=N, a non-negative number");
        }
    }
    return REDISLOCK_OK;
}

/* Parses the comma-separated host[:port] list [s, end) of a Sentinel or
 * Cluster DSN into the seeds. */
static int parse_seeds(redislock_server *srv, const char *s, const char *end, char *err, size_t errlen)
{
    redislock_topology *topo = srv->topo;
    int defport = srv->kind == REDISLOCK_SERVER_SENTINEL ? REDISLOCK_SENTINEL_PORT : REDISLOCK_DEFAULT_PORT;

    while (s <= end) {
        const char *comma = memchr(s, ',', (size_t) (end - s)), *e = comma ? comma : end;
        if (topo->nseeds == REDISLOCK_SEEDS_MAX) {
            ERR("at most %d seed addresses are supported", REDISLOCK_SEEDS_MAX);
        }
        while (s < e && isspace((unsigned char) *s)) s++;
        if (parse_hostport(&topo->seeds[topo->nseeds], s, (size_t) (e - s), defport, err, errlen) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        topo->nseeds++;
        s = e + 1;
    }
    return REDISLOCK_OK;
}

/* Parses what follows "redis-sentinel://" or "redis-cluster://" (or their
 * TLS forms) in [s, end): [userinfo@]host[:port][,host[:port]...][/db] and
 * a query. */
static int parse_multi(redislock_server *srv, const char *s, const char *end, char *err, size_t errlen)
{
    const char *query = memchr(s, '?', (size_t) (end - s)), *slash;

    srv->topo = pecalloc(1, sizeof(*srv->topo), 1);
    if (memchr(s, '#', (size_t) (end - s))) {
        ERR("a DSN takes no fragment");
    }
    if (query) {
        if (srv->kind == REDISLOCK_SERVER_CLUSTER && !srv->tls) {
            ERR("redis-cluster:// DSNs take no query");
        }
        if (parse_query(srv, query + 1, end, err, errlen) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        end = query;
    }
    if (srv->kind == REDISLOCK_SERVER_SENTINEL && !srv->topo->master) {
        ERR("redis-sentinel:// DSNs need ?master=NAME");
    }
    if (parse_authority(srv, &s, end, &slash, err, errlen) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (parse_seeds(srv, s, slash, err, errlen) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (slash + 1 < end
        && parse_number(slash + 1, (size_t) (end - slash - 1), 0, INT_MAX, &srv->db) != REDISLOCK_OK) {
        ERR("the database must be a non-negative number");
    }
    if (srv->kind == REDISLOCK_SERVER_CLUSTER && srv->db != 0) {
        ERR("a Redis Cluster has database 0 only");
    }
    srv->host = pestrdup(srv->topo->seeds[0].host, 1);
    srv->port = srv->topo->seeds[0].port;
    return REDISLOCK_OK;
}

/* The multi-server schemes: name, kind, TLS. */
static const struct {
    const char *scheme;
    redislock_server_kind kind;
    bool tls;
} multi_schemes[] = {
    { "redis-sentinel://", REDISLOCK_SERVER_SENTINEL, false },
    { "rediss-sentinel://", REDISLOCK_SERVER_SENTINEL, true },
    { "redis-cluster://", REDISLOCK_SERVER_CLUSTER, false },
    { "rediss-cluster://", REDISLOCK_SERVER_CLUSTER, true },
};

bool redislock_dsn_multi(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof(multi_schemes) / sizeof(multi_schemes[0]); i++) {
        size_t n = strlen(multi_schemes[i].scheme);
        if (len >= n && strncasecmp(s, multi_schemes[i].scheme, n) == 0) {
            return true;
        }
    }
    return false;
}

int redislock_dsn_parse_one(redislock_server *srv, const char *s, size_t len, char *err, size_t errlen)
{
    srv->tls_verify = -1;
    for (size_t i = 0; i < sizeof(multi_schemes) / sizeof(multi_schemes[0]); i++) {
        size_t n = strlen(multi_schemes[i].scheme);
        if (len >= n && strncasecmp(s, multi_schemes[i].scheme, n) == 0) {
            srv->kind = multi_schemes[i].kind;
            srv->tls = multi_schemes[i].tls;
            return parse_multi(srv, s + n, s + len, err, errlen);
        }
    }
    if (len >= 8 && strncasecmp(s, "redis://", 8) == 0) {
        return parse_redis(srv, s + 8, s + len, err, errlen);
    }
    if (len >= 9 && strncasecmp(s, "rediss://", 9) == 0) {
        srv->tls = true;
        return parse_redis(srv, s + 9, s + len, err, errlen);
    }
    if (len >= 7 && strncasecmp(s, "unix://", 7) == 0) {
        return parse_unix(srv, s + 7, s + len, err, errlen);
    }
    ERR("a DSN must start with redis://, rediss://, unix://, redis-sentinel://, redis-cluster:// or their TLS forms");
}

