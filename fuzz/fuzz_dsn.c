/*
 * Fuzz target for the DSN parser (src/config/dsn.c, servers.c): parses the input as a
 * `servers` list, and for every list it accepts formats it both ways and
 * releases it. Built and run by scripts/check/fuzz.sh; any broken invariant is an
 * abort(), so libFuzzer keeps the input.
 *
 * Invariants:
 *  - A refusal leaves a NUL-terminated, non-empty message in err, for any
 *    errlen, and neither the verdict nor the message depends on the bytes of
 *    any password in the input: the input is parsed again with every
 *    password byte swapped for another of its class (see swap_passwords), and
 *    the two messages must be equal. That is stronger than "err never
 *    contains a password" and has no false positives when a password happens
 *    to be a word of the message, a host or a port.
 *  - An accepted list has 1..REDISLOCK_MAX_SERVERS servers, each with exactly
 *    one of host and path, a label, a port in 1..65535 for TCP, a db >= 0,
 *    a password whenever it has a user, and lengths that match NULL fields.
 *    Its fields other than the password (label included) are the same when
 *    the input's passwords are swapped as above.
 *  - The unmasked canonical form parses back to an equal list (host, port,
 *    path, db, user and password: NULL-ness, length and bytes; label and
 *    pool identity too), and formats again to the same text.
 *  - The masked form does not depend on the passwords at all: formatting the
 *    list again with every password replaced by other bytes of another length
 *    gives the same text (so no password, of any length, is in it). It parses
 *    back to the same list with each password "***".
 *  - addref/release keep the list alive until the last release (ASan).
 *
 * The file needs Zend (persistent allocations, smart_str): the target links
 * Debian's PHP embed library (libphp8.2.so) and starts PHP once, with
 * USE_ZEND_ALLOC=0 so that emalloc is malloc and ASan sees every buffer.
 */
#include "php_redislock.h"
#include "config/servers.h"
#include "sapi/embed/php_embed.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* servers.c reads the module globals (its cache of parsed lists);
 * the module itself (redislock.c) is not linked, so they live here. */
ZEND_DECLARE_MODULE_GLOBALS(redislock)

#define FAIL(...) do { fprintf(stderr, "fuzz_dsn: " __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

/* Byte substitution that keeps every byte in its class as far as the parser
 * can tell: digits stay digits, hex letters hex letters of the same case,
 * other letters other letters, and the delimiters (NUL, white space,
 * % : @ / ? # , [ ]) stay as they are. Filled once. */
static unsigned char swap_table[256];

static void swap_table_init(void)
{
    static const char *const rings[] = {"0123456789", "abcdef", "ABCDEF", "ghijklmnopqrstuvwxyz",
                                        "GHIJKLMNOPQRSTUVWXYZ"};
    unsigned char other[256];
    size_t nother = 0;

    for (int c = 0; c < 256; c++) {
        swap_table[c] = (unsigned char) c;
        if (c != 0 && !isspace(c) && !isalnum(c) && !strchr("%:@/?#,[]", c)) {
            other[nother++] = (unsigned char) c;
        }
    }
    for (size_t i = 0; i < nother; i++) {
        swap_table[other[i]] = other[(i + 1) % nother];
    }
    for (size_t r = 0; r < sizeof(rings) / sizeof(rings[0]); r++) {
        size_t n = strlen(rings[r]);
        for (size_t i = 0; i < n; i++) {
            swap_table[(unsigned char) rings[r][i]] = (unsigned char) rings[r][(i + 1) % n];
        }
    }
}

/* Copies [dsn, dsn+len) into a new buffer with the bytes of every password
 * swapped through swap_table. The password is located the way the DSN
 * grammar in docs/settings.md puts it (and as the parser reads it): in each
 * comma-separated entry, trimmed, after the first ':' of the userinfo, which
 * for redis:// ends at the last '@' before the first '/' and for unix:// at
 * the first '@' when the path does not follow "unix://" at once. Sets
 * *changed when some byte differs. */
