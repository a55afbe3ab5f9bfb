/*
 * A semaphore hold's renewals in the background (the keepalive setting,
 * see engine/semaphore.h and engine/keepalive.h): started at a grant,
 * polled by the object's calls, stopped at its release; and the
 * operations the binding calls, which keep them in step (semaphore.c, below,
 * never calls here).
 */
#include "php_redislock.h"
#include "engine/semaphore.h"
#include "engine/lock.h"
#include "base/clock.h"

#include <stdio.h>

/* Adds what the renewals told to the counters. */
static void keepalive_count(const redislock_keepalive_news *news)
{
    REDISLOCK_G(stats).keepalive_renewals += news->renewals;
    REDISLOCK_G(stats).keepalive_lost += news->losses;
}

void redislock_semaphore_keepalive_start(redislock_semaphore *s)
{
    const redislock_settings *set = &s->prim.settings;
    redislock_semaphore_lease lease;
    redislock_keepalive_news news;
    redislock_keepalive_spec spec = {
        .count = 1,
        .quorum = 1,
        .nkeys = 3,
        .argc = 5,
        .ttl_ms = (uint64_t) set->ttl,
        .max_hold_ms = (uint64_t) set->max_hold,
        .granted = redislock_now_us(),
        .owner = &REDISLOCK_G(stats),
    };
    char ttl[24];

    if (s->keepalive) {
        redislock_keepalive_stop(s->keepalive, &news);
        news.losses = 0; /* a loss its last renewal saw is moot: granted again */
        keepalive_count(&news);
        s->keepalive = NULL;
    }
    if (!set->keepalive || !redislock_semaphore_lease_of(s, &lease)) {
        return;
    }
    spec.sha = lease.script->sha;
    spec.body = lease.script->body;
    spec.body_len = lease.script->len;
    spec.argv[0] = ZSTR_VAL(lease.holder);
    spec.lens[0] = ZSTR_LEN(lease.holder);
    spec.argv[1] = ZSTR_VAL(lease.holds);
    spec.lens[1] = ZSTR_LEN(lease.holds);
    spec.argv[2] = ZSTR_VAL(lease.permits);
    spec.lens[2] = ZSTR_LEN(lease.permits);
    spec.argv[3] = lease.member;
    spec.lens[3] = lease.member_len;
    spec.argv[4] = ttl;
    spec.lens[4] = (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, lease.ttl);
    spec.targets[0] = redislock_keepalive_target(&set->servers->server[0], ZSTR_VAL(lease.holds),
                                                 ZSTR_LEN(lease.holds), (int) set->connect_timeout,
                                                 (int) set->read_timeout);
    s->keepalive = redislock_keepalive_start(&spec);
}

void redislock_semaphore_keepalive_sync(redislock_semaphore *s)
{
    redislock_keepalive_news news;

    if (!s->keepalive) {
        return;
    }
    if (!redislock_semaphore_holding(s)) {
        redislock_semaphore_keepalive_stop(s);
        return;
    }
    redislock_keepalive_poll(s->keepalive, &news);
    keepalive_count(&news);
    if (news.lost) {
        /* Gone from the server (its permits with it): nothing to release. */
        redislock_semaphore_over(s);
        redislock_semaphore_keepalive_stop(s);
    } else if (news.renewed_at) {
        s->valid_until = redislock_lock_validity_end(news.renewed_at, s->prim.settings.ttl);
    }
}

void redislock_semaphore_keepalive_stop(redislock_semaphore *s)
{
    redislock_keepalive_news news;

    if (!s->keepalive) {
        return;
    }
    redislock_keepalive_stop(s->keepalive, &news);
    keepalive_count(&news);
    if (news.renewed_at && !news.lost) {
        /* A later validity, for a plain release right after (plain_release()). */
        s->valid_until = redislock_lock_validity_end(news.renewed_at, s->prim.settings.ttl);
    }
    s->keepalive = NULL;
}

/* {{{ The operations on a hold, with its renewals kept in step */

int redislock_semaphore_keepalive_acquire(redislock_semaphore *s, zend_long wait_ms, bool *acquired)
{
    int rc;

    redislock_semaphore_keepalive_sync(s);
    rc = redislock_semaphore_acquire(s, wait_ms, acquired);
    if (*acquired) {
        redislock_semaphore_keepalive_start(s);
    } else if (!redislock_semaphore_holding(s)) {
        redislock_semaphore_keepalive_stop(s);
    }
    return rc;
}

int redislock_semaphore_keepalive_release(redislock_semaphore *s, bool *released)
{
    redislock_semaphore_keepalive_stop(s);
    return redislock_semaphore_release(s, released);
}

int redislock_semaphore_keepalive_extend(redislock_semaphore *s, zend_long ttl, bool *extended)
{
    redislock_semaphore_keepalive_sync(s);
    return redislock_semaphore_extend(s, ttl, extended);
}

int redislock_semaphore_keepalive_check(redislock_semaphore *s, bool *held)
{
    redislock_semaphore_keepalive_sync(s);
    return redislock_semaphore_check(s, held);
}

void redislock_semaphore_keepalive_dtor(redislock_semaphore *s)
{
    redislock_semaphore_keepalive_stop(s);
    redislock_semaphore_dtor(s);
}

/* }}} */
