/*
 * The settings of RedisLock\ZooKeeperLock (see zookeeper/zk_config.h): the
 * table made from their list, the checks of a connect string, a root node
 * and a lock name, each reporting what is wrong as a message, and how the
 * checked settings make a lock. Nothing here reads a PHP value or throws:
 * the INI entries are php/ini.c's, the reading of $options php/options.c's.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

/* Built --with-zookeeper only (see config.m4). */
#ifdef HAVE_REDISLOCK_ZOOKEEPER

#include "php.h"
#include "zookeeper/zk_config.h"

#include <ctype.h>
#include <string.h>

#define TABLE_ENTRY(n, t, lo, hi, src, def) REDISLOCK_SETTING_ENTRY(redislock_zk_config, n, t, lo, hi)

const redislock_setting redislock_zk_config_table[] = {
    REDISLOCK_ZK_CONFIG(TABLE_ENTRY)
    { NULL, 0, REDISLOCK_SETTING_BOOL, NULL, 0, 0, 0 },
};

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

    if (len < 2 || len > REDISLOCK_ZK_PATH_MAX || s[0] != '/') {
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

    if (len == 0 || len > REDISLOCK_ZK_PATH_MAX || (end && !path_valid(end, len - (size_t) (end - s)))) {
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

int redislock_zk_config_check_hosts(const char *s, size_t len, char *err, size_t errlen)
{
    if (!hosts_valid(s, len)) {
        snprintf(err, errlen, "must be a ZooKeeper connect string (host:port[,host:port...][/chroot])");
        return REDISLOCK_ERR;
    }
    return REDISLOCK_OK;
}

int redislock_zk_config_check_root(const char *s, size_t len, char *err, size_t errlen)
{
    if (!path_valid(s, len)) {
        snprintf(err, errlen, "must be an absolute node path such as \"/redislock\"");
        return REDISLOCK_ERR;
    }
    return REDISLOCK_OK;
}

int redislock_zk_config_check_name(const char *s, size_t len, char *err, size_t errlen)
{
    if (!segment_valid(s, len) || len > REDISLOCK_ZK_NAME_MAX) {
        snprintf(err, errlen, "must be one ZooKeeper path segment: not empty, at most %d bytes, no \"/\", no "
                 "control character, not \".\" or \"..\"", REDISLOCK_ZK_NAME_MAX);
        return REDISLOCK_ERR;
    }
    return REDISLOCK_OK;
}

void redislock_zk_config_apply(redislock_zk_lock *l, const redislock_zk_config *c, const zend_string *name)
{
    l->hosts = estrndup(ZSTR_VAL(c->hosts), ZSTR_LEN(c->hosts));
    spprintf(&l->parent, 0, "%s/%s", c->root ? ZSTR_VAL(c->root) : REDISLOCK_ZK_DEFAULT_ROOT, ZSTR_VAL(name));
    l->session_timeout = c->session_timeout;
    l->connect_timeout = c->connect_timeout;
    l->auto_release = c->auto_release;
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
