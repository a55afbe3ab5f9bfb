/*
 * The RedisLock\ZooKeeperLock class: its objects, methods, and the release
 * of the locks an object or a request leaves held, as RedisLock does for
 * its own (auto_release, through the registry of holds, holds.c). The
 * recipe is in zookeeper/zk_lock.c, the session in zookeeper/zk_session.c,
 * the settings in zookeeper/zk_config.c.
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
#include "zookeeper/zk_config.h"
#include "zookeeper/zk_lock.h"
#include "zookeeper/zk_session.h"
#include "php/class_zookeeper_lock.h"
#include "php/ini.h"
#include "php/options.h"
#include "zookeeper/zk_orphans.h"
#include "php/exceptions.h"
#include "php/holds.h"
#include "php/lock_methods.h"
#include "php/object.h"
#include "php/redislock_zookeeper_arginfo.h"

#include <zookeeper/zookeeper.h>
#include <zookeeper/zookeeper_version.h>

static zend_class_entry *redislock_zk_ce;
static zend_object_handlers redislock_zk_handlers;

typedef struct redislock_zk_object {
    redislock_zk_lock lock;
    redislock_lock_methods_part part; /* initialized, its hold, its error (lock_methods.h) */
    zend_object std;
} redislock_zk_object;

#define Z_REDISLOCK_ZK_P(zv) REDISLOCK_OBJECT(redislock_zk_object, Z_OBJ_P(zv))
#define HOLD_OBJECT(h) ((redislock_zk_object *) ((char *) (h) - XtOffsetOf(redislock_zk_object, part.hold)))

/* {{{ The hold: released when the object or the request ends */

/* Releases the hold of h when its object or request is ending and it is due:
 * auto_release is on or run() was interrupted. Failures are counted, never
 * thrown (a node whose delete had an unknown outcome is an orphan, deleted
 * later or with the session). */
static void zk_auto_release(redislock_holds_entry *h)
{
    redislock_zk_object *o = HOLD_OBJECT(h);
    bool released;

    if (!o->part.initialized || !o->lock.node || !(o->lock.auto_release || h->in_run)) {
        return;
    }
    if (redislock_zk_lock_release(&o->lock, &released) != REDISLOCK_OK) {
        REDISLOCK_G(stats).errors++;
    } else if (released) {
        REDISLOCK_G(stats).auto_released++;
    }
}

/* zk_auto_release() at request end: a bailout (a timeout) stops only this one. */
static void zk_request_end(redislock_holds_entry *h)
{
    zend_try {
        zk_auto_release(h);
    } zend_end_try();
}

/* Whether the object of h holds a node on session *serial. */
static bool zk_holds_on(redislock_holds_entry *h, void *serial)
{
    redislock_zk_object *o = HOLD_OBJECT(h);

    return o->lock.node && o->lock.serial == *(uint64_t *) serial;
}

static const redislock_holds_ops zk_holds;

/* Whether an object of this request still holds a node on session serial
 * (auto_release off): that session must stay open. */
static bool zk_holding(uint64_t serial)
{
    return redislock_holds_any(&zk_holds, zk_holds_on, &serial);
}

/* At request end, once the request's locks are released: the nodes left by
 * earlier failures are deleted. */
static void zk_request_done(void)
{
    zend_try {
        redislock_zk_orphans_flush(REDISLOCK_G(defaults).connect_timeout, zk_holding);
    } zend_end_try();
}

/* run()'s release, after its callback: a node whose delete had an unknown
 * outcome is an orphan, deleted later. */
static const redislock_error *zk_run_release(redislock_holds_entry *h)
{
    redislock_zk_object *o = HOLD_OBJECT(h);
    bool released;

    return redislock_zk_lock_release(&o->lock, &released) == REDISLOCK_OK ? NULL : &o->lock.err;
}

/* end, request_end, request_done, release (see holds.h) */
static const redislock_holds_ops zk_holds = { zk_auto_release, zk_request_end, zk_request_done, zk_run_release };

/* }}} */

/* {{{ The methods of RedisLock\Lock (lock_methods.c) */

