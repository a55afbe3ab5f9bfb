/*
 * RedisLock\Atomic: optimistic concurrency on one Redis string key. Each
 * write is one script (lua/atomic_cas.lua, lua/atomic_increment.lua) that
 * checks and writes atomically, so there is no WATCH/MULTI/EXEC and no
 * connection state between the read and the write; update() retries a
 * read-compute-compareAndSet cycle after a random sleep when another
 * process wrote first.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "zend_attributes.h"

#include "php_redislock.h"
#include "php/primitive.h"
#include "php/exceptions.h"
#include "php/class_atomic.h"
#include "client/reply.h"
#include "php/redislock_atomic_arginfo.h"
#include "base/clock.h"
#include "base/process.h"

#define JITTER_BASE_US 20    /* update(): ceiling of the first random sleep */
#define JITTER_CAP_US 20000  /* ... doubling with each conflict up to this */

/* A value is a Redis string: get() reads one of any size Redis keeps, and
 * nothing larger is sent, so that whatever is written can be read back. */
#define VALUE_MAX REDISLOCK_BULK_MAX
/* What get()'s reply may take: the value and its header. */
#define GET_REPLY_MAX (VALUE_MAX + REDISLOCK_REPLY_MAX_BUFFER)

static zend_class_entry *atomic_ce;
static zend_object_handlers atomic_handlers;

typedef struct redislock_atomic {
    redislock_prim prim; /* first */
    zend_object std;
} redislock_atomic;

/* Throws the object's error and returns from the method. */
#define ATOMIC_THROW(o) do { \
        redislock_exceptions_throw(&(o)->prim.err); \
        RETURN_THROWS(); \
    } while (0)

static zend_object *atomic_create(zend_class_entry *ce)
{
    return redislock_object_create(ce, sizeof(redislock_atomic), &atomic_handlers);
}

/* Checks a ?int $ttlMs (argument arg_num): 0 for null (keep the expiry). */
static int ttl_argument(zend_long ttl, bool is_null, uint32_t arg_num, zend_long *out)
{
    if (is_null) {
        *out = 0;
        return REDISLOCK_OK;
    }
    if (ttl < 1 || ttl > REDISLOCK_TTL_MAX) {
        zend_argument_value_error(arg_num, "must be null or between 1 and %d", REDISLOCK_TTL_MAX);
        return REDISLOCK_ERR;
    }
    *out = ttl;
    return REDISLOCK_OK;
}

/* Checks a value to write or compare (argument arg_num, NULL for null):
 * no longer than Redis keeps. */
static int value_argument(const zend_string *v, uint32_t arg_num)
{
    if (v && ZSTR_LEN(v) > VALUE_MAX) {
        zend_argument_value_error(arg_num, "must be at most %d bytes long (the longest string Redis keeps), %zu "
                                  "bytes given", VALUE_MAX, ZSTR_LEN(v));
        return REDISLOCK_ERR;
    }
    return REDISLOCK_OK;
}

/* A script argument for a bound or a ttl: decimal, or "" when there is none. */
static void optional_long(redislock_call *c, zend_long v, bool none)
{
    if (none) {
        redislock_call_arg(c, "", 0);
    } else {
        redislock_call_long(c, v);
    }
}

