/*
 * Settings: the INI defaults overridden by a lock's $options, through one
 * table of settings (name, type, range) that the INI entries' checks use
 * too. The DSN lists are redislock_dsn.c's.
 */
#include "php_redislock.h"
#include "config/config.h"
#include "php/ini.h"

#include <string.h>

#define OPT_LONG(n, lo, hi) { #n, REDISLOCK_OPT_LONG, lo, hi, XtOffsetOf(redislock_settings, n) }
#define OPT_BOOL(n) { #n, REDISLOCK_OPT_BOOL, 0, 1, XtOffsetOf(redislock_settings, n) }
#define OPT_STRING(n) { #n, REDISLOCK_OPT_STRING, 0, 0, XtOffsetOf(redislock_settings, n) }

const redislock_option redislock_options[] = {
    OPT_LONG(ttl, 1, REDISLOCK_TTL_MAX),
    OPT_LONG(connect_timeout, 1, REDISLOCK_TIMEOUT_MAX),
    OPT_LONG(read_timeout, 1, REDISLOCK_TIMEOUT_MAX),
    OPT_LONG(quorum_timeout, 1, REDISLOCK_TIMEOUT_MAX),
    OPT_BOOL(persistent),
    OPT_BOOL(auto_release),
    OPT_BOOL(fencing),
    OPT_BOOL(fair),
    OPT_STRING(tls_ca),
    OPT_STRING(tls_cert),
    OPT_STRING(tls_key),
    OPT_BOOL(tls_verify),
    OPT_LONG(sync_replicas, 0, REDISLOCK_SYNC_REPLICAS_MAX),
    { NULL, REDISLOCK_OPT_BOOL, 0, 0, 0 },
};

const redislock_option *redislock_option_find(const char *name, size_t len)
{
    for (const redislock_option *o = redislock_options; o->name; o++) {
        if (strlen(o->name) == len && memcmp(o->name, name, len) == 0) {
            return o;
        }
    }
    return NULL;
}

/* Reads an int option in [min, max]. */
static int option_long(zval *val, const char *name, zend_long min, zend_long max, uint32_t arg_num, zend_long *out)
{
    if (Z_TYPE_P(val) != IS_LONG) {
        zend_argument_type_error(arg_num, "option \"%s\" must be of type int, %s given", name, zend_zval_type_name(val));
        return REDISLOCK_ERR;
    }
    if (Z_LVAL_P(val) < min || Z_LVAL_P(val) > max) {
        zend_argument_value_error(arg_num, "option \"%s\" must be between " ZEND_LONG_FMT " and " ZEND_LONG_FMT,
                                  name, min, max);
        return REDISLOCK_ERR;
    }
    *out = Z_LVAL_P(val);
    return REDISLOCK_OK;
}

static int option_bool(zval *val, const char *name, uint32_t arg_num, bool *out)
{
    if (Z_TYPE_P(val) != IS_TRUE && Z_TYPE_P(val) != IS_FALSE) {
        zend_argument_type_error(arg_num, "option \"%s\" must be of type bool, %s given", name, zend_zval_type_name(val));
        return REDISLOCK_ERR;
    }
    *out = Z_TYPE_P(val) == IS_TRUE;
    return REDISLOCK_OK;
}

static int option_string(zval *val, const char *name, uint32_t arg_num)
{
    if (Z_TYPE_P(val) != IS_STRING) {
        zend_argument_type_error(arg_num, "option \"%s\" must be of type string, %s given", name, zend_zval_type_name(val));
        return REDISLOCK_ERR;
    }
    return REDISLOCK_OK;
}

/* Applies one entry of $options (key => val) to *s, or to *servers and
 * *pfx for the two string settings. Throws and returns REDISLOCK_ERR on bad
 * input. */
