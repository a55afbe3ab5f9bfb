/*
 * What belongs to the process rather than to a connection or a lock: its
 * pid, cached and kept right across fork(), and the random bytes that
 * tokens, waiter ids and ZooKeeper guids are made of, which a forked child
 * never shares with its parent.
 */
#ifndef REDISLOCK_PROCESS_H
#define REDISLOCK_PROCESS_H

#include "php.h"
#include <sys/types.h>

/* The pid of this process, cached (kept right across fork() by an atfork
 * handler that redislock_process_pid_init(), called from MINIT, installs). */
void redislock_process_pid_init(void);
pid_t redislock_process_pid(void);

/* n random bytes from the system's CSPRNG (php_random_bytes(), never
 * throwing), drawn in blocks per process (NTS builds). FAILURE when the
 * system has none to give: a caller that cannot do without records an
 * error of kind REDISLOCK_E_RANDOM. */
int redislock_process_random(unsigned char *out, size_t n);

#endif /* REDISLOCK_PROCESS_H */
