/*
 * The process's own state (see base/process.h): the cached pid and the
 * block of random bytes, both renewed in a child made by fork() the first
 * time the child asks for them. Nothing of this file runs at fork time: a
 * child runs none of the extension's code until it calls it, so a child
 * forked while the installed module file is being rewritten in place does
 * not run code from it (see docs/install.md).
 */
#include "php.h"
#include "base/process.h"

#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_MMAN_H
# include <sys/mman.h>
#endif

#ifndef ZTS
/* Random bytes drawn from the system a block at a time (one getrandom()
 * for sixteen tokens, not one each), handed out once each and wiped. Not
 * in a threaded (ZTS) build, where requests run on several threads at once:
 * there each draw is the system's own (getrandom() or /dev/urandom), so no
 * two threads can ever be handed the same bytes. */
# define RANDOM_BLOCK 256
#endif

/* What a forked child must not take over from its parent. */
typedef struct {
    pid_t pid; /* 0: not known yet in this process */
#ifndef ZTS
    size_t random_left;
    unsigned char random_block[RANDOM_BLOCK];
#endif
} process_state;

/* Where fork() cannot wipe the state (no MADV_WIPEONFORK: Linux before
 * 4.14, other systems), it lives here and every call compares getpid(). */
static process_state static_state;
static process_state *state = &static_state;
/* The pid that needs no getpid(): the one in the page the kernel hands a
 * forked child zeroed (MADV_WIPEONFORK), so that nonzero is this process's
 * own; without that page, no_pid, which stays 0. */
static pid_t no_pid;
static pid_t *trusted_pid = &no_pid;

/* The slow path of redislock_process_pid(): the pid from the system, and
 * when it is not the one cached (a forked child), the inherited random
 * bytes dropped, so that parent and child never hand out the same. */
static pid_t process_refresh(void)
{
    pid_t now = getpid();

    if (__atomic_load_n(&state->pid, __ATOMIC_RELAXED) != now) {
#ifndef ZTS
        ZEND_SECURE_ZERO(state->random_block, sizeof(state->random_block));
        state->random_left = 0;
#endif
        /* Under ZTS, threads of a forked child may all get here: they
         * store the same value. */
        __atomic_store_n(&state->pid, now, __ATOMIC_RELAXED);
    }
    return now;
}

pid_t redislock_process_pid(void)
{
    pid_t pid = __atomic_load_n(trusted_pid, __ATOMIC_RELAXED);

    if (EXPECTED(pid != 0)) {
        return pid;
    }
    return process_refresh();
}

int redislock_process_random(unsigned char *out, size_t n)
{
#ifndef ZTS
    if (n <= RANDOM_BLOCK) {
        unsigned char *from;
        redislock_process_pid();
        if (state->random_left < n) {
            if (php_random_bytes(state->random_block, RANDOM_BLOCK, false) == FAILURE) {
                return FAILURE;
            }
            state->random_left = RANDOM_BLOCK;
        }
        from = state->random_block + RANDOM_BLOCK - state->random_left;
        memcpy(out, from, n);
        ZEND_SECURE_ZERO(from, n);
        state->random_left -= n;
        return SUCCESS;
    }
#endif
    return php_random_bytes(out, n, false);
}

void redislock_process_init(void)
{
#if defined(HAVE_SYS_MMAN_H) && defined(MADV_WIPEONFORK)
    if (trusted_pid == &no_pid) {
        process_state *page = mmap(NULL, sizeof(process_state), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page != MAP_FAILED) {
            if (madvise(page, sizeof(process_state), MADV_WIPEONFORK) == 0) {
                ZEND_SECURE_ZERO(&static_state, sizeof(static_state));
                state = page;
                trusted_pid = &page->pid;
            } else {
                munmap(page, sizeof(process_state)); /* EINVAL: a kernel before 4.14 */
            }
        }
    }
#endif
    redislock_process_pid();
}

void redislock_process_shutdown(void)
{
    ZEND_SECURE_ZERO(state, sizeof(*state));
#if defined(HAVE_SYS_MMAN_H) && defined(MADV_WIPEONFORK)
    if (trusted_pid != &no_pid) {
        trusted_pid = &no_pid;
        munmap(state, sizeof(process_state));
        state = &static_state;
    }
#endif
}
