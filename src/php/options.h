/*
 * The constructors' $options: each entry read by the settings' table (the
 * lists of config/settings.h and zookeeper/zk_config.h) over the INI
 * values, a bad one thrown as a TypeError or ValueError naming the option.
 */
#ifndef REDISLOCK_OPTIONS_H
#define REDISLOCK_OPTIONS_H

#include "php.h"
#include "config/settings.h"

/* Fills *s from the INI values overridden by the constructor's $options
 * (argument number arg_num; may be NULL), its servers parsed with its TLS
 * settings, and returns the key prefix to use in *prefix. On bad input
 * throws (ValueError/TypeError naming the option; RedisLockException for a
 * broken INI entry) and returns REDISLOCK_ERR, leaving nothing to free. */
int redislock_options_lock(redislock_settings *s, HashTable *options, uint32_t arg_num, zend_string **prefix);

#ifdef HAVE_REDISLOCK_ZOOKEEPER
#include "zookeeper/zk_lock.h"

/* Fills l's settings for the lock name (argument 1) from the INI values
 * overridden by options (argument arg_num). On bad input throws
 * ValueError/TypeError naming the argument and returns REDISLOCK_ERR,
 * leaving nothing allocated. */
int redislock_options_zk(redislock_zk_lock *l, const zend_string *name, HashTable *options, uint32_t arg_num);
#endif

#endif /* REDISLOCK_OPTIONS_H */
