/*
 * RedisLock\RateLimiter as the module sees it: registered in MINIT.
 */
#ifndef REDISLOCK_CLASS_RATELIMITER_H
#define REDISLOCK_CLASS_RATELIMITER_H

/* Registers the class (MINIT). */
void redislock_class_ratelimiter_register(void);

#endif /* REDISLOCK_CLASS_RATELIMITER_H */
