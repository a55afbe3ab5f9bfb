/*
 * redislock: distributed locks on Redis for PHP.
 *
 * The module: its INI entries, phpinfo() and life cycle. The classes live in
 * src/php/ (class_*.c, the exceptions in exceptions.c, the counters in
 * stats.c, the request-scoped holds in holds.c), the lock protocol in
 * src/engine/lock.c, connections in src/client/pool.c, settings in
 * src/config/config.c.
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
#include "config/config.h"
#include "engine/lock.h"
#include "engine/acquire.h"
#include "engine/keepalive.h"
#include "client/pool.h"
#include "base/process.h"
#include "engine/scripts.h"
#include "php/class_lock.h"
#include "php/ini.h"
#include "engine/prim.h"
#include "client/tls.h"
#include "client/transport.h"
#include "php/class_atomic.h"
#include "php/class_ratelimiter.h"
#include "php/class_semaphore.h"
#include "php/class_zookeeper_lock.h"
#include "php/exceptions.h"
#include "php/holds.h"
#include "php/ini.h"
#include "php/stats.h"

#include <hiredis/hiredis.h>

ZEND_DECLARE_MODULE_GLOBALS(redislock)

/* {{{ INI */

/* One entry a setting of the list in config/settings.h. */
PHP_INI_BEGIN()
    REDISLOCK_SETTINGS(REDISLOCK_INI_ENTRY)
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

/* A thread of a threaded (ZTS) PHP ends: what it kept for itself goes
 * (its persistent connections, leftovers, parsed DSN lists, marked locks,
 * ZooKeeper sessions). Run on that thread by ts_free_thread(); at module
 * shutdown it also runs, on the main thread, for the globals of threads still
 * alive, which only that thread may touch: those are left to the process's
 * end. The main thread's went in MSHUTDOWN. */
static PHP_GSHUTDOWN_FUNCTION(redislock)
{
#ifdef ZTS
    if (redislock_globals != ZEND_MODULE_GLOBALS_BULK(redislock)) {
        return;
    }
    redislock_class_zookeeper_lock_mshutdown();
    redislock_leftovers_shutdown();
    redislock_pool_shutdown();
    redislock_servers_forget_parsed();
    redislock_acquire_forget();
#else
    (void) redislock_globals;
#endif
}

static PHP_MINIT_FUNCTION(redislock)
{
    REGISTER_INI_ENTRIES();
    redislock_scripts_init();
    redislock_process_init();

    redislock_exceptions_register();
    redislock_class_lock_register();
    redislock_class_ratelimiter_register();
    redislock_class_atomic_register();
    redislock_class_semaphore_register();
    redislock_class_zookeeper_lock_minit(module_number);
    redislock_ini_report_unknown();
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(redislock)
{
    UNREGISTER_INI_ENTRIES();
    redislock_ini_forget();
    redislock_class_zookeeper_lock_mshutdown();
    redislock_keepalive_shutdown();
    redislock_leftovers_shutdown();
    redislock_pool_shutdown();
    redislock_tls_shutdown();
    redislock_servers_forget_parsed();
    redislock_acquire_forget();
    redislock_process_shutdown();
    return SUCCESS;
}

static PHP_RINIT_FUNCTION(redislock)
{
#if defined(COMPILE_DL_REDISLOCK) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    redislock_holds_request_start();
    return SUCCESS;
}

/* However the request ended (return, exit(), uncaught exception, fatal
 * error, timeout), its holds are released here (php/holds.h), before the
 * worker serves another request: the Redis locks all together, each
 * server's in one pipeline and every server at once, within one read
 * timeout, along with the leftover tokens of earlier failures (see
 * engine/leftovers.h). Connections left mid-command are dropped first. */
static PHP_RSHUTDOWN_FUNCTION(redislock)
{
    redislock_pool_drop_dirty();
    redislock_holds_request_end();
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

    redislock_stats_minfo();
    redislock_class_zookeeper_lock_minfo();

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
    PHP_GSHUTDOWN(redislock),
    NULL,
    STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_REDISLOCK
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(redislock)
#endif
