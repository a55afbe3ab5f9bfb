/*
 * RedisLock\ZooKeeperLock as the module sees it: its hooks in the module's
 * life cycle. Its objects' holds end with the request through the registry
 * of holds (holds.h). Built only when configured --with-zookeeper
 * (HAVE_REDISLOCK_ZOOKEEPER); without it the hooks do nothing, and neither
 * the class nor its INI entries exist.
 */
#ifndef REDISLOCK_CLASS_ZOOKEEPER_LOCK_H
#define REDISLOCK_CLASS_ZOOKEEPER_LOCK_H

#include "php.h"

#ifdef HAVE_REDISLOCK_ZOOKEEPER

/* MINIT, after the interface RedisLock\Lock: the class, its INI entries,
 * and its holds with the registry. */
void redislock_class_zookeeper_lock_minit(int module_number);

/* MSHUTDOWN: closes this process's ZooKeeper sessions. */
void redislock_class_zookeeper_lock_mshutdown(void);

/* phpinfo(): the client library and this process's sessions. */
void redislock_class_zookeeper_lock_minfo(void);

#else
# define redislock_class_zookeeper_lock_minit(module_number) ((void) (module_number))
# define redislock_class_zookeeper_lock_mshutdown() ((void) 0)
# define redislock_class_zookeeper_lock_minfo() ((void) 0)
#endif

#endif /* REDISLOCK_CLASS_ZOOKEEPER_LOCK_H */
