/*
 * The constructors' $options (see php/options.h): every entry is looked up
 * in a settings' table and checked by config/settings.h's checks; this file
 * only walks the array and turns what a check reports into the TypeError or
 * ValueError that names the option.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_redislock.h"
#include "config/settings.h"
#include "php/ini.h"
#include "php/options.h"

#include <string.h>

/* Reads val, the value of the option opt, into the settings struct at base
 * (a DSN's text into *dsn, parsed later). Throws TypeError/ValueError naming
 * the option and returns REDISLOCK_ERR on a bad value. */
static int options_value(const redislock_setting *opt, zval *val, uint32_t arg_num, void *base, zend_string **dsn)
{
    static const char *const type_names[] = { "int", "bool", "string", "string" };
    char err[256]; /* set by the check that failed */

    switch (opt->type) {
    case REDISLOCK_SETTING_LONG:
        if (Z_TYPE_P(val) != IS_LONG) {
            break;
        }
        if (redislock_settings_check_long(opt, Z_LVAL_P(val), err, sizeof(err)) != REDISLOCK_OK) {
            zend_argument_value_error(arg_num, "option \"%s\" %s", opt->name, err);
            return REDISLOCK_ERR;
        }
        *(zend_long *) REDISLOCK_SETTING_AT(base, opt) = Z_LVAL_P(val);
        return REDISLOCK_OK;
    case REDISLOCK_SETTING_BOOL:
        if (Z_TYPE_P(val) != IS_TRUE && Z_TYPE_P(val) != IS_FALSE) {
            break;
        }
        *(bool *) REDISLOCK_SETTING_AT(base, opt) = Z_TYPE_P(val) == IS_TRUE;
        return REDISLOCK_OK;
    case REDISLOCK_SETTING_STRING:
        if (Z_TYPE_P(val) != IS_STRING) {
            break;
        }
        if (redislock_settings_check_string(opt, Z_STRVAL_P(val), Z_STRLEN_P(val), err, sizeof(err)) != REDISLOCK_OK) {
            zend_argument_value_error(arg_num, "option \"%s\" %s", opt->name, err);
            return REDISLOCK_ERR;
        }
        *(zend_string **) REDISLOCK_SETTING_AT(base, opt) = Z_STR_P(val);
        return REDISLOCK_OK;
    case REDISLOCK_SETTING_DSN:
        if (Z_TYPE_P(val) != IS_STRING) {
            break;
        }
        *dsn = Z_STR_P(val); /* parsed once the TLS settings are known */
        return REDISLOCK_OK;
    }
    zend_argument_type_error(arg_num, "option \"%s\" must be of type %s, %s given", opt->name, type_names[opt->type],
                             zend_zval_type_name(val));
    return REDISLOCK_ERR;
}

/* Reads every entry of options into the settings struct at base by table.
 * A key must be a string (with no NUL byte, when nul_keys is false) naming
 * an entry of the table. Throws and returns REDISLOCK_ERR on bad input. */
static int options_walk(const redislock_setting *table, HashTable *options, uint32_t arg_num, bool nul_keys,
                        void *base, zend_string **dsn)
{
    zend_string *key;
    zval *val;

    ZEND_HASH_FOREACH_STR_KEY_VAL(options, key, val) {
        const redislock_setting *opt;

        if (!key || (!nul_keys && memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key)))) {
            zend_argument_value_error(arg_num, "must only have string keys (option names)");
            return REDISLOCK_ERR;
        }
        ZVAL_DEREF(val);
        opt = redislock_settings_find(table, ZSTR_VAL(key), ZSTR_LEN(key));
        if (!opt) {
            zend_argument_value_error(arg_num, "contains unknown option \"%s\"", ZSTR_VAL(key));
            return REDISLOCK_ERR;
        }
        if (options_value(opt, val, arg_num, base, dsn) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
    } ZEND_HASH_FOREACH_END();
    return REDISLOCK_OK;
}

