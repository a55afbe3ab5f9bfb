/*
 * RedisLock\RateLimiter: a limit of permits per window shared by every
 * process that uses the same name and server. Each policy is one Lua script
 * (lua/ratelimit_<policy>.lua) deciding on the server's clock and answering
 * {taken, permits left, ms until due}; this file picks the policy once,
 * calls its script (one round trip) and keeps the answer.
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
#include "php/args.h"
#include "php/class_ratelimiter.h"
#include "php/redislock_ratelimiter_arginfo.h"
#include "base/clock.h"

#define RATE_MAX 2147483647 /* largest limit and window (ms) */

/* A policy: its name in the 'policy' option, its script, and the suffix of
 * its key (so that two policies never share one key). */
typedef struct redislock_rate_policy {
    const char *name;
    const redislock_script *script;
    const char *suffix;
} redislock_rate_policy;

static const redislock_rate_policy rate_policies[] = {
    { "gcra", &redislock_script_ratelimit_gcra, ":redislock-gcra" }, /* the default */
    { "fixed_window", &redislock_script_ratelimit_fixed_window, ":redislock-fixed_window" },
    { "sliding_window", &redislock_script_ratelimit_sliding_window, ":redislock-sliding_window" },
};

static zend_class_entry *ratelimiter_ce;
static zend_object_handlers ratelimiter_handlers;

typedef struct redislock_ratelimiter {
    redislock_prim prim; /* first */
    const redislock_rate_policy *policy;
    zend_long limit;
    zend_long window;      /* ms */
    zend_long remaining;   /* permits left, from the last answer */
    zend_long retry_after; /* ms until the permits last asked for are due, from the last answer */
    zend_object std;
} redislock_ratelimiter;

static zend_object *ratelimiter_create(zend_class_entry *ce)
{
    return redislock_object_create(ce, sizeof(redislock_ratelimiter), &ratelimiter_handlers);
}

/* The policy named by the 'policy' option (argument 4), gcra without it;
 * NULL with an exception thrown when the option is not one. */
static const redislock_rate_policy *policy_option(HashTable *options)
{
    zval *val = options ? zend_hash_str_find_deref(options, "policy", sizeof("policy") - 1) : NULL;

    if (!val) {
        return &rate_policies[0];
    }
    if (Z_TYPE_P(val) != IS_STRING) {
        zend_argument_type_error(4, "option \"policy\" must be of type string, %s given", zend_zval_type_name(val));
        return NULL;
    }
    for (size_t i = 0; i < sizeof(rate_policies) / sizeof(rate_policies[0]); i++) {
        if (redislock_primitive_str_is(Z_STR_P(val), rate_policies[i].name)) {
            return &rate_policies[i];
        }
    }
    zend_argument_value_error(4, "option \"policy\" must be \"gcra\", \"fixed_window\" or \"sliding_window\"");
    return NULL;
}

PHP_METHOD(RedisLock_RateLimiter, __construct)
{
    zend_string *name;
    zend_long limit, window;
    HashTable *options = NULL;
    redislock_ratelimiter *o = REDISLOCK_OBJECT(redislock_ratelimiter, Z_OBJ_P(ZEND_THIS));
    const redislock_rate_policy *policy;

    ZEND_PARSE_PARAMETERS_START(3, 4)
        Z_PARAM_STR(name)
        Z_PARAM_LONG(limit)
        Z_PARAM_LONG(window)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (limit < 1 || limit > RATE_MAX) {
        zend_argument_value_error(2, "must be between 1 and %d", RATE_MAX);
        RETURN_THROWS();
    }
    if (window < 1 || window > RATE_MAX) {
        zend_argument_value_error(3, "must be between 1 and %d", RATE_MAX);
        RETURN_THROWS();
    }
    policy = policy_option(options);
    if (!policy || redislock_primitive_init(&o->prim, "RedisLock\\RateLimiter",
                                       "separate counts on independent masters cannot enforce one limit", name,
                                       policy->suffix, options, 4, "policy") != REDISLOCK_OK) {
        RETURN_THROWS();
    }
    o->policy = policy;
    o->limit = limit;
    o->window = window;
    o->remaining = limit;
    o->retry_after = 0;
}

