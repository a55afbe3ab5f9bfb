/*
 * What the wait strategies share (see engine/wait.h): backoff's random
 * sleeps, how long to block, BLPOP with a command pipelined behind it.
 */
#include "php_redislock.h"
#include "engine/wait.h"
#include "base/clock.h"
#include "base/process.h"

#include <unistd.h>

/* A random delay in [cap/2, cap] microseconds. */
static uint64_t jitter(uint64_t cap)
{
    uint32_t r = 0;

    if (redislock_process_random((unsigned char *) &r, sizeof(r)) == FAILURE) {
        r = (uint32_t) redislock_now_us();
    }
    return cap / 2 + r % (cap / 2 + 1);
}

/* Sleeps a random while, capped. */
redislock_waited redislock_wait_sleep(redislock_wait *w, uint64_t at_most_us)
{
    uint64_t now = redislock_now_us(), left = now < w->deadline ? w->deadline - now : 0;

    usleep((useconds_t) MIN(jitter(w->cap), MIN(left, at_most_us)));
    w->cap = MIN(w->cap * 2, REDISLOCK_BACKOFF_MAX_US);
    return REDISLOCK_WAITED;
}

/* How long the next block may last. */
uint64_t redislock_wait_block_us(const redislock_wait *w)
{
    uint64_t now = redislock_now_us(), left = now < w->deadline ? w->deadline - now : 0;
    /* PTTL 0: the lease ends within this millisecond; -1: it has no expiry,
     * so only a release ends it. */
    uint64_t until_expiry = w->pttl >= 0 ? (uint64_t) MAX(w->pttl, 1) * 1000 : left;

    if (w->block_until) {
        left = MIN(left, now < w->block_until ? w->block_until - now : 0);
    }
    return MIN(MIN(left, until_expiry), REDISLOCK_WAIT_RECHECK_US);
}

/* BLPOP on list with after behind it, in one write. */
const redisReply *redislock_wait_blpop(redislock_lock *l, redislock_cmd *cmd, const zend_string *list,
                                       uint64_t timeout_us, const redislock_words *after, uint64_t *sent_at)
{
    redislock_netopts o = redislock_lock_netopts(l);
    char secs[32];
    const char *blpop[3] = { "BLPOP", ZSTR_VAL(list), secs };
    size_t blpop_lens[3] = { 5, ZSTR_LEN(list), 0 };
    redislock_words pipe[2] = { { 3, blpop, blpop_lens }, *after };
    const redisReply *popped;

    timeout_us = MAX(timeout_us, 1000);
    blpop_lens[2] = (size_t) snprintf(secs, sizeof(secs), "%.3f", (double) timeout_us / 1e6);
    /* The server answers when woken or when its own timeout ends, which it
     * notices on its next timer tick. */
    o.read_timeout += (zend_long) (timeout_us / 1000) + REDISLOCK_BLOCK_SLACK_MS;
    *sent_at = redislock_now_us();
    redislock_round_pipeline(&l->settings.servers->server[0], cmd, &o, pipe, 2);
    /* The wake-up, when the replies to both commands came. */
    popped = redislock_cmd_reply(cmd, 1) ? redislock_cmd_reply(cmd, 0) : NULL;
    if (popped && popped->type != REDIS_REPLY_ERROR) {
        REDISLOCK_G(stats).waits++;
    }
    return popped;
}

/* Whether to block now, or sleep instead. */
bool redislock_wait_may_block(redislock_wait *w, uint64_t *block, redislock_waited *slept)
{
    if (!w->blocking) {
        *slept = redislock_wait_sleep(w, UINT64_MAX);
        return false;
    }
    *block = redislock_wait_block_us(w);
    if (*block < REDISLOCK_BLOCK_MIN_US) {
        *slept = redislock_wait_sleep(w, *block);
        return false;
    }
    return true;
}