/* The lock's servers: the servers option (text, or NULL) or the INI list,
 * with the lock's TLS settings applied to its rediss:// servers. Throws and
 * returns NULL on a bad list. */
static redislock_servers *options_servers(const redislock_settings *s, zend_string *text, uint32_t arg_num)
{
    redislock_tls_settings tls;
    redislock_servers *servers = NULL;
    char err[256];

    redislock_settings_tls(s, &tls);
    if (!text) {
        servers = REDISLOCK_G(defaults).servers;
        if (!servers) {
            zend_throw_error(NULL, "redislock.servers holds no valid server list");
            return NULL;
        }
        if (!redislock_servers_tls(servers)) {
            redislock_servers_addref(servers);
            return servers;
        }
        /* The entry's text, parsed fine before. */
        redislock_servers_get_tls(redislock_ini_text("servers"), &tls, &servers, err, sizeof(err));
        return servers;
    }
    if (redislock_servers_get_tls(text, &tls, &servers, err, sizeof(err)) != REDISLOCK_OK) {
        zend_argument_value_error(arg_num, "option \"servers\" is not a valid DSN list: %s", err);
        return NULL;
    }
    return servers;
}

/* Refuses fair with more than one server, naming the option or the INI
 * entry that asked for them. */
static int options_fair(const redislock_settings *s, const redislock_servers *servers, HashTable *options,
                        uint32_t arg_num)
{
    if (!s->fair || servers->count <= 1) {
        return REDISLOCK_OK;
    }
    if (options && (zend_hash_str_exists(options, "fair", 4) || zend_hash_str_exists(options, "servers", 7))) {
        zend_argument_value_error(arg_num, "option \"fair\" needs a single server, \"servers\" lists %u",
                                  servers->count);
    } else {
        zend_value_error("redislock.fair needs a single server, redislock.servers lists %u", servers->count);
    }
    return REDISLOCK_ERR;
}

int redislock_options_lock(redislock_settings *s, HashTable *options, uint32_t arg_num, zend_string **prefix)
{
    zend_string *text = NULL;
    redislock_servers *servers;

    if (redislock_ini_check(options) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    /* The INI values: the globals hold the settings by the same layout. */
    *s = REDISLOCK_G(defaults);
    s->servers = NULL;
    if (options && options_walk(redislock_settings_table, options, arg_num, true, s, &text) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    servers = options_servers(s, text, arg_num);
    s->tls_ca = s->tls_cert = s->tls_key = NULL; /* borrowed: the servers carry them now */
    if (!servers) {
        return REDISLOCK_ERR;
    }
    if (options_fair(s, servers, options, arg_num) != REDISLOCK_OK) {
        redislock_servers_release(servers);
        return REDISLOCK_ERR;
    }
    s->servers = servers;
    /* The INI's string is the entry's: the lock gets a copy of its own. */
    *prefix = s->prefix == REDISLOCK_G(defaults).prefix ? zend_string_init(ZSTR_VAL(s->prefix), ZSTR_LEN(s->prefix), 0)
                                                        : zend_string_copy(s->prefix);
    s->prefix = NULL;
    return REDISLOCK_OK;
}

#ifdef HAVE_REDISLOCK_ZOOKEEPER
int redislock_options_zk(redislock_zk_lock *l, const zend_string *name, HashTable *options, uint32_t arg_num)
{
    redislock_zk_config c;
    char err[256];

    if (redislock_zk_config_check_name(ZSTR_VAL(name), ZSTR_LEN(name), err, sizeof(err)) != REDISLOCK_OK) {
        zend_argument_value_error(1, "%s", err);
        return REDISLOCK_ERR;
    }
    redislock_ini_zk_defaults(&c);
    if (options && options_walk(redislock_zk_config_table, options, arg_num, false, &c, NULL) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    redislock_zk_config_apply(l, &c, name);
    return REDISLOCK_OK;
}
#endif