static char *swap_passwords(const char *dsn, size_t len, bool *changed)
{
    char *alt = malloc(len ? len : 1);
    const char *p = dsn, *end = dsn + len;

    memcpy(alt, dsn, len);
    *changed = false;
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t) (end - p));
        const char *s = p, *e = comma ? comma : end, *user = NULL, *at = NULL;

        while (s < e && isspace((unsigned char) *s)) s++;
        while (e > s && isspace((unsigned char) e[-1])) e--;
        if (e - s >= 8 && strncasecmp(s, "redis://", 8) == 0) {
            const char *slash = memchr(s + 8, '/', (size_t) (e - s - 8));
            user = s + 8;
            for (const char *q = user; q < (slash ? slash : e); q++) {
                if (*q == '@') {
                    at = q;
                }
            }
        } else if (e - s > 7 && strncasecmp(s, "unix://", 7) == 0 && s[7] != '/') {
            user = s + 7;
            at = memchr(user, '@', (size_t) (e - user));
        }
        if (at) {
            const char *colon = memchr(user, ':', (size_t) (at - user));
            for (const char *q = colon ? colon + 1 : at; q < at; q++) {
                char *b = alt + (q - dsn);
                *b = (char) swap_table[(unsigned char) *q];
                *changed |= *b != *q;
            }
        }
        p = comma ? comma + 1 : end;
    }
    return alt;
}

static bool same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
    if (!a || !b) {
        return a == b && alen == blen;
    }
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

static bool same_str(const char *a, const char *b)
{
    return (!a || !b) ? a == b : strcmp(a, b) == 0;
}

/* Whether server a equals b in every field but the password (and the pool
 * identity, which holds the password). */
static bool same_but_password(const redislock_server *a, const redislock_server *b)
{
    return same_str(a->host, b->host) && (!a->host || a->port == b->port) && same_str(a->path, b->path)
           && a->db == b->db && same_bytes(a->user, a->user_len, b->user, b->user_len)
           && same_str(a->label, b->label) && !a->password == !b->password;
}

static void check_list(const redislock_servers *list)
{
    if (!list) {
        FAIL("accepted, but no list");
    }
    if (list->refcount != 1) {
        FAIL("new list has refcount %u", list->refcount);
    }
    if (list->count < 1 || list->count > REDISLOCK_MAX_SERVERS) {
        FAIL("accepted list has %u servers", list->count);
    }
    for (uint32_t i = 0; i < list->count; i++) {
        const redislock_server *srv = &list->server[i];

        if (!srv->host == !srv->path) {
            FAIL("server %u: host %p and path %p, want exactly one", i + 1, (void *) srv->host, (void *) srv->path);
        }
        if (!srv->label) {
            FAIL("server %u: no label", i + 1);
        }
        if (srv->host && (srv->port < 1 || srv->port > 65535)) {
            FAIL("server %u: port %d", i + 1, srv->port);
        }
        if (srv->db < 0) {
            FAIL("server %u: db " ZEND_LONG_FMT, i + 1, srv->db);
        }
        if ((!srv->user && srv->user_len) || (!srv->password && srv->password_len)) {
            FAIL("server %u: a NULL user or password with a length", i + 1);
        }
        if (srv->user && !srv->password) {
            FAIL("server %u: a user without a password", i + 1);
        }
        if (!srv->id || !srv->id_len) {
            FAIL("server %u: no pool identity", i + 1);
        }
    }
}

/* Whether b is the list a (same servers in the same order). When
 * masked_password is set, every password of b must be that text instead. */
