/*
 * The process's own state (see base/process.h): the cached pid and the
 * block of random bytes, both renewed in a child made by fork().
 */
#include "php.h"
#include "base/process.h"

#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include <pthread.h>
#include <string.h>
#include <unistd.h>

static pid_t cached_pid;

#ifndef ZTS
/* Random bytes drawn from the system a block at a time (one getrandom()
 * for sixteen tokens, not one each), handed out once each and wiped. */
# define RANDOM_BLOCK 256
static unsigned char random_block[RANDOM_BLOCK];
static size_t random_left;
#endif

/* Refreshes the cached pid in a child made by fork(), which also drops the
 * random bytes it inherited: parent and child never hand out the same. */
static void pid_after_fork(void)
{
    cached_pid = getpid();
#ifndef ZTS
    ZEND_SECURE_ZERO(random_block, sizeof(random_block));
    random_left = 0;
#endif
}

int redislock_process_random(unsigned char *out, size_t n)
{
#ifndef ZTS
    if (n <= RANDOM_BLOCK) {
        unsigned char *from;
        if (random_left < n) {
            if (php_random_bytes(random_block, RANDOM_BLOCK, false) == FAILURE) {
                return FAILURE;
            }
            random_left = RANDOM_BLOCK;
        }
        from = random_block + RANDOM_BLOCK - random_left;
        memcpy(out, from, n);
        ZEND_SECURE_ZERO(from, n);
        random_left -= n;
        return SUCCESS;
    }
#endif
    return php_random_bytes(out, n, false);
}

void redislock_process_pid_init(void)
{
    static bool registered;

    cached_pid = getpid();
    if (!registered) {
        pthread_atfork(NULL, NULL, pid_after_fork);
        registered = true;
    }
}

pid_t redislock_process_pid(void)
{
    return cached_pid;
}
