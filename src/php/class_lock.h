/*
 * The RedisLock class as the module sees it: registered in MINIT, after the
 * interface RedisLock\Lock (exceptions.h). Its objects' holds end with the
 * request through the registry of holds (holds.h).
 */
#ifndef REDISLOCK_CLASS_LOCK_H
#define REDISLOCK_CLASS_LOCK_H

/* Registers RedisLock, and its holds with the registry (MINIT). */
void redislock_class_lock_register(void);

#endif /* REDISLOCK_CLASS_LOCK_H */