static bool same_list(const redislock_servers *a, const redislock_servers *b, const char *masked_password)
{
    if (a->count != b->count) {
        return false;
    }
    for (uint32_t i = 0; i < a->count; i++) {
        const redislock_server *x = &a->server[i], *y = &b->server[i];

        if (!same_but_password(x, y)) {
            return false;
        }
        if (masked_password) {
            if (x->password && !same_bytes(masked_password, strlen(masked_password), y->password, y->password_len)
                && !(x->password_len == 0 && y->password_len == 0)) {
                return false;
            }
        } else if (!same_bytes(x->password, x->password_len, y->password, y->password_len)
                   || !same_bytes(x->id, x->id_len, y->id, y->id_len)) {
            return false;
        }
    }
    return true;
}

/* Formats list into a new zend_string (NUL-terminated). */
static zend_string *format(const redislock_servers *list, bool mask)
{
    smart_str out = {0};

    redislock_servers_format(list, mask, &out);
    if (!out.s) {
        FAIL("format (mask=%d) wrote nothing", mask);
    }
    smart_str_0(&out);
    return out.s;
}

static void dump(const char *what, const char *s, size_t len)
{
    fprintf(stderr, "%s (%zu bytes): ", what, len);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) s[i];
        fprintf(stderr, c >= 0x20 && c < 0x7f && c != '\\' ? "%c" : "\\x%02x", c);
    }
    fputc('\n', stderr);
}

/* Parses text that must be accepted and describe the same servers as list. */
static void check_reparse(const redislock_servers *list, zend_string *text, const char *masked_password)
{
    redislock_servers *again = NULL;
    char err[256];

    if (redislock_servers_parse(ZSTR_VAL(text), ZSTR_LEN(text), &again, err, sizeof(err)) != REDISLOCK_OK) {
        dump("canonical form", ZSTR_VAL(text), ZSTR_LEN(text));
        FAIL("the %s canonical form does not parse: %s", masked_password ? "masked" : "unmasked", err);
    }
    if (!same_list(list, again, masked_password)) {
        dump("canonical form", ZSTR_VAL(text), ZSTR_LEN(text));
        for (uint32_t i = 0; i < list->count && i < again->count; i++) {
            const redislock_server *x = &list->server[i], *y = &again->server[i];
            fprintf(stderr, "server %u: label '%s' / '%s'\n", i + 1, x->label, y->label);
            if (x->path && y->path) {
                dump("  path", x->path, strlen(x->path));
                dump("  path again", y->path, strlen(y->path));
            }
        }
        FAIL("the %s canonical form parses to another list", masked_password ? "masked" : "unmasked");
    }
    if (!masked_password) {
        zend_string *twice = format(again, false);
        if (!zend_string_equals(text, twice)) {
            FAIL("the canonical form is not stable under parse and format");
        }
        zend_string_release(twice);
    }
    redislock_servers_release(again);
}

/* The masked form must be the same text whatever the passwords are. */
static void check_masked(redislock_servers *list, zend_string *masked)
{
    char *saved[REDISLOCK_MAX_SERVERS];
    size_t saved_len[REDISLOCK_MAX_SERVERS];
    zend_string *other;

    for (uint32_t i = 0; i < list->count; i++) {
        redislock_server *srv = &list->server[i];

        saved[i] = srv->password;
        saved_len[i] = srv->password_len;
        if (srv->password && srv->password_len) {
            /* other bytes in every position, and a different length */
            size_t n = srv->password_len + 5;
            char *pw = malloc(n + 1);
            for (size_t j = 0; j < n; j++) {
                pw[j] = j < srv->password_len ? (char) (srv->password[j] ^ 0x21) : '#';
            }
            pw[n] = '\0';
            srv->password = pw;
            srv->password_len = n;
        }
    }
    other = format(list, true);
    for (uint32_t i = 0; i < list->count; i++) {
        redislock_server *srv = &list->server[i];
        if (srv->password != saved[i]) {
            free(srv->password);
        }
        srv->password = saved[i];
        srv->password_len = saved_len[i];
    }
    if (!zend_string_equals(masked, other)) {
        dump("masked", ZSTR_VAL(masked), ZSTR_LEN(masked));
        dump("masked, other passwords", ZSTR_VAL(other), ZSTR_LEN(other));
        FAIL("the masked form depends on the passwords");
    }
    zend_string_release(other);
}