/* GET: the value into out (a string, or null when absent). */
static int atomic_get(redislock_atomic *o, zval *out)
{
    redislock_cmd cmd;

    if (redislock_prim_command(&o->prim, "GET", GET_REPLY_MAX, &cmd, "get") != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (cmd.reply->type == REDIS_REPLY_NIL) {
        ZVAL_NULL(out);
    } else if (cmd.reply->type == REDIS_REPLY_STRING) {
        ZVAL_STRINGL(out, cmd.reply->str, cmd.reply->len);
    } else {
        return redislock_prim_unexpected(&o->prim, &cmd, "get");
    }
    redislock_cmd_dtor(&cmd, 1);
    return REDISLOCK_OK;
}

/* The compare-and-set script: expected NULL means absent, fresh NULL
 * deletes, ttl 0 keeps the expiry. *written: the value was the one expected
 * and is now fresh (otherwise counted as a conflict). */
static int atomic_cas(redislock_atomic *o, const zend_string *expected, const zend_string *fresh, zend_long ttl,
                      bool *written)
{
    redislock_call call;
    redislock_cmd cmd;

    redislock_prim_call_init(&o->prim, &call);
    redislock_call_bool(&call, expected != NULL);
    redislock_call_arg(&call, expected ? ZSTR_VAL(expected) : "", expected ? ZSTR_LEN(expected) : 0);
    redislock_call_bool(&call, fresh != NULL);
    redislock_call_arg(&call, fresh ? ZSTR_VAL(fresh) : "", fresh ? ZSTR_LEN(fresh) : 0);
    optional_long(&call, ttl, ttl == 0);
    if (redislock_prim_script(&o->prim, &redislock_script_atomic_cas, &call, &cmd, "compareAndSet") != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (cmd.reply->type != REDIS_REPLY_INTEGER) {
        return redislock_prim_unexpected(&o->prim, &cmd, "compareAndSet");
    }
    *written = cmd.reply->integer == 1;
    redislock_cmd_dtor(&cmd, 1);
    if (!*written) {
        REDISLOCK_G(stats).atomic_conflicts++;
    }
    return REDISLOCK_OK;
}

PHP_METHOD(RedisLock_Atomic, __construct)
{
    zend_string *key;
    HashTable *options = NULL;
    redislock_atomic *o = REDISLOCK_OBJECT(redislock_atomic, Z_OBJ_P(ZEND_THIS));

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (redislock_primitive_init(&o->prim, "RedisLock\\Atomic",
                            "a value kept on independent masters could differ from one to the next", key, "",
                            options, 2, NULL) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
}

PHP_METHOD(RedisLock_Atomic, get)
{
    redislock_atomic *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_PRIMITIVE_FETCH(o, redislock_atomic);
    if (atomic_get(o, return_value) != REDISLOCK_OK) {
        ATOMIC_THROW(o);
    }
}

PHP_METHOD(RedisLock_Atomic, compareAndSet)
{
    zend_string *expected, *fresh;
    zend_long ttl = 0;
    bool ttl_null = true, written;
    redislock_atomic *o;

    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR_OR_NULL(expected)
        Z_PARAM_STR_OR_NULL(fresh)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_PRIMITIVE_FETCH(o, redislock_atomic);
    if (value_argument(expected, 1) != REDISLOCK_OK || value_argument(fresh, 2) != REDISLOCK_OK
        || ttl_argument(ttl, ttl_null, 3, &ttl) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
    if (atomic_cas(o, expected, fresh, ttl, &written) != REDISLOCK_OK) {
        ATOMIC_THROW(o);
    }
    RETURN_BOOL(written);
}

/* What $fn returned, as the value to write: a string, or NULL to delete
 * (*ok false, with a TypeError or ValueError thrown, for anything else or a
 * string too long). */
static zend_string *update_value(zval *ret, bool *ok)
{
    *ok = true;
    switch (Z_TYPE_P(ret)) {
        case IS_NULL:
            return NULL;
        case IS_STRING:
            if (Z_STRLEN_P(ret) > VALUE_MAX) {
                *ok = false;
                zend_argument_value_error(1, "must return a string of at most %d bytes (the longest string Redis "
                                          "keeps), %zu bytes returned", VALUE_MAX, Z_STRLEN_P(ret));
                return NULL;
            }
            return zend_string_copy(Z_STR_P(ret));
        case IS_LONG:
            return zend_long_to_str(Z_LVAL_P(ret));
        default:
            *ok = false;
            zend_argument_type_error(1, "must return ?string (or int), %s returned", zend_zval_type_name(ret));
            return NULL;
    }
}

/* One cycle of update(): GET, $fn, compareAndSet. REDISLOCK_ERR with an
 * exception thrown (or $fn's pending); otherwise *written says whether the
 * value in out (string or null) was written. */
static int update_once(redislock_atomic *o, zend_fcall_info *fci, zend_fcall_info_cache *fcc, zend_long ttl,
                       zval *out, bool *written)
{
    zval old, ret;
    zend_string *fresh;
    bool ok;
    int rc;

    if (atomic_get(o, &old) != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->prim.err);
        return REDISLOCK_ERR;
    }
    fci->retval = &ret;
    fci->params = &old;
    fci->param_count = 1;
    ZVAL_UNDEF(&ret);
    if (zend_call_function(fci, fcc) != SUCCESS || EG(exception)) {
        zval_ptr_dtor(&old);
        zval_ptr_dtor(&ret);
        return REDISLOCK_ERR;
    }
    fresh = update_value(&ret, &ok);
    zval_ptr_dtor(&ret);
    if (!ok) {
        zval_ptr_dtor(&old);
        return REDISLOCK_ERR;
    }
    rc = atomic_cas(o, Z_TYPE(old) == IS_STRING ? Z_STR(old) : NULL, fresh, ttl, written);
    zval_ptr_dtor(&old);
    if (rc != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->prim.err);
    } else if (*written && fresh) {
        ZVAL_STR_COPY(out, fresh);
    } else {
        ZVAL_NULL(out);
    }
    if (fresh) {
        zend_string_release(fresh);
    }
    return rc;
}

/* A random sleep before the retry-th retry: up to JITTER_BASE_US, doubled
 * with each retry, at most JITTER_CAP_US. */
static void update_jitter(zend_long retry)
{
    uint64_t cap = MIN((uint64_t) JITTER_BASE_US << MIN(retry, 16), JITTER_CAP_US);
    uint32_t r = 0;

    if (redislock_process_random((unsigned char *) &r, sizeof(r)) == FAILURE) {
        r = (uint32_t) redislock_now_us();
    }
    redislock_prim_sleep(r % (cap + 1));
}

PHP_METHOD(RedisLock_Atomic, update)
{
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long retries = 16, ttl = 0;
    bool ttl_null = true, written;
    redislock_atomic *o;

    ZEND_PARSE_PARAMETERS_START(1, 3)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(retries)
        Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_PRIMITIVE_FETCH(o, redislock_atomic);
    if (retries < 0) {
        zend_argument_value_error(2, "must be greater than or equal to 0");
        RETURN_THROWS();
    }
    if (ttl_argument(ttl, ttl_null, 3, &ttl) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
    for (zend_long attempt = 0;; attempt++) {
        if (update_once(o, &fci, &fcc, ttl, return_value, &written) != REDISLOCK_OK) {
            RETURN_THROWS();
        }
        if (written) {
            return;
        }
        if (attempt >= retries) {
            break;
        }
        REDISLOCK_G(stats).atomic_retries++;
        update_jitter(attempt + 1);
    }
    redislock_exceptions_throwf(REDISLOCK_E_CONFLICT,
                                "update: the value changed before each of " ZEND_LONG_FMT " writes", retries + 1);
    RETURN_THROWS();
}

/* An integer written by INCRBY, as text, into *out. */
static bool parse_long(const redisReply *r, zend_long *out)
{
    char buf[32], *end;

    if (r->type != REDIS_REPLY_STRING || r->len == 0 || r->len >= sizeof(buf)) {
        return false;
    }
    memcpy(buf, r->str, r->len);
    buf[r->len] = '\0';
    errno = 0;
    *out = ZEND_STRTOL(buf, &end, 10);
    return errno == 0 && *end == '\0';
}

PHP_METHOD(RedisLock_Atomic, increment)
{
    zend_long by = 1, min = 0, max = 0, ttl = 0;
    bool min_null = true, max_null = true, ttl_null = true;
    redislock_call call;
    redislock_atomic *o;
    redislock_cmd cmd;
    const redisReply *r;
    zend_long value;

    ZEND_PARSE_PARAMETERS_START(0, 4)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(by)
        Z_PARAM_LONG_OR_NULL(min, min_null)
        Z_PARAM_LONG_OR_NULL(max, max_null)
        Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_PRIMITIVE_FETCH(o, redislock_atomic);
    if (!min_null && !max_null && min > max) {
        zend_argument_value_error(3, "must be greater than or equal to argument #2 ($min)");
        RETURN_THROWS();
    }
    if (ttl_argument(ttl, ttl_null, 4, &ttl) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
    redislock_prim_call_init(&o->prim, &call);
    redislock_call_long(&call, by);
    optional_long(&call, min, min_null);
    optional_long(&call, max, max_null);
    optional_long(&call, ttl, ttl_null);
    if (redislock_prim_script(&o->prim, &redislock_script_atomic_increment, &call, &cmd, "increment") != REDISLOCK_OK) {
        ATOMIC_THROW(o);
    }
    r = cmd.reply;
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type != REDIS_REPLY_INTEGER
        || (r->element[0]->integer == 1 && !parse_long(r->element[1], &value))) {
        redislock_prim_unexpected(&o->prim, &cmd, "increment");
        ATOMIC_THROW(o);
    }
    if (r->element[0]->integer != 1) {
        redislock_cmd_dtor(&cmd, 1);
        RETURN_FALSE;
    }
    redislock_cmd_dtor(&cmd, 1);
    RETURN_LONG(value);
}

void redislock_class_atomic_register(void)
{
    atomic_ce = register_class_RedisLock_Atomic();
    atomic_ce->create_object = atomic_create;
    redislock_primitive_handlers(&atomic_handlers, XtOffsetOf(redislock_atomic, std));
}
