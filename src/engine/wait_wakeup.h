/*
 * The wake-up wait strategy (one server or a quorum): blocked on the
 * servers until a release wakes us (see wait_wakeup.c).
 */
#ifndef REDISLOCK_WAIT_WAKEUP_H
#define REDISLOCK_WAIT_WAKEUP_H

#include "engine/wait.h"

extern const redislock_wait_ops redislock_wait_wakeup;

/* Frees what the process knows of how long locks stay marked as waited
 * for (at module shutdown). */
void redislock_wait_wakeup_forget(void);

#endif /* REDISLOCK_WAIT_WAKEUP_H */