static int apply_option(redislock_settings *s, zend_string *key, zval *val, uint32_t arg_num,
                        zend_string **servers, zend_string **pfx)
{
    const redislock_option *opt;

    if (!key) {
        zend_argument_value_error(arg_num, "must only have string keys (option names)");
        return REDISLOCK_ERR;
    }
    if (zend_string_equals_literal(key, "servers")) {
        if (option_string(val, "servers", arg_num) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        *servers = Z_STR_P(val); /* parsed once the TLS settings are known */
        return REDISLOCK_OK;
    }
    if (zend_string_equals_literal(key, "prefix")) {
        if (option_string(val, "prefix", arg_num) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        *pfx = Z_STR_P(val);
        return REDISLOCK_OK;
    }
    opt = redislock_option_find(ZSTR_VAL(key), ZSTR_LEN(key));
    if (!opt) {
        zend_argument_value_error(arg_num, "contains unknown option \"%s\"", ZSTR_VAL(key));
        return REDISLOCK_ERR;
    }
    if (opt->type == REDISLOCK_OPT_LONG) {
        return option_long(val, opt->name, opt->min, opt->max, arg_num, (zend_long *) ((char *) s + opt->offset));
    }
    if (opt->type == REDISLOCK_OPT_STRING) {
        if (option_string(val, opt->name, arg_num) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        if (memchr(Z_STRVAL_P(val), '\0', Z_STRLEN_P(val))) {
            zend_argument_value_error(arg_num, "option \"%s\" must not contain any null bytes", opt->name);
            return REDISLOCK_ERR;
        }
        *(zend_string **) ((char *) s + opt->offset) = Z_STR_P(val);
        return REDISLOCK_OK;
    }
    return option_bool(val, opt->name, arg_num, (bool *) ((char *) s + opt->offset));
}

/* The lock's servers: the servers option (text, or NULL) or the INI list,
 * with the lock's TLS settings applied to its rediss:// servers. Throws and
 * returns NULL on a bad list. */
static redislock_servers *settings_servers(const redislock_settings *s, zend_string *text, uint32_t arg_num)
{
    redislock_tls_settings tls = {
        s->tls_ca ? ZSTR_VAL(s->tls_ca) : NULL, s->tls_cert ? ZSTR_VAL(s->tls_cert) : NULL,
        s->tls_key ? ZSTR_VAL(s->tls_key) : NULL, s->tls_verify,
    };
    redislock_servers *servers = NULL;
    char err[256];

    if (!text) {
        servers = REDISLOCK_G(servers);
        if (!servers) {
            zend_throw_error(NULL, "redislock.servers holds no valid server list");
            return NULL;
        }
        if (!redislock_servers_tls(servers)) {
            redislock_servers_addref(servers);
            return servers;
        }
        text = zend_string_init(REDISLOCK_G(servers_ini), strlen(REDISLOCK_G(servers_ini)), 0);
        redislock_servers_get_tls(text, &tls, &servers, err, sizeof(err)); /* parsed fine before */
        zend_string_release(text);
        return servers;
    }
    if (redislock_servers_get_tls(text, &tls, &servers, err, sizeof(err)) != REDISLOCK_OK) {
        zend_argument_value_error(arg_num, "option \"servers\" is not a valid DSN list: %s", err);
        return NULL;
    }
    return servers;
}

int redislock_settings_init(redislock_settings *s, HashTable *options, uint32_t arg_num, zend_string **prefix)
{
    zend_string *key;
    zval *val;
    zend_string *pfx = NULL, *text = NULL;
    redislock_servers *servers;

    if (redislock_ini_check(options) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    /* The INI values: the globals hold the settings by the same layout. */
    *s = REDISLOCK_G(defaults);
    s->servers = NULL;

    if (options) {
        ZEND_HASH_FOREACH_STR_KEY_VAL(options, key, val) {
            ZVAL_DEREF(val);
            if (apply_option(s, key, val, arg_num, &text, &pfx) != REDISLOCK_OK) {
                return REDISLOCK_ERR;
            }
        } ZEND_HASH_FOREACH_END();
    }
    servers = settings_servers(s, text, arg_num);
    s->tls_ca = s->tls_cert = s->tls_key = NULL; /* borrowed: the servers carry them now */
    if (!servers) {
        return REDISLOCK_ERR;
    }
    if (s->fair && servers->count > 1) {
        if (options && (zend_hash_str_exists(options, "fair", 4) || zend_hash_str_exists(options, "servers", 7))) {
            zend_argument_value_error(arg_num, "option \"fair\" needs a single server, \"servers\" lists %u",
                                      servers->count);
        } else {
            zend_value_error("redislock.fair needs a single server, redislock.servers lists %u", servers->count);
        }
        redislock_servers_release(servers);
        return REDISLOCK_ERR;
    }
    s->servers = servers;
    *prefix = pfx ? zend_string_copy(pfx) : zend_string_init(REDISLOCK_G(prefix), strlen(REDISLOCK_G(prefix)), 0);
    return REDISLOCK_OK;
}

void redislock_settings_dtor(redislock_settings *s)
{
    redislock_servers_release(s->servers);
    s->servers = NULL;
}
