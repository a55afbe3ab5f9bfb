/*
 * redislock: distributed locks on Redis for PHP.
 *
 * The RedisLock class, RedisLockException, the INI entries and the module's
 * life cycle. The lock protocol lives in redislock_lock.c, connections in
 * redislock_pool.c, DSN and option parsing in redislock_config.c.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "php_main.h"
#include "zend_smart_str.h"
#include "SAPI.h"
#include "zend_exceptions.h"
#include "zend_attributes.h"
#include "ext/spl/spl_exceptions.h"

#include "php_redislock.h"
#include "redislock_config.h"
#include "redislock_lock.h"
#include "redislock_pool.h"
#include "redislock_scripts.h"
#include "redislock_arginfo.h"

#include <hiredis/hiredis.h>

ZEND_DECLARE_MODULE_GLOBALS(redislock)

static zend_class_entry *redislock_ce;
static zend_class_entry *redislock_exception_ce;
static zend_object_handlers redislock_handlers;

typedef struct redislock_object {
    redislock_lock lock;
    bool initialized;                  /* the constructor completed */
    bool in_run;                       /* inside run(): release at request end whatever auto_release says */
    bool tracked;                      /* linked into REDISLOCK_G(tracked) */
    struct redislock_object *prev, *next;
    zend_object std;
} redislock_object;

static inline redislock_object *redislock_from_obj(zend_object *obj)
{
    return (redislock_object *) ((char *) obj - XtOffsetOf(redislock_object, std));
}

#define Z_REDISLOCK_P(zv) redislock_from_obj(Z_OBJ_P(zv))

/* The counters, by name, for RedisLock::stats() and phpinfo(). */
static const struct {
    const char *name;
    size_t offset;
} redislock_counters[] = {
#define COUNTER(n) { #n, XtOffsetOf(redislock_stats, n) }
    COUNTER(acquired), COUNTER(contended), COUNTER(released), COUNTER(released_lost),
    COUNTER(extended), COUNTER(extend_failed), COUNTER(auto_released), COUNTER(connects),
    COUNTER(reconnects), COUNTER(script_reloads), COUNTER(waits), COUNTER(errors), COUNTER(commands),
#undef COUNTER
};

static zend_ulong counter_value(size_t i)
{
    return *(zend_ulong *) ((char *) &REDISLOCK_G(stats) + redislock_counters[i].offset);
}

/* {{{ INI */

/* Stores an integer INI value in [min, max]. The one parse that checks it
 * also gives the value stored: decimal digits only (Zend's own handler would
 * read 030000 as octal and 08 as 0). */
