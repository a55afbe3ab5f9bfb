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

/* Sets the state up (MINIT) and drops it (MSHUTDOWN). With MADV_WIPEONFORK
 * (Linux 4.14 and later) the state lives in a page that a child made by
 * fork() gets zeroed, and the child renews it when it first asks; elsewhere
 * every call compares getpid(). No code runs at fork time. */
void redislock_process_init(void);
void redislock_process_shutdown(void);

/* The pid of this process, cached, and right in a child made by fork(). */
pid_t redislock_process_pid(void);

/* n random bytes from the system's CSPRNG (php_random_bytes(), never
 * throwing), drawn in blocks per process (NTS builds). FAILURE when the
 * system has none to give: a caller that cannot do without records an
 * error of kind REDISLOCK_E_RANDOM. */
int redislock_process_random(unsigned char *out, size_t n);

#endif /* REDISLOCK_PROCESS_H */
