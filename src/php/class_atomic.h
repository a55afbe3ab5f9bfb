/*
 * RedisLock\Atomic as the module sees it: registered in MINIT.
 */
#ifndef REDISLOCK_CLASS_ATOMIC_H
#define REDISLOCK_CLASS_ATOMIC_H

/* Registers the class (MINIT). */
void redislock_class_atomic_register(void);

#endif /* REDISLOCK_CLASS_ATOMIC_H */
