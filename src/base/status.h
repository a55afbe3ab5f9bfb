/*
 * The status every function of the extension that can fail returns, the
 * way hiredis returns REDIS_OK/REDIS_ERR: the detail of a failure is kept
 * beside it (an err/errstr buffer, a redislock_error), never in the status.
 */
#ifndef REDISLOCK_STATUS_H
#define REDISLOCK_STATUS_H

#define REDISLOCK_OK 0
#define REDISLOCK_ERR -1

#endif /* REDISLOCK_STATUS_H */
