/*
 * The settings of RedisLock\ZooKeeperLock, written once: the list below
 * gives each its option name, type, range and where its value comes from
 * when the constructor's $options do not give it. From it come the fields
 * of redislock_zk_config, its table (the same kind as RedisLock's, see
 * config/settings.h), its INI entries (php/ini.c) and the reading of
 * $options (php/options.c). Adding a setting is one line in the list.
 *
 * The checks report what is wrong as a status and a message; the PHP
 * binding raises.
 */
#ifndef REDISLOCK_ZOOKEEPER_CONFIG_H
#define REDISLOCK_ZOOKEEPER_CONFIG_H

#include "php.h"
#include "config/settings.h"
#include "zookeeper/zk_lock.h"

#define REDISLOCK_ZK_DEFAULT_ROOT "/redislock"
#define REDISLOCK_ZK_PATH_MAX 1024 /* longest root or connect string accepted */
#define REDISLOCK_ZK_NAME_MAX 255  /* longest lock name */

/* X(name, type, min, max, source, INI default). The types are those of
 * config/settings.h, and:
 *   ZK_HOSTS  a connect string: host:port[,host:port...][/chroot]   zend_string *
 *   ZK_ROOT   an absolute node path other than "/"                  zend_string * (NULL: the default)
 * The sources, where the value comes from when $options do not give it:
 *   INI     its own INI entry, redislock.zookeeper_<name>, with that default
 *   SHARED  RedisLock's INI entry of the same name, redislock.<name> (its
 *           default is in RedisLock's list)
 *   FIXED   that default, never set by INI
 */
#define REDISLOCK_ZK_CONFIG(X) \
    X(hosts,           ZK_HOSTS, 0, 0,                     INI,    "127.0.0.1:2181") \
    X(root,            ZK_ROOT,  0, 0,                     FIXED,  REDISLOCK_ZK_DEFAULT_ROOT) \
    X(session_timeout, LONG,     1, REDISLOCK_TIMEOUT_MAX, INI,    "10000") \
    X(connect_timeout, LONG,     1, REDISLOCK_TIMEOUT_MAX, SHARED, "") \
    X(auto_release,    BOOL,     0, 1,                     SHARED, "")

#define REDISLOCK_SETTING_C_ZK_HOSTS zend_string *
#define REDISLOCK_SETTING_C_ZK_ROOT zend_string *
#define REDISLOCK_SETTING_KIND_ZK_HOSTS REDISLOCK_SETTING_STRING, redislock_zk_config_check_hosts
#define REDISLOCK_SETTING_KIND_ZK_ROOT REDISLOCK_SETTING_STRING, redislock_zk_config_check_root

/* The settings of one ZooKeeperLock: a field a setting (strings borrowed
 * while the lock is made). */
#define REDISLOCK_ZK_CONFIG_FIELD(n, t, lo, hi, src, def) REDISLOCK_SETTING_FIELD(n, t)
typedef struct redislock_zk_config {
    REDISLOCK_ZK_CONFIG(REDISLOCK_ZK_CONFIG_FIELD)
} redislock_zk_config;

/* The table of the list, ended by an entry whose name is NULL. */
extern const redislock_setting redislock_zk_config_table[];

/* The checks of ZK_HOSTS, ZK_ROOT and of a lock name (one path segment, at
 * most REDISLOCK_ZK_NAME_MAX bytes): REDISLOCK_OK, or REDISLOCK_ERR with
 * what the value must be in err ("must be ..."). */
int redislock_zk_config_check_hosts(const char *s, size_t len, char *err, size_t errlen);
int redislock_zk_config_check_root(const char *s, size_t len, char *err, size_t errlen);
int redislock_zk_config_check_name(const char *s, size_t len, char *err, size_t errlen);

/* Gives l the settings c (checked) for the lock name (checked): its connect
 * string, its parent node <root>/<name>, its timeouts. */
void redislock_zk_config_apply(redislock_zk_lock *l, const redislock_zk_config *c, const zend_string *name);

#endif /* REDISLOCK_ZOOKEEPER_CONFIG_H */
