/*
 * The settings of RedisLock\ZooKeeperLock: two INI entries of its own
 * (registered only in a build --with-zookeeper), the shared
 * redislock.connect_timeout and redislock.auto_release, and the
 * constructor's $options: hosts, root, session_timeout, connect_timeout,
 * auto_release. Everything is checked here, before a request is sent.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

/* Built --with-zookeeper only (see config.m4). */
#ifdef HAVE_REDISLOCK_ZOOKEEPER

#include "php.h"
#include "php_ini.h"
#include "zend_exceptions.h"

#include "php_redislock.h"
#include "config/config.h"
#include "zookeeper/zk_config.h"

#define ZK_PATH_MAX 1024  /* longest root or connect string accepted */
#define ZK_NAME_MAX 255   /* longest lock name */

ZEND_BEGIN_MODULE_GLOBALS(redislock_zk)
    char *hosts;
    zend_long session_timeout;
ZEND_END_MODULE_GLOBALS(redislock_zk)

static ZEND_DECLARE_MODULE_GLOBALS(redislock_zk)
#define ZKG(v) ZEND_MODULE_GLOBALS_ACCESSOR(redislock_zk, v)

/* {{{ Checks */

/* Whether s (len bytes) is one path segment ZooKeeper accepts as it is: not
 * empty, not "." or "..", no "/", no control character. */
static bool segment_valid(const char *s, size_t len)
{
    if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.')) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) s[i];
        if (c == '/' || c < 0x20 || c == 0x7f) {
            return false;
        }
    }
    return true;
}

/* Whether s is an absolute node path other than "/": "/a" or "/a/b", each
 * segment valid. */
static bool path_valid(const char *s, size_t len)
{
    size_t start = 1;

    if (len < 2 || len > ZK_PATH_MAX || s[0] != '/') {
        return false;
    }
    for (size_t i = 1; i <= len; i++) {
        if (i == len || s[i] == '/') {
            if (!segment_valid(s + start, i - start)) {
                return false;
            }
            start = i + 1;
        }
    }
    return true;
}

/* Whether s is a connect string: host:port[,host:port...][/chroot], hosts
 * being names, IPv4 addresses or [IPv6] addresses. */
static bool hosts_valid(const char *s, size_t len)
{
    const char *end = memchr(s, '/', len), *p = s;

    if (len == 0 || len > ZK_PATH_MAX || (end && !path_valid(end, len - (size_t) (end - s)))) {
        return false;
    }
    end = end ? end : s + len;
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t) (end - p)), *item_end = comma ? comma : end;
        const char *colon = item_end; /* just after the last ':' */
        size_t digits;
        zend_long port;

        while (colon > p && colon[-1] != ':') {
            colon--;
        }
        digits = (size_t) (item_end - colon);
        if (colon <= p + 1 || digits < 1 || digits > 5 || strspn(colon, "0123456789") < digits) {
            return false;
        }
        port = ZEND_STRTOL(colon, NULL, 10);
        if (port < 1 || port > 65535) {
            return false;
        }
        colon--;
        for (const char *h = p; h < colon; h++) {
            if (!isalnum((unsigned char) *h) && !strchr(".-_:[]", *h)) {
                return false;
            }
        }
        p = comma ? comma + 1 : end;
        if (comma && p == end) {
            return false;
        }
    }
    return true;
}

/* }}} */

/* {{{ INI */

