/*
 * The plumbing of the primitives beside the lock: their settings, their key,
 * one exchange with their server, their errors.
 */
#include "php_redislock.h"
#include "engine/prim.h"
#include "engine/keys.h"
#include "php/options.h"
#include "base/clock.h"

#include <string.h>
#include <unistd.h>

/* RedisLock's options that only a lock has a use for. */
static const char *const lock_only[] = { "ttl", "auto_release", "fencing", "fair", "quorum_timeout", "sync_replicas", NULL };

/* Checks options for lock-only names; copies them without own into *rest
 * when own is among them (*rest stays NULL otherwise). */
static int split_options(const char *cls, HashTable *options, uint32_t arg_num, const char *own, HashTable **rest)
{
    zend_string *key;

    *rest = NULL;
    ZEND_HASH_FOREACH_STR_KEY(options, key) {
        if (!key) {
            continue; /* redislock_options_lock() says what is wrong */
        }
        for (const char *const *n = lock_only; *n; n++) {
            if (redislock_str_is(key, *n)) {
                zend_argument_value_error(arg_num, "contains the option \"%s\", which is RedisLock's and means "
                                          "nothing to %s", *n, cls);
                return REDISLOCK_ERR;
            }
        }
    } ZEND_HASH_FOREACH_END();
    if (own && zend_hash_str_exists(options, own, strlen(own))) {
        *rest = zend_array_dup(options);
        zend_hash_str_del(*rest, own, strlen(own));
    }
    return REDISLOCK_OK;
}

zend_object *redislock_prim_create(zend_class_entry *ce, size_t size, const zend_object_handlers *h)
{
    char *o = zend_object_alloc(size, ce);
    zend_object *obj = (zend_object *) (o + h->offset);

    zend_object_std_init(obj, ce);
    obj->handlers = h;
    return obj;
}

static void prim_free(zend_object *obj)
{
    redislock_prim *p = (redislock_prim *) ((char *) obj - obj->handlers->offset);

    if (p->initialized) {
        redislock_prim_dtor(p);
    }
    zend_object_std_dtor(obj);
}

void redislock_prim_handlers(zend_object_handlers *h, size_t offset)
{
    memcpy(h, &std_object_handlers, sizeof(zend_object_handlers));
    h->offset = (int) offset;
    h->free_obj = prim_free;
    h->clone_obj = NULL;
}

int redislock_prim_init(redislock_prim *p, const char *cls, const char *why, zend_string *name, const char *suffix,
                        HashTable *options, uint32_t arg_num, const char *own)
{
    HashTable *rest = NULL;
    zend_string *prefix;
    int rc;

    if (p->initialized) {
        zend_throw_error(NULL, "%s object is already constructed", cls);
        return REDISLOCK_ERR;
    }
    if (ZSTR_LEN(name) == 0) {
        zend_argument_value_error(1, "must not be empty");
        return REDISLOCK_ERR;
    }
    if (options && split_options(cls, options, arg_num, own, &rest) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    rc = redislock_options_lock(&p->settings, rest ? rest : options, arg_num, &prefix);
    if (rest) {
        zend_array_destroy(rest);
    }
    if (rc != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (!redislock_keys_name_fits(ZSTR_LEN(name), ZSTR_LEN(prefix))) {
        redislock_settings_dtor(&p->settings);
        zend_string_release(prefix);
        return REDISLOCK_ERR;
    }
    if (p->settings.servers->count > 1) {
        if (options && zend_hash_str_exists(options, "servers", sizeof("servers") - 1)) {
            zend_argument_value_error(arg_num, "option \"servers\" lists %u servers, but %s needs a single "
                                      "server: %s", p->settings.servers->count, cls, why);
        } else {
            zend_value_error("redislock.servers lists %u servers, but %s needs a single server: %s",
                             p->settings.servers->count, cls, why);
        }
        redislock_settings_dtor(&p->settings);
        zend_string_release(prefix);
        return REDISLOCK_ERR;
    }
    p->key = zend_string_concat3(ZSTR_VAL(prefix), ZSTR_LEN(prefix), ZSTR_VAL(name), ZSTR_LEN(name), suffix,
                                 strlen(suffix));
    zend_string_release(prefix);
    p->initialized = true;
    return REDISLOCK_OK;
}

void redislock_prim_dtor(redislock_prim *p)
{
    p->initialized = false;
    redislock_settings_dtor(&p->settings);
    if (p->key) {
        zend_string_release(p->key);
        p->key = NULL;
    }
}

static redislock_netopts prim_netopts(const redislock_prim *p)
{
    redislock_netopts o = {
        .connect_timeout = p->settings.connect_timeout,
        .read_timeout = p->settings.read_timeout,
        .persistent = p->settings.persistent,
    };
    return o;
}

/* Keeps a reply that came, or records why none did. */
static int prim_outcome(redislock_prim *p, redislock_cmd *cmd, const char *what)
{
    return cmd->status == REDISLOCK_CMD_OK ? REDISLOCK_OK : redislock_prim_unexpected(p, cmd, what);
}

void redislock_prim_call_init(redislock_prim *p, redislock_call *c)
{
    redislock_call_init(c);
    redislock_call_key(c, p->key);
}

int redislock_prim_script(redislock_prim *p, const redislock_script *script, redislock_call *c, redislock_cmd *cmd,
                          const char *what)
{
    redislock_netopts o = prim_netopts(p);

    memset(cmd, 0, sizeof(*cmd));
    redislock_round_call(p->settings.servers, 1, &o, script, cmd, c);
    return prim_outcome(p, cmd, what);
}

int redislock_prim_command(redislock_prim *p, const char *cmdname, size_t reply_max, redislock_cmd *cmd,
                           const char *what)
{
    const char *argv[2] = { cmdname, ZSTR_VAL(p->key) };
    size_t argl[2] = { strlen(cmdname), ZSTR_LEN(p->key) };
    redislock_netopts o = prim_netopts(p);

    o.reply_max = reply_max;
    memset(cmd, 0, sizeof(*cmd));
    redislock_round_send(p->settings.servers, 1, &o, cmd, 2, argv, argl);
    return prim_outcome(p, cmd, what);
}

int redislock_prim_unexpected(redislock_prim *p, redislock_cmd *cmd, const char *what)
{
    redislock_tally t = { 0 };

    redislock_tally_failure(&t, cmd);
    redislock_tally_describe(&t, 1, 1, cmd, what, &p->err);
    redislock_cmd_dtor(cmd, 1);
    return REDISLOCK_ERR;
}

void redislock_prim_throw(redislock_prim *p)
{
    redislock_error_throw(&p->err);
}

void redislock_prim_sleep(uint64_t us)
{
    uint64_t until = redislock_now_us() + us, now;

    while ((now = redislock_now_us()) < until) {
        usleep((useconds_t) MIN(until - now, 1000000));
    }
}