/* extend(): a hold lasts as long as its session, so there is no lease to
 * set (ttl, checked by the caller, has no effect): ZooKeeper is asked
 * whether the hold is still ours, as isAcquired() does, which also renews
 * what remaining() can vouch for. */
static int zk_extend(redislock_zk_lock *l, zend_long ttl, bool *held)
{
    (void) ttl;
    return redislock_zk_lock_check(l, held);
}

/* One call of RedisLock\Lock on the lock of obj (zookeeper/zk_lock.h). */
REDISLOCK_LOCK_METHODS_CALL(zk_call, redislock_zk_object, redislock_zk_lock_acquire, redislock_zk_lock_release,
                            redislock_zk_lock_check, zk_extend)

/* The hold of obj, not known lost: its node and sequence number. */
static bool zk_held(zend_object *obj, redislock_lock_methods_held *held)
{
    redislock_zk_lock *l = &REDISLOCK_OBJECT(redislock_zk_object, obj)->lock;

    if (!redislock_zk_lock_held(l)) {
        return false;
    }
    *held = (redislock_lock_methods_held) { .token = l->node, .token_len = strlen(l->node), .fence = l->fence };
    return true;
}

/* How long the hold of obj is vouched for by its session (zk_lock.h). */
static zend_long zk_remaining(zend_object *obj)
{
    return redislock_zk_lock_remaining(&REDISLOCK_OBJECT(redislock_zk_object, obj)->lock);
}

static const redislock_lock_methods_ops zk_methods = {
    .part_offset = XtOffsetOf(redislock_zk_object, std) - XtOffsetOf(redislock_zk_object, part),
    .count_acquire = true,
    .what = "the lock",
    .call = zk_call,
    .held = zk_held,
    .remaining = zk_remaining,
};

REDISLOCK_LOCK_METHODS(RedisLock_ZooKeeperLock, zk_methods)

/* }}} */

/* {{{ Object handlers */

/* A new object, not initialized until its constructor completes. */
static zend_object *redislock_zk_new(zend_class_entry *ce)
{
    zend_object *obj = redislock_object_create(ce, sizeof(redislock_zk_object), &redislock_zk_handlers);

    REDISLOCK_OBJECT(redislock_zk_object, obj)->part.err = &REDISLOCK_OBJECT(redislock_zk_object, obj)->lock.err;
    return obj;
}

static void redislock_zk_free(zend_object *obj)
{
    redislock_zk_object *o = REDISLOCK_OBJECT(redislock_zk_object, obj);

    redislock_holds_end(&o->part.hold);
    redislock_zk_lock_dtor(&o->lock);
    zend_object_std_dtor(obj);
}

/* }}} */

/* {{{ Methods */

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

    if (o->part.initialized) {
        zend_throw_error(NULL, "RedisLock\\ZooKeeperLock::__construct() cannot be called twice");
        RETURN_THROWS();
    }
    if (redislock_options_zk(&o->lock, name, options, 2) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
    o->part.initialized = true;
    redislock_holds_register(&o->part.hold, &zk_holds);
}

/* }}} */

void redislock_class_zookeeper_lock_minit(int module_number)
{
    redislock_ini_zk_register(module_number);
    /* The client logs to stderr unless told not to (0: off). */
    zoo_set_debug_level(0);

    redislock_zk_ce = register_class_RedisLock_ZooKeeperLock(redislock_exceptions_lock_interface());
    redislock_zk_ce->create_object = redislock_zk_new;
    redislock_object_handlers(&redislock_zk_handlers, XtOffsetOf(redislock_zk_object, std), redislock_zk_free);
    redislock_holds_add_class(&zk_holds);
}

void redislock_class_zookeeper_lock_mshutdown(void)
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

void redislock_class_zookeeper_lock_minfo(void)
{
    php_info_print_table_start();
    php_info_print_table_header(2, "ZooKeeperLock", "enabled");
    php_info_print_table_row(2, "ZooKeeper C client (compiled against)", ZOO_VERSION " (multi-threaded)");
    redislock_zk_session_describe_all(minfo_session, NULL);
    php_info_print_table_end();
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