static ZEND_INI_MH(OnUpdateZkHosts)
{
    if (!hosts_valid(ZSTR_VAL(new_value), ZSTR_LEN(new_value))) {
        php_error_docref(NULL, E_WARNING, "%s must be a ZooKeeper connect string (host:port[,host:port...][/chroot])",
                         ZSTR_VAL(entry->name));
        return FAILURE;
    }
    return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

static ZEND_INI_MH(OnUpdateZkTimeout)
{
    const char *s = ZSTR_VAL(new_value);
    size_t digits = strspn(s, "0123456789");
    zend_long v = digits > 0 && digits <= 7 && digits == ZSTR_LEN(new_value) ? ZEND_STRTOL(s, NULL, 10) : 0;

    if (v < 1 || v > REDISLOCK_TIMEOUT_MAX) {
        php_error_docref(NULL, E_WARNING, "%s must be an integer between 1 and %d", ZSTR_VAL(entry->name),
                         REDISLOCK_TIMEOUT_MAX);
        return FAILURE;
    }
    return OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

PHP_INI_BEGIN()
    STD_PHP_INI_ENTRY("redislock.zookeeper_hosts", "127.0.0.1:2181", PHP_INI_ALL, OnUpdateZkHosts, hosts,
                      zend_redislock_zk_globals, redislock_zk_globals)
    STD_PHP_INI_ENTRY("redislock.zookeeper_session_timeout", "10000", PHP_INI_ALL, OnUpdateZkTimeout,
                      session_timeout, zend_redislock_zk_globals, redislock_zk_globals)
PHP_INI_END()

void redislock_zk_ini_register(int module_number)
{
#ifdef ZTS
    ts_allocate_id(&redislock_zk_globals_id, sizeof(zend_redislock_zk_globals), NULL, NULL);
#endif
    zend_register_ini_entries(ini_entries, module_number);
}

/* }}} */

/* {{{ $options */

typedef struct zk_options {
    zend_string *hosts, *root;
    zend_long session_timeout, connect_timeout;
    bool auto_release;
} zk_options;

/* Checks one value's type, throwing a TypeError naming the option. */
static bool option_type(zval *val, const char *key, uint32_t arg_num, int type, const char *type_name)
{
    bool ok = type == _IS_BOOL ? (Z_TYPE_P(val) == IS_TRUE || Z_TYPE_P(val) == IS_FALSE) : Z_TYPE_P(val) == type;

    if (!ok) {
        zend_argument_type_error(arg_num, "option \"%s\" must be of type %s, %s given", key, type_name,
                                 zend_zval_type_name(val));
    }
    return ok;
}

/* Applies key => val to *o; throws and returns false on bad input. */
static bool apply_option(zk_options *o, const char *key, zval *val, uint32_t arg_num)
{
    if (strcmp(key, "hosts") == 0 || strcmp(key, "root") == 0) {
        bool hosts = key[0] == 'h';
        if (!option_type(val, key, arg_num, IS_STRING, "string")) {
            return false;
        }
        if (hosts ? !hosts_valid(Z_STRVAL_P(val), Z_STRLEN_P(val)) : !path_valid(Z_STRVAL_P(val), Z_STRLEN_P(val))) {
            zend_argument_value_error(arg_num, hosts ? "option \"hosts\" must be a ZooKeeper connect string "
                                      "(host:port[,host:port...][/chroot])" : "option \"root\" must be an absolute "
                                      "node path such as \"/redislock\"");
            return false;
        }
        *(hosts ? &o->hosts : &o->root) = Z_STR_P(val);
        return true;
    }
    if (strcmp(key, "session_timeout") == 0 || strcmp(key, "connect_timeout") == 0) {
        if (!option_type(val, key, arg_num, IS_LONG, "int")) {
            return false;
        }
        if (Z_LVAL_P(val) < 1 || Z_LVAL_P(val) > REDISLOCK_TIMEOUT_MAX) {
            zend_argument_value_error(arg_num, "option \"%s\" must be between 1 and %d", key, REDISLOCK_TIMEOUT_MAX);
            return false;
        }
        *(key[0] == 's' ? &o->session_timeout : &o->connect_timeout) = Z_LVAL_P(val);
        return true;
    }
    if (strcmp(key, "auto_release") == 0) {
        if (!option_type(val, key, arg_num, _IS_BOOL, "bool")) {
            return false;
        }
        o->auto_release = Z_TYPE_P(val) == IS_TRUE;
        return true;
    }
    zend_argument_value_error(arg_num, "contains unknown option \"%s\"", key);
    return false;
}

int redislock_zk_settings_init(redislock_zk_lock *l, const zend_string *name, HashTable *options,
                               uint32_t arg_num)
{
    zk_options o = { NULL, NULL, ZKG(session_timeout), REDISLOCK_G(defaults).connect_timeout,
                     REDISLOCK_G(defaults).auto_release };
    zend_string *key;
    zval *val;

    if (!segment_valid(ZSTR_VAL(name), ZSTR_LEN(name)) || ZSTR_LEN(name) > ZK_NAME_MAX) {
        zend_argument_value_error(1, "must be one ZooKeeper path segment: not empty, at most %d bytes, "
                                  "no \"/\", no control character, not \".\" or \"..\"", ZK_NAME_MAX);
        return REDISLOCK_ERR;
    }
    if (options) {
        ZEND_HASH_FOREACH_STR_KEY_VAL(options, key, val) {
            if (!key || memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key))) {
                zend_argument_value_error(arg_num, "must only have string keys (option names)");
                return REDISLOCK_ERR;
            }
            ZVAL_DEREF(val);
            if (!apply_option(&o, ZSTR_VAL(key), val, arg_num)) {
                return REDISLOCK_ERR;
            }
        } ZEND_HASH_FOREACH_END();
    }
    l->hosts = o.hosts ? estrndup(ZSTR_VAL(o.hosts), ZSTR_LEN(o.hosts)) : estrdup(ZKG(hosts));
    spprintf(&l->parent, 0, "%s/%s", o.root ? ZSTR_VAL(o.root) : REDISLOCK_ZK_DEFAULT_ROOT, ZSTR_VAL(name));
    l->session_timeout = o.session_timeout;
    l->connect_timeout = o.connect_timeout;
    l->auto_release = o.auto_release;
    return REDISLOCK_OK;
}

/* }}} */

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
