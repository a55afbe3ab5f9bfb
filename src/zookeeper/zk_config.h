/*
 * The settings of RedisLock\ZooKeeperLock: its two INI entries
 * (redislock.zookeeper_hosts, redislock.zookeeper_session_timeout) and the
 * constructor's $options, checked before anything is sent.
 */
#ifndef REDISLOCK_ZOOKEEPER_CONFIG_H
#define REDISLOCK_ZOOKEEPER_CONFIG_H

#include "php.h"
#include "zookeeper/zk_lock.h"

#define REDISLOCK_ZK_DEFAULT_ROOT "/redislock"

/* Registers the INI entries (MINIT). */
void redislock_zk_ini_register(int module_number);

/* Fills l's settings for the lock name from the INI entries overridden by
 * options (argument arg_num of the PHP call). On bad input throws
 * ValueError/TypeError naming the argument and returns REDISLOCK_ERR,
 * leaving nothing allocated. */
int redislock_zk_settings_init(redislock_zk_lock *l, const zend_string *name, HashTable *options,
                               uint32_t arg_num);

#endif /* REDISLOCK_ZOOKEEPER_CONFIG_H */
