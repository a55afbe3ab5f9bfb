/*
 * The RedisLock\ZooKeeperLock class: its objects, methods, and the release
 * of the locks an object or a request leaves held, as RedisLock does for
 * its own (auto_release). The recipe is in redislock_zookeeper_lock.c, the
 * session in redislock_zookeeper_session.c, the settings in
 * redislock_zookeeper_config.c.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

/* Built --with-zookeeper only (see config.m4). */
#ifdef HAVE_REDISLOCK_ZOOKEEPER

#include "php.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"

#include "php_redislock.h"
#include "config/config.h"
#include "base/error.h"
#include "php/class_zookeeper_lock.h"
#include "php/ini.h"
#include "php/options.h"
#include "zookeeper/zk_lock.h"
#include "zookeeper/zk_session.h"
#include "zookeeper/zk_orphans.h"
#include "php/redislock_zookeeper_arginfo.h"

#include <zookeeper/zookeeper.h>
#include <zookeeper/zookeeper_version.h>

static zend_class_entry *redislock_zk_ce;
static zend_object_handlers redislock_zk_handlers;

typedef struct redislock_zk_object {
    redislock_zk_lock lock;
    bool initialized;          /* the constructor completed */
    bool in_run;               /* inside run(): released at request end whatever auto_release says */
    uint32_t slot;             /* 1 + its place in zk_tracked; 0: not tracked */
    zend_object std;
} redislock_zk_object;

/* The objects of this request, released at its end when due: an array
 * (emalloc'd, freed when it empties) from which an object is removed by
 * moving the last one into its place. */
static redislock_zk_object **zk_tracked;
static uint32_t zk_ntracked, zk_tracked_size;

static inline redislock_zk_object *redislock_zk_from_obj(zend_object *obj)
{
    return (redislock_zk_object *) ((char *) obj - XtOffsetOf(redislock_zk_object, std));
}

#define Z_REDISLOCK_ZK_P(zv) redislock_zk_from_obj(Z_OBJ_P(zv))

#define REDISLOCK_ZK_FETCH(o) do { \
        (o) = Z_REDISLOCK_ZK_P(ZEND_THIS); \
        if (!(o)->initialized) { \
            zend_throw_error(NULL, "RedisLock\\ZooKeeperLock object is not initialized"); \
            RETURN_THROWS(); \
        } \
    } while (0)

/* {{{ The request's objects */

static void zk_track(redislock_zk_object *o)
{
    if (zk_ntracked == zk_tracked_size) {
        zk_tracked_size = zk_tracked_size ? 2 * zk_tracked_size : 8;
        zk_tracked = safe_erealloc(zk_tracked, zk_tracked_size, sizeof(*zk_tracked), 0);
    }
    zk_tracked[zk_ntracked++] = o;
    o->slot = zk_ntracked;
}

static void zk_untrack(redislock_zk_object *o)
{
    redislock_zk_object *last;

    if (!o->slot) {
        return;
    }
    last = zk_tracked[--zk_ntracked];
    zk_tracked[o->slot - 1] = last;
    last->slot = o->slot;
    o->slot = 0;
    if (zk_ntracked == 0) {
        efree(zk_tracked);
        zk_tracked = NULL;
        zk_tracked_size = 0;
    }
}

/* Releases o's hold when its object or request is ending and it is due:
 * auto_release is on or run() was interrupted. Failures are counted, never
 * thrown (a node whose delete had an unknown outcome is an orphan, deleted
 * later or with the session). */
static void zk_auto_release(redislock_zk_object *o)
{
    bool released;

    if (!o->initialized || !o->lock.node || !(o->lock.auto_release || o->in_run)) {
        return;
    }
    if (redislock_zk_lock_release(&o->lock, &released) != REDISLOCK_OK) {
        REDISLOCK_G(stats).errors++;
    } else if (released) {
        REDISLOCK_G(stats).auto_released++;
    }
}

/* Whether an object of this request still holds a node on session serial
 * (auto_release off): that session must stay open. */
static bool zk_holding(uint64_t serial)
{
    for (uint32_t i = 0; i < zk_ntracked; i++) {
        if (zk_tracked[i]->lock.node && zk_tracked[i]->lock.serial == serial) {
            return true;
        }
    }
    return false;
}

