/*
 * RedisLock\Semaphore as the module sees it: registered in MINIT.
 */
#ifndef REDISLOCK_CLASS_SEMAPHORE_H
#define REDISLOCK_CLASS_SEMAPHORE_H

/* Registers the class and its part in the registry of holds (MINIT). */
void redislock_class_semaphore_register(void);

#endif /* REDISLOCK_CLASS_SEMAPHORE_H */
