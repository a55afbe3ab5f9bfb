/*
 * redislock: distributed locks on Redis for PHP.
 *
 * The module: its INI entries, per-process counters, phpinfo() and life
 * cycle. The RedisLock class lives in redislock_class.c, the lock protocol
 * in redislock_lock.c, connections in redislock_pool.c, settings in
 * redislock_config.c.
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
#include "redislock_class.h"
#include "redislock_zookeeper.h"

#include <hiredis/hiredis.h>

ZEND_DECLARE_MODULE_GLOBALS(redislock)

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

void redislock_stats_array(zval *out)
{
    array_init_size(out, sizeof(redislock_counters) / sizeof(redislock_counters[0]));
    for (size_t i = 0; i < sizeof(redislock_counters) / sizeof(redislock_counters[0]); i++) {
        add_assoc_long(out, redislock_counters[i].name, (zend_long) counter_value(i));
    }
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

    redislock_class_register();
    redislock_zk_minit(module_number);
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(redislock)
{
    UNREGISTER_INI_ENTRIES();
    redislock_zk_mshutdown();
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
    redislock_class_request_end();
    redislock_zk_request_end();
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
    redislock_zk_minfo();

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