/* zk_auto_release() at request end: a bailout (a timeout) stops only this one. */
static void zk_auto_release_guarded(redislock_zk_object *o)
{
    zend_try {
        zk_auto_release(o);
    } zend_end_try();
}

void redislock_zk_request_end(void)
{
    for (uint32_t i = 0; i < zk_ntracked; i++) {
        zk_auto_release_guarded(zk_tracked[i]);
    }
    zend_try {
        redislock_zk_orphans_flush(REDISLOCK_G(defaults).connect_timeout, zk_holding);
    } zend_end_try();
    while (zk_ntracked > 0) {
        zk_untrack(zk_tracked[zk_ntracked - 1]);
    }
}

/* }}} */

/* {{{ Object handlers */

/* A new object, not initialized until its constructor completes. */
static zend_object *redislock_zk_new(zend_class_entry *ce)
{
    zend_object *obj = &((redislock_zk_object *) zend_object_alloc(sizeof(redislock_zk_object), ce))->std;

    zend_object_std_init(obj, ce);
    object_properties_init(obj, ce);
    obj->handlers = &redislock_zk_handlers;
    return obj;
}

static void redislock_zk_free(zend_object *obj)
{
    redislock_zk_object *o = redislock_zk_from_obj(obj);

    /* Still inside the request (tracked): the object's end is the lock's end. */
    if (o->slot) {
        zk_auto_release(o);
    }
    zk_untrack(o);
    redislock_zk_lock_dtor(&o->lock);
    zend_object_std_dtor(obj);
}

/* }}} */

/* {{{ Methods */

static zend_object *zk_throw(redislock_zk_object *o)
{
    return redislock_error_throw(&o->lock.err);
}