/* A refusal: err must be a message, whatever room it has. */
static void check_refusal(const char *dsn, size_t len, const char *err, size_t errlen)
{
    static const size_t small[] = {1, 2, 16, 40};
    size_t n = strnlen(err, errlen);

    if (n == errlen) {
        FAIL("err is not NUL-terminated");
    }
    if (n == 0) {
        FAIL("refused with an empty message");
    }
    for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
        char *buf = malloc(small[i]); /* exact size: ASan sees any write past it */
        redislock_servers *list = NULL;
        memset(buf, 0x5a, small[i]);
        if (redislock_servers_parse(dsn, len, &list, buf, small[i]) != REDISLOCK_ERR) {
            FAIL("accepted with errlen %zu, refused with %zu", small[i], errlen);
        }
        if (strnlen(buf, small[i]) != (small[i] - 1 < n ? small[i] - 1 : n)
            || strncmp(buf, err, small[i] - 1) != 0) {
            FAIL("errlen %zu: not the message cut short and NUL-terminated", small[i]);
        }
        free(buf);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static char *args[] = {"fuzz_dsn", NULL};

    /* emalloc as plain malloc, so ASan and LeakSanitizer see smart_str
     * buffers; no php.ini, so no extension is loaded from conf.d. */
    setenv("USE_ZEND_ALLOC", "0", 1);
    php_embed_module.php_ini_ignore = 1;
    if (php_embed_init(1, args) != SUCCESS) {
        FAIL("PHP did not start");
    }
    /* PHP's startup allocations are freed by its shutdown, before
     * LeakSanitizer looks at what is left at exit. */
    atexit(php_embed_shutdown);
    swap_table_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dsn = (const char *) data;
    redislock_servers *list = NULL, *alt_list = NULL;
    char err[256], alt_err[256];
    zend_string *plain, *masked;
    bool changed;
    char *alt = swap_passwords(dsn, size, &changed);
    int rc, alt_rc;

    memset(err, 0x5a, sizeof(err));
    memset(alt_err, 0x5a, sizeof(alt_err));
    rc = redislock_servers_parse(dsn, size, &list, err, sizeof(err));
    if (rc != REDISLOCK_OK && rc != REDISLOCK_ERR) {
        FAIL("parse returned %d", rc);
    }
    alt_rc = changed ? redislock_servers_parse(alt, size, &alt_list, alt_err, sizeof(alt_err)) : rc;
    if (alt_rc != rc) {
        dump("input", dsn, size);
        dump("same with other password bytes", alt, size);
        FAIL("the verdict depends on a password's bytes");
    }

    if (rc == REDISLOCK_ERR) {
        check_refusal(dsn, size, err, sizeof(err));
        if (changed && strcmp(err, alt_err) != 0) {
            dump("input", dsn, size);
            fprintf(stderr, "err: %s\nerr with other password bytes: %s\n", err, alt_err);
            FAIL("the error message depends on a password's bytes (it shows a password)");
        }
        free(alt);
        return 0;
    }

    check_list(list);
    if (alt_list) {
        if (alt_list->count != list->count) {
            FAIL("the number of servers depends on a password's bytes");
        }
        for (uint32_t i = 0; i < list->count; i++) {
            if (!same_but_password(&list->server[i], &alt_list->server[i])) {
                FAIL("server %u: a field other than the password depends on the password's bytes", i + 1);
            }
        }
        redislock_servers_release(alt_list);
    }

    redislock_servers_addref(list);
    redislock_servers_release(list); /* still held once: ASan sees a use after free below otherwise */

    plain = format(list, false);
    masked = format(list, true);
    check_reparse(list, plain, NULL);
    check_masked(list, masked);
    check_reparse(list, masked, "***");
    zend_string_release(plain);
    zend_string_release(masked);

    redislock_servers_release(list);
    free(alt);
    return 0;
}