/* One round trip: the policy's script asked for permits. *taken tells
 * whether they were taken; remaining and retry_after are the answer's. */
static int rate_take(redislock_ratelimiter *o, zend_long permits, bool *taken)
{
    redislock_call call;
    redislock_cmd cmd;
    const redisReply *r;

    redislock_prim_call_init(&o->prim, &call);
    redislock_call_long(&call, o->limit);
    redislock_call_long(&call, o->window);
    redislock_call_long(&call, permits);
    if (redislock_prim_script(&o->prim, o->policy->script, &call, &cmd, "consume") != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    r = cmd.reply;
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || r->element[0]->type != REDIS_REPLY_INTEGER
        || r->element[1]->type != REDIS_REPLY_INTEGER || r->element[2]->type != REDIS_REPLY_INTEGER) {
        return redislock_prim_unexpected(&o->prim, &cmd, "consume");
    }
    *taken = r->element[0]->integer == 1;
    o->remaining = (zend_long) MAX(0, MIN(r->element[1]->integer, o->limit));
    o->retry_after = *taken ? 0 : (zend_long) MAX(1, r->element[2]->integer);
    redislock_cmd_dtor(&cmd, 1);
    return REDISLOCK_OK;
}

PHP_METHOD(RedisLock_RateLimiter, consume)
{
    zend_long permits = 1, wait = 0;
    redislock_ratelimiter *o;
    uint64_t deadline, now;
    bool taken;

    ZEND_PARSE_PARAMETERS_START(0, 2)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(permits)
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_PRIMITIVE_FETCH(o, redislock_ratelimiter);
    if (permits < 1 || permits > o->limit) {
        zend_argument_value_error(1, "must be between 1 and the limit (" ZEND_LONG_FMT ")", o->limit);
        RETURN_THROWS();
    }
    if (!redislock_args_wait(wait, 2, &wait)) {
        RETURN_THROWS();
    }
    deadline = redislock_now_us() + (uint64_t) wait * 1000;
    for (;;) {
        if (rate_take(o, permits, &taken) != REDISLOCK_OK) {
            redislock_exceptions_throw(&o->prim.err);
            RETURN_THROWS();
        }
        if (taken) {
            RETURN_TRUE;
        }
        /* Sleep until the server says they are due, if that is within the
         * wait; someone may take them first, and then the server says when
         * again. */
        now = redislock_now_us();
        if (now >= deadline || (uint64_t) o->retry_after * 1000 > deadline - now) {
            break;
        }
        redislock_prim_sleep((uint64_t) o->retry_after * 1000);
    }
    REDISLOCK_G(stats).rate_limited++;
    RETURN_FALSE;
}

PHP_METHOD(RedisLock_RateLimiter, remaining)
{
    redislock_ratelimiter *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_PRIMITIVE_FETCH(o, redislock_ratelimiter);
    RETURN_LONG(o->remaining);
}

PHP_METHOD(RedisLock_RateLimiter, retryAfter)
{
    redislock_ratelimiter *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_PRIMITIVE_FETCH(o, redislock_ratelimiter);
    RETURN_LONG(o->retry_after);
}

PHP_METHOD(RedisLock_RateLimiter, reset)
{
    redislock_ratelimiter *o;
    redislock_cmd cmd;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_PRIMITIVE_FETCH(o, redislock_ratelimiter);
    if (redislock_prim_command(&o->prim, "DEL", 0, &cmd, "reset") != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->prim.err);
        RETURN_THROWS();
    }
    if (cmd.reply->type != REDIS_REPLY_INTEGER) {
        redislock_prim_unexpected(&o->prim, &cmd, "reset");
        redislock_exceptions_throw(&o->prim.err);
        RETURN_THROWS();
    }
    redislock_cmd_dtor(&cmd, 1);
    o->remaining = o->limit;
    o->retry_after = 0;
}

void redislock_class_ratelimiter_register(void)
{
    ratelimiter_ce = register_class_RedisLock_RateLimiter();
    ratelimiter_ce->create_object = ratelimiter_create;
    redislock_primitive_handlers(&ratelimiter_handlers, XtOffsetOf(redislock_ratelimiter, std));
}