PHP_METHOD(RedisLock_ZooKeeperLock, __construct)
{
    redislock_zk_object *o = Z_REDISLOCK_ZK_P(ZEND_THIS);
    HashTable *options = NULL;
    zend_string *name;

    /* A node name is a C string: Z_PARAM_PATH_STR refuses NUL bytes. */
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_PATH_STR(name)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (o->initialized) {
        zend_throw_error(NULL, "RedisLock\\ZooKeeperLock::__construct() cannot be called twice");
        RETURN_THROWS();
    }
    if (redislock_options_zk(&o->lock, name, options, 2) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
    o->initialized = true;
    zk_track(o);
}

/* Reads a wait argument (number arg_num): >= 0, longer ones cut. */
static bool wait_arg(zend_long wait, uint32_t arg_num, zend_long *out)
{
    if (wait < 0) {
        zend_argument_value_error(arg_num, "must be greater than or equal to 0");
        return false;
    }
    *out = MIN(wait, REDISLOCK_WAIT_MAX);
    return true;
}

PHP_METHOD(RedisLock_ZooKeeperLock, acquire)
{
    zend_long wait = 0;
    redislock_zk_object *o;
    bool acquired;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_ZK_FETCH(o);
    if (!wait_arg(wait, 1, &wait)) {
        RETURN_THROWS();
    }
    if (redislock_zk_lock_acquire(&o->lock, wait, &acquired) != REDISLOCK_OK) {
        zk_throw(o);
        RETURN_THROWS();
    }
    if (acquired) {
        REDISLOCK_G(stats).acquired++;
    } else {
        REDISLOCK_G(stats).contended++;
    }
    RETURN_BOOL(acquired);
}

PHP_METHOD(RedisLock_ZooKeeperLock, release)
{
    redislock_zk_object *o;
    bool released;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_ZK_FETCH(o);
    if (redislock_zk_lock_release(&o->lock, &released) != REDISLOCK_OK) {
        zk_throw(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(released);
}

PHP_METHOD(RedisLock_ZooKeeperLock, isAcquired)
{
    redislock_zk_object *o;
    bool held;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_ZK_FETCH(o);
    if (redislock_zk_lock_check(&o->lock, &held) != REDISLOCK_OK) {
        zk_throw(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(held);
}

PHP_METHOD(RedisLock_ZooKeeperLock, token)
{
    redislock_zk_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_ZK_FETCH(o);
    if (!redislock_zk_lock_held(&o->lock)) {
        RETURN_NULL();
    }
    RETURN_STRING(o->lock.node);
}

PHP_METHOD(RedisLock_ZooKeeperLock, fence)
{
    redislock_zk_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_ZK_FETCH(o);
    if (!redislock_zk_lock_held(&o->lock)) {
        RETURN_NULL();
    }
    RETURN_LONG(o->lock.fence);
}

/* run()'s release failed after $fn returned *result: throws
 * RedisLock\ReleaseException carrying the result (moved out of *result). */
static void zk_throw_release(redislock_zk_object *o, zval *result)
{
    zend_object *ex = redislock_throw(REDISLOCK_E_RELEASE, "the work is done, but releasing the lock failed: %s",
                                      o->lock.err.msg);

    if (ex) {
        zend_update_property(redislock_ce_release, ex, "result", sizeof("result") - 1, result);
    }
    zval_ptr_dtor(result);
    ZVAL_NULL(result);
}

/* run() once the lock is held: calls fn with its result in return_value,
 * then releases in all cases. A fatal error inside fn never returns here:
 * in_run has the request end release the lock instead. */
static void zk_run_held(redislock_zk_object *o, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                        zval *return_value)
{
    bool released;

    o->in_run = true;
    fci->retval = return_value;
    zend_call_function(fci, fcc);
    o->in_run = false;
    if (redislock_zk_lock_release(&o->lock, &released) == REDISLOCK_OK) {
        return;
    }
    if (EG(exception)) {
        /* fn's exception wins; the node is an orphan, deleted later. */
        REDISLOCK_G(stats).errors++;
    } else {
        zk_throw_release(o, return_value);
    }
}

PHP_METHOD(RedisLock_ZooKeeperLock, run)
{
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long wait = 0;
    redislock_zk_object *o;
    bool acquired;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_ZK_FETCH(o);
    if (!wait_arg(wait, 2, &wait)) {
        RETURN_THROWS();
    }
    if (o->in_run) {
        zend_throw_error(NULL, "RedisLock\\ZooKeeperLock::run() is already running on this object");
        RETURN_THROWS();
    }
    if (redislock_zk_lock_acquire(&o->lock, wait, &acquired) != REDISLOCK_OK) {
        zk_throw(o);
    } else if (!acquired) {
        redislock_throw(REDISLOCK_E_CONFLICT, "could not acquire the lock within " ZEND_LONG_FMT " ms", wait);
    } else {
        zk_run_held(o, &fci, &fcc, return_value);
    }
}

/* }}} */

void redislock_zk_minit(int module_number)
{
    redislock_ini_zk_register(module_number);
    /* The client logs to stderr unless told not to (0: off). */
    zoo_set_debug_level(0);

    redislock_zk_ce = register_class_RedisLock_ZooKeeperLock(redislock_ce_lock);
    redislock_zk_ce->create_object = redislock_zk_new;
    memcpy(&redislock_zk_handlers, &std_object_handlers, sizeof(zend_object_handlers));
    redislock_zk_handlers.offset = XtOffsetOf(redislock_zk_object, std);
    redislock_zk_handlers.free_obj = redislock_zk_free;
    redislock_zk_handlers.clone_obj = NULL;
}

void redislock_zk_mshutdown(void)
{
    redislock_zk_session_close_all();
}

static void minfo_session(const char *hosts, long long id, bool connected, void *arg)
{
    char value[64];

    (void) arg;
    snprintf(value, sizeof(value), "session 0x%llx, %s", (unsigned long long) id,
             connected ? "connected" : "not connected");
    php_info_print_table_row(2, hosts, value);
}

void redislock_zk_minfo(void)
{
    php_info_print_table_start();
    php_info_print_table_header(2, "ZooKeeperLock", "enabled");
    php_info_print_table_row(2, "ZooKeeper C client (compiled against)", ZOO_VERSION " (multi-threaded)");
    redislock_zk_session_describe_all(minfo_session, NULL);
    php_info_print_table_end();
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
