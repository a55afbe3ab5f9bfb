/*
 * The fair wait strategy (one server, fair mode): waiters get the lock in
 * arrival order (see wait_fair.c).
 */
#ifndef REDISLOCK_WAIT_FAIR_H
#define REDISLOCK_WAIT_FAIR_H

#include "engine/wait.h"

extern const redislock_wait_ops redislock_wait_fair;

#endif /* REDISLOCK_WAIT_FAIR_H */