static int ini_store_long(zend_ini_entry *entry, zend_string *value, zend_long min, zend_long max, void *mh_arg1,
                          void *mh_arg2)
{
    const char *s = ZSTR_VAL(value);
    size_t len = ZSTR_LEN(value), i = 0;
    zend_long v = 0;

    while (len > 0 && isspace((unsigned char) s[len - 1])) len--;
    while (i < len && isspace((unsigned char) s[i])) i++;
    if (i == len) {
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
    *(zend_long *) ZEND_INI_GET_ADDR() = v;
    return SUCCESS;

bad:
    php_error_docref(NULL, E_WARNING, "%s must be an integer between " ZEND_LONG_FMT " and " ZEND_LONG_FMT,
                     ZSTR_VAL(entry->name), min, max);
    return FAILURE;
}

/* The integer entries of redislock_options, in the range the table gives. */
static ZEND_INI_MH(OnUpdateRedislockLong)
{
    const redislock_option *opt = redislock_option_find(ZSTR_VAL(entry->name) + sizeof("redislock.") - 1,
                                                         ZSTR_LEN(entry->name) - (sizeof("redislock.") - 1));

    ZEND_ASSERT(opt && opt->type == REDISLOCK_OPT_LONG);
    return ini_store_long(entry, new_value, opt->min, opt->max, mh_arg1, mh_arg2);
}

/* Parses the DSN list once, here, so locks never re-read the string. */
static ZEND_INI_MH(OnUpdateRedislockServers)
{
    redislock_servers *list;
    char err[256];

    if (redislock_servers_parse(ZSTR_VAL(new_value), ZSTR_LEN(new_value), &list, err, sizeof(err)) != REDISLOCK_OK) {
        php_error_docref(NULL, E_WARNING, "redislock.servers is not a valid DSN list: %s", err);
        return FAILURE;
    }
    redislock_servers_release(REDISLOCK_G(servers));
    REDISLOCK_G(servers) = list;
    return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* Shows redislock.servers in phpinfo() with every password replaced by ***,
 * written from the parsed list (never by editing the text, which could miss
 * a password). */
static ZEND_INI_DISP(redislock_servers_displayer)
{
    zend_string *value = type == ZEND_INI_DISPLAY_ORIG && ini_entry->modified ? ini_entry->orig_value
                                                                              : ini_entry->value;
    redislock_servers *list;
    smart_str out = { 0 };
    char err[256];

    if (!value || ZSTR_LEN(value) == 0) {
        PUTS("no value");
        return;
    }
    if (redislock_servers_parse(ZSTR_VAL(value), ZSTR_LEN(value), &list, err, sizeof(err)) != REDISLOCK_OK) {
        PUTS("(not a valid DSN list)");
        return;
    }
    redislock_servers_format(list, true, &out);
    redislock_servers_release(list);
    smart_str_0(&out);
    if (out.s) {
        if (sapi_module.phpinfo_as_text) {
            PHPWRITE(ZSTR_VAL(out.s), ZSTR_LEN(out.s));
        } else {
            php_html_puts(ZSTR_VAL(out.s), ZSTR_LEN(out.s));
        }
    }
    smart_str_free(&out);
}

PHP_INI_BEGIN()
    STD_PHP_INI_ENTRY_EX("redislock.servers", "redis://127.0.0.1:6379", PHP_INI_ALL, OnUpdateRedislockServers,
                         servers_ini, zend_redislock_globals, redislock_globals, redislock_servers_displayer)
    STD_PHP_INI_ENTRY("redislock.prefix", "", PHP_INI_ALL, OnUpdateString, prefix, zend_redislock_globals,
                      redislock_globals)
    STD_PHP_INI_ENTRY("redislock.ttl", "10000", PHP_INI_ALL, OnUpdateRedislockLong, defaults.ttl, zend_redislock_globals,
                      redislock_globals)
    STD_PHP_INI_ENTRY("redislock.connect_timeout", "1000", PHP_INI_ALL, OnUpdateRedislockLong, defaults.connect_timeout,
                      zend_redislock_globals, redislock_globals)
    STD_PHP_INI_ENTRY("redislock.read_timeout", "1000", PHP_INI_ALL, OnUpdateRedislockLong, defaults.read_timeout,
                      zend_redislock_globals, redislock_globals)
    STD_PHP_INI_ENTRY("redislock.quorum_timeout", "100", PHP_INI_ALL, OnUpdateRedislockLong, defaults.quorum_timeout,
                      zend_redislock_globals, redislock_globals)
    STD_PHP_INI_BOOLEAN("redislock.persistent", "1", PHP_INI_ALL, OnUpdateBool, defaults.persistent, zend_redislock_globals,
                        redislock_globals)
    STD_PHP_INI_BOOLEAN("redislock.auto_release", "1", PHP_INI_ALL, OnUpdateBool, defaults.auto_release,
                        zend_redislock_globals, redislock_globals)
    STD_PHP_INI_BOOLEAN("redislock.fencing", "0", PHP_INI_ALL, OnUpdateBool, defaults.fencing, zend_redislock_globals,
                        redislock_globals)
    STD_PHP_INI_BOOLEAN("redislock.fair", "0", PHP_INI_ALL, OnUpdateBool, defaults.fair, zend_redislock_globals,
                        redislock_globals)
PHP_INI_END()

/* }}} */

/* {{{ Tracking: the locks of this request, released at its end */

static void track(redislock_object *o)
{
    o->prev = NULL;
    o->next = REDISLOCK_G(tracked);
    if (o->next) {
        o->next->prev = o;
    }
    REDISLOCK_G(tracked) = o;
    o->tracked = true;
}

static void untrack(redislock_object *o)
{
    if (!o->tracked) {
        return;
    }
    if (o->prev) {
        o->prev->next = o->next;
    } else {
        REDISLOCK_G(tracked) = o->next;
    }
    if (o->next) {
        o->next->prev = o->prev;
    }
    o->prev = o->next = NULL;
    o->tracked = false;
}

/* Whether a lock whose object or request is ending is to be released:
 * auto_release is on, or run() was interrupted, or only leftovers of a lost
 * or unfinished hold remain. */
static bool auto_release_due(redislock_object *o)
{
    redislock_lock *l = &o->lock;

    return o->initialized && redislock_lock_owned(l) && (!l->held || l->settings.auto_release || o->in_run);
}

/* Releases a lock whose object is ending, when it should be. A release of
 * unknown outcome leaves the token as a leftover, removed later. Failures
 * are counted, never thrown. */
static void auto_release(redislock_object *o)
{
    redislock_lock *l = &o->lock;
    bool released;

    if (!auto_release_due(o)) {
        return;
    }
    if (redislock_lock_release(l, &released) != REDISLOCK_OK) {
        REDISLOCK_G(stats).errors++;
        redislock_lock_abandon(l, false);
    } else if (released) {
        REDISLOCK_G(stats).auto_released++;
    }
}

/* }}} */

/* {{{ Errors */

/* Replaces every occurrence of a secret (the token, the passwords) in the
 * NUL-terminated message with "***", in one pass over the original text so
 * a mask is never masked again, cutting the result to fit the buffer. */
static void scrub(char *msg, size_t size, const char **secrets, const size_t *lens, size_t count)
{
    char out[sizeof(((redislock_lock *) 0)->error)];
    size_t len = strlen(msg), n = 0, i = 0;

    ZEND_ASSERT(size <= sizeof(out));
    while (i < len && n + 1 < size) {
        size_t hit = 0;
        for (size_t k = 0; k < count; k++) {
            if (lens[k] > hit && lens[k] <= len - i && memcmp(msg + i, secrets[k], lens[k]) == 0) {
                hit = lens[k];
            }
        }
        if (hit) {
            size_t stars = MIN(3, size - 1 - n);
            memcpy(out + n, "***", stars);
            n += stars;
            i += hit;
        } else {
            out[n++] = msg[i++];
        }
    }
    out[n] = '\0';
    memcpy(msg, out, n + 1);
}

/* Throws RedisLockException with the lock's error, unless an exception (from
 * the CSPRNG) is already pending. The message never holds a token or a
 * password, even when a server echoed one. */
static void throw_lock_error(redislock_object *o)
{
    redislock_lock *l = &o->lock;
    const redislock_servers *servers = l->settings.servers;

    if (EG(exception)) {
        return;
    }
    const char *secrets[REDISLOCK_MAX_SERVERS + 1] = { l->token };
    size_t lens[REDISLOCK_MAX_SERVERS + 1] = { REDISLOCK_TOKEN_LEN }, count = 1;
    for (uint32_t i = 0; i < servers->count; i++) {
        if (servers->server[i].password_len) {
            secrets[count] = servers->server[i].password;
            lens[count++] = servers->server[i].password_len;
        }
    }
    scrub(l->error, sizeof(l->error), secrets, lens, count);
    REDISLOCK_G(stats).errors++;
    zend_throw_exception(redislock_exception_ce, l->error, 0);
}

#define REDISLOCK_FETCH(o) do { \
        (o) = Z_REDISLOCK_P(ZEND_THIS); \
        if (!(o)->initialized) { \
            zend_throw_error(NULL, "RedisLock object is not initialized"); \
            RETURN_THROWS(); \
        } \
    } while (0)

/* }}} */

/* {{{ Object handlers */

static zend_object *redislock_create(zend_class_entry *ce)
{
    redislock_object *o = zend_object_alloc(sizeof(redislock_object), ce);

    zend_object_std_init(&o->std, ce);
    o->std.handlers = &redislock_handlers;
    return &o->std;
}

static void redislock_free(zend_object *obj)
{
    redislock_object *o = redislock_from_obj(obj);

    if (o->tracked) {
        /* Still inside the request: the object's end is the lock's end. */
        auto_release(o);
        untrack(o);
    }
    if (o->initialized) {
        redislock_settings_dtor(&o->lock.settings);
        redislock_lock_free_keys(&o->lock);
    }
    zend_object_std_dtor(obj);
}

/* }}} */

/* {{{ RedisLock methods */

PHP_METHOD(RedisLock, __construct)
{
    zend_string *name, *prefix;
    HashTable *options = NULL;
    redislock_object *o = Z_REDISLOCK_P(ZEND_THIS);

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(name)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (o->initialized) {
        zend_throw_error(NULL, "RedisLock object is already constructed");
        RETURN_THROWS();
    }
    if (ZSTR_LEN(name) == 0) {
        zend_argument_value_error(1, "must not be empty");
        RETURN_THROWS();
    }
    if (redislock_settings_init(&o->lock.settings, options, 2, &prefix) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
    o->lock.key = zend_string_concat2(ZSTR_VAL(prefix), ZSTR_LEN(prefix), ZSTR_VAL(name), ZSTR_LEN(name));
    zend_string_release(prefix);
    redislock_lock_init_keys(&o->lock);
    o->initialized = true;
    track(o);
}

PHP_METHOD(RedisLock, acquire)
{
    zend_long wait = 0;
    redislock_object *o;
    bool acquired;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_FETCH(o);
    if (wait < 0) {
        zend_argument_value_error(1, "must be greater than or equal to 0");
        RETURN_THROWS();
    }
    if (redislock_lock_acquire(&o->lock, MIN(wait, REDISLOCK_WAIT_MAX), &acquired) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(acquired);
}

PHP_METHOD(RedisLock, release)
{
    redislock_object *o;
    bool released;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (redislock_lock_release(&o->lock, &released) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(released);
}

PHP_METHOD(RedisLock, extend)
{
    zend_long ttl = 0;
    bool ttl_null = true, extended;
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_FETCH(o);
    if (ttl_null) {
        ttl = o->lock.settings.ttl;
    } else if (ttl < 1 || ttl > REDISLOCK_TTL_MAX) {
        zend_argument_value_error(1, "must be between 1 and %d", REDISLOCK_TTL_MAX);
        RETURN_THROWS();
    }
    if (redislock_lock_extend(&o->lock, ttl, &extended) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(extended);
}

PHP_METHOD(RedisLock, isAcquired)
{
    redislock_object *o;
    bool ours;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (redislock_lock_check(&o->lock, &ours) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(ours);
}

PHP_METHOD(RedisLock, remaining)
{
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    RETURN_LONG(redislock_lock_remaining(&o->lock));
}

PHP_METHOD(RedisLock, token)
{
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (!o->lock.held) {
        RETURN_NULL();
    }
    RETURN_STRINGL(o->lock.token, REDISLOCK_TOKEN_LEN);
}

PHP_METHOD(RedisLock, fence)
{
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (!o->lock.held || !o->lock.settings.fencing) {
        RETURN_NULL();
    }
    RETURN_LONG(o->lock.fence);
}

PHP_METHOD(RedisLock, run)
{
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long wait = 0;
    redislock_object *o;
    bool acquired, released;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_FETCH(o);
    if (wait < 0) {
        zend_argument_value_error(2, "must be greater than or equal to 0");
        RETURN_THROWS();
    }
    if (o->in_run) {
        /* The inner run() would release the outer one's hold. */
        zend_throw_error(NULL, "RedisLock::run() is already running on this object");
        RETURN_THROWS();
    }
    if (redislock_lock_acquire(&o->lock, MIN(wait, REDISLOCK_WAIT_MAX), &acquired) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    if (!acquired) {
        zend_throw_exception_ex(redislock_exception_ce, 0, "could not acquire the lock within " ZEND_LONG_FMT " ms", wait);
        RETURN_THROWS();
    }

    /* A fatal error inside $fn never returns here: in_run has the request
     * end release the lock instead. */
    o->in_run = true;
    fci.retval = return_value;
    zend_call_function(&fci, &fcc);
    o->in_run = false;

    /* run() releases in all cases: a release of unknown outcome leaves the
     * token as a leftover, removed later (see redislock_leftovers.h). */
    if (EG(exception)) {
        /* $fn's exception wins; the lock is released all the same. */
        if (redislock_lock_release(&o->lock, &released) != REDISLOCK_OK) {
            REDISLOCK_G(stats).errors++;
            redislock_lock_abandon(&o->lock, false);
        }
        return;
    }
    if (redislock_lock_release(&o->lock, &released) != REDISLOCK_OK) {
        zval_ptr_dtor(return_value);
        ZVAL_NULL(return_value);
        throw_lock_error(o);
        redislock_lock_abandon(&o->lock, false);
        RETURN_THROWS();
    }
}

PHP_METHOD(RedisLock, stats)
{
    ZEND_PARSE_PARAMETERS_NONE();

    array_init_size(return_value, sizeof(redislock_counters) / sizeof(redislock_counters[0]));
    for (size_t i = 0; i < sizeof(redislock_counters) / sizeof(redislock_counters[0]); i++) {
        add_assoc_long(return_value, redislock_counters[i].name, (zend_long) counter_value(i));
    }
}

/* }}} */

/* {{{ Module life cycle */

static PHP_GINIT_FUNCTION(redislock)
{
#if defined(COMPILE_DL_REDISLOCK) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    memset(redislock_globals, 0, sizeof(*redislock_globals));
}

static PHP_MINIT_FUNCTION(redislock)
{
    REGISTER_INI_ENTRIES();
    redislock_scripts_init();
    redislock_pid_init();

    redislock_ce = register_class_RedisLock();
    redislock_ce->create_object = redislock_create;
    memcpy(&redislock_handlers, &std_object_handlers, sizeof(zend_object_handlers));
    redislock_handlers.offset = XtOffsetOf(redislock_object, std);
    redislock_handlers.free_obj = redislock_free;
    redislock_handlers.clone_obj = NULL;

    redislock_exception_ce = register_class_RedisLockException(spl_ce_RuntimeException);
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(redislock)
{
    UNREGISTER_INI_ENTRIES();
    redislock_leftovers_shutdown();
    redislock_pool_shutdown();
    redislock_servers_forget_parsed();
    redislock_servers_release(REDISLOCK_G(servers));
    REDISLOCK_G(servers) = NULL;
    return SUCCESS;
}

static PHP_RINIT_FUNCTION(redislock)
{
#if defined(COMPILE_DL_REDISLOCK) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    REDISLOCK_G(tracked) = NULL;
    return SUCCESS;
}

/* However the request ended (return, exit(), uncaught exception, fatal
 * error, timeout), its locks are released here, before the worker serves
 * another request: all together, each server's in one pipeline and every
 * server at once, within one read timeout, along with the leftover tokens
 * of earlier failures (see redislock_leftovers.h). Connections left
 * mid-command are dropped first. */
static PHP_RSHUTDOWN_FUNCTION(redislock)
{
    redislock_pool_drop_dirty();
    while (REDISLOCK_G(tracked)) {
        redislock_object *o = REDISLOCK_G(tracked);
        if (auto_release_due(o)) {
            redislock_lock_abandon(&o->lock, true);
        }
        untrack(o);
    }
    if (REDISLOCK_G(nleftovers) > 0) {
        zend_try {
            redislock_leftovers_flush(redislock_leftovers_deadline());
        } zend_end_try();
    }
    redislock_pool_request_end();
    return SUCCESS;
}

static void minfo_conn(const char *label, bool persistent, long pid, unsigned long long commands, void *arg)
{
    char value[128];

    (void) arg;
    snprintf(value, sizeof(value), "%s, pid %ld, %llu commands", persistent ? "persistent" : "this request", pid,
             commands);
    php_info_print_table_row(2, label, value);
}

static PHP_MINFO_FUNCTION(redislock)
{
    char buf[64];

    php_info_print_table_start();
    php_info_print_table_row(2, "redislock support", "enabled");
    php_info_print_table_row(2, "Version", PHP_REDISLOCK_VERSION);
    snprintf(buf, sizeof(buf), "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
    php_info_print_table_row(2, "hiredis (compiled against)", buf);
    for (redislock_script *const *s = redislock_scripts; *s; s++) {
        char name[64];
        snprintf(name, sizeof(name), "%s script SHA1", (*s)->name);
        php_info_print_table_row(2, name, (*s)->sha);
    }
    snprintf(buf, sizeof(buf), "%u", REDISLOCK_G(nconns));
    php_info_print_table_row(2, "Open connections", buf);
    php_info_print_table_end();

    php_info_print_table_start();
    php_info_print_table_header(2, "Connection", "State");
    redislock_pool_describe(minfo_conn, NULL);
    php_info_print_table_end();

    php_info_print_table_start();
    php_info_print_table_header(2, "Counter (this process)", "Value");
    for (size_t i = 0; i < sizeof(redislock_counters) / sizeof(redislock_counters[0]); i++) {
        snprintf(buf, sizeof(buf), ZEND_ULONG_FMT, counter_value(i));
        php_info_print_table_row(2, redislock_counters[i].name, buf);
    }
    php_info_print_table_end();

    DISPLAY_INI_ENTRIES();
}

/* }}} */

zend_module_entry redislock_module_entry = {
    STANDARD_MODULE_HEADER,
    "redislock",
    NULL,
    PHP_MINIT(redislock),
    PHP_MSHUTDOWN(redislock),
    PHP_RINIT(redislock),
    PHP_RSHUTDOWN(redislock),
    PHP_MINFO(redislock),
    PHP_REDISLOCK_VERSION,
    PHP_MODULE_GLOBALS(redislock),
    PHP_GINIT(redislock),
    NULL,
    NULL,
    STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_REDISLOCK
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(redislock)
#endif
