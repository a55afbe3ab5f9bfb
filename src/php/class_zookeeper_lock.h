/*
 * RedisLock\ZooKeeperLock as the module sees it: its hooks in the module's
 * life cycle. Built only when configured --with-zookeeper
 * (HAVE_REDISLOCK_ZOOKEEPER); without it the hooks do nothing, and neither
 * the class nor its INI entries exist.
 */
#ifndef REDISLOCK_ZOOKEEPER_H
#define REDISLOCK_ZOOKEEPER_H

#include "php.h"

#ifdef HAVE_REDISLOCK_ZOOKEEPER

/* MINIT, after the interface RedisLock\Lock: the class and its INI entries. */
void redislock_zk_minit(int module_number);

/* MSHUTDOWN: closes this process's ZooKeeper sessions. */
void redislock_zk_mshutdown(void);

/* RSHUTDOWN: releases the request's locks that are due a release (see
 * auto_release) and deletes the nodes left by earlier failures. */
void redislock_zk_request_end(void);

/* phpinfo(): the client library and this process's sessions. */
void redislock_zk_minfo(void);

#else
# define redislock_zk_minit(module_number) ((void) (module_number))
# define redislock_zk_mshutdown() ((void) 0)
# define redislock_zk_request_end() ((void) 0)
# define redislock_zk_minfo() ((void) 0)
#endif

#endif /* REDISLOCK_ZOOKEEPER_H */
