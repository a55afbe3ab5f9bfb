/*
 * Keepalive leases (see engine/keepalive.h): the process's registry, its
 * thread, and when and how a lease is renewed.
 *
 * The thread runs no PHP code and touches nothing of PHP's: it reads the
 * leases' specs (fixed once started), writes their state under the
 * registry's mutex, and talks to the servers through connections of its
 * own (client/keepalive_conn.h) with the mutex released.
 */
#include "engine/keepalive.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/process.h"
#include "base/slot.h"
#include "config/topology.h"

redislock_keepalive_conn_target *redislock_keepalive_target(const redislock_server *srv, const char *key, size_t len,
                                                            int connect_timeout, int read_timeout)
{
    redislock_topology *topo = srv->topo;
    const redislock_server *node = srv;
    uint16_t at;

    if (srv->kind == REDISLOCK_SERVER_SENTINEL) {
        node = topo->pin ? topo->pin : topo->node;
    } else if (srv->kind == REDISLOCK_SERVER_CLUSTER) {
        at = topo->slots ? topo->slots[redislock_slot_of(key, len)] : 0;
        node = at ? topo->nodes[at - 1] : NULL;
    }
    return node ? redislock_keepalive_conn_target_new(node, connect_timeout, read_timeout) : NULL;
}

#ifndef _WIN32
# include <pthread.h>
# include <signal.h>

#define KEEPALIVE_STACK (512 * 1024) /* the thread's: name resolution and a TLS handshake fit */
#define KEEPALIVE_TICK_MIN_US 1000   /* renewals never closer than this */

typedef enum lease_state {
    LEASE_ACTIVE, /* renewed at its ticks */
    LEASE_LOST,   /* a renewal found it gone */
    LEASE_DONE,   /* past max_hold: no more renewals */
} lease_state;

typedef struct registry registry;

/* The thread's connections, one per distinct target. */
typedef struct conn_slot {
    redislock_keepalive_conn_target *target;
    redislock_keepalive_conn *conn;
} conn_slot;

typedef struct conn_cache {
    conn_slot *slots;
    size_t n, cap;
} conn_cache;

struct redislock_keepalive_lease {
    registry *reg;                 /* fixed: the registry of the process that started it */
    pid_t pid;                     /* fixed: that process */
    redislock_keepalive_spec spec; /* fixed; argv points into args */
    char *args;
    redislock_keepalive_lease *prev, *next; /* the registry's list, while its holder keeps it */
    /* Under the registry's mutex: */
    lease_state state;
    bool busy;                     /* the thread renews it now, with the mutex released */
    bool forgotten;                /* stopped while busy: the thread frees it */
    uint64_t due, stop_at;         /* next renewal; no renewal from then on (monotonic us) */
    uint64_t renewed_at;           /* when the last renewal left */
    bool renewed_new;              /* ... and it was not told yet */
    uint32_t renewals;             /* not told yet */
    bool loss_untold;
};

struct registry {
    pid_t pid;
    pthread_mutex_t mutex;
    pthread_cond_t cond;           /* on the monotonic clock: a lease added or stopped, quit */
    pthread_t thread;
    bool started, quit;
    redislock_keepalive_lease *leases;
    registry *inherited;           /* a parent's, kept as it was and never touched (see keepalive.h) */
    conn_cache cache;              /* the thread's own (kept here, not on its stack: a forked child's copy
                                    * of a parent's stays reachable, not a leak) */
};

/* The registry of the process (a forked child finds its parent's here
 * until it makes its own). */
static registry *current;

/* {{{ The registry */

/* A new registry for this process, or NULL. */
static registry *registry_new(registry *inherited)
{
    registry *r = calloc(1, sizeof(*r));
    pthread_condattr_t attr;

    if (!r) {
        return NULL;
    }
    r->pid = redislock_process_pid();
    r->inherited = inherited;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (pthread_mutex_init(&r->mutex, NULL) != 0 || pthread_cond_init(&r->cond, &attr) != 0) {
        pthread_condattr_destroy(&attr);
        free(r);
        return NULL;
    }
    pthread_condattr_destroy(&attr);
    return r;
}

static void registry_free(registry *r)
{
    pthread_mutex_destroy(&r->mutex);
    pthread_cond_destroy(&r->cond);
    free(r);
}

/* This process's registry; with create, made when there is none (a forked
 * child keeps its parent's reachable but never uses it). NULL: none. */
static registry *registry_mine(bool create)
{
    registry *r = __atomic_load_n(&current, __ATOMIC_ACQUIRE), *made;
    pid_t pid = redislock_process_pid();

    while (!r || r->pid != pid) {
        if (!create || !(made = registry_new(r))) {
            return NULL;
        }
        if (__atomic_compare_exchange_n(&current, &r, made, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            return made;
        }
        registry_free(made); /* another PHP thread made one first: r is it */
    }
    return r;
}

static void lease_free(redislock_keepalive_lease *l)
{
    for (uint32_t i = 0; i < l->spec.count; i++) {
        redislock_keepalive_conn_target_free(l->spec.targets[i]);
    }
    free(l->args);
    free(l);
}

/* }}} */

/* {{{ The thread's connections */

/* The slot of cache for t, its connection opened now if needed (it may
 * stay NULL), or -1 (out of memory). */
static long cache_slot(conn_cache *cache, const redislock_keepalive_conn_target *t)
{
    size_t i;

    for (i = 0; i < cache->n; i++) {
        if (redislock_keepalive_conn_target_same(cache->slots[i].target, t)) {
            break;
        }
    }
    if (i == cache->n) {
        if (cache->n == cache->cap) {
            size_t cap = cache->cap ? cache->cap * 2 : 4;
            conn_slot *slots = realloc(cache->slots, cap * sizeof(*slots));
            if (!slots) {
                return -1;
            }
            cache->slots = slots;
            cache->cap = cap;
        }
        if (!(cache->slots[i].target = redislock_keepalive_conn_target_dup(t))) {
            return -1;
        }
        cache->slots[i].conn = NULL;
        cache->n++;
    }
    if (!cache->slots[i].conn) {
        cache->slots[i].conn = redislock_keepalive_conn_open(t);
    }
    return (long) i;
}

/* Closes every connection of cache (nothing is held any more). */
static void cache_close(conn_cache *cache)
{
    for (size_t i = 0; i < cache->n; i++) {
        redislock_keepalive_conn_close(cache->slots[i].conn);
        redislock_keepalive_conn_target_free(cache->slots[i].target);
    }
    free(cache->slots);
    memset(cache, 0, sizeof(*cache));
}

/* }}} */

/* {{{ A renewal */

/* The end of the validity of a lease of ttl_ms that left at start: the
 * ttl less the clock drift allowance, as engine/lock.c counts it. */
static uint64_t validity_end(uint64_t start, uint64_t ttl_ms)
{
    uint64_t lease = ttl_ms * 1000, drift = ttl_ms * 10 + 2000;

    return lease > drift ? start + lease - drift : start;
}

/* One server's answer to a renewal: what it replied (res, v), judged. */
static redislock_keepalive_answer answer(const redislock_keepalive_spec *s, redislock_keepalive_conn_result res,
                                         long long v)
{
    if (res != REDISLOCK_KEEPALIVE_CONN_INTEGER) {
        return REDISLOCK_KEEPALIVE_UNKNOWN; /* unreachable, READONLY after a failover, ...: the next tick */
    }
    if (s->judge) {
        return s->judge(v);
    }
    return v == 1 ? REDISLOCK_KEEPALIVE_RENEWED : v == 0 ? REDISLOCK_KEEPALIVE_GONE : REDISLOCK_KEEPALIVE_UNKNOWN;
}

/* Renews l on its servers, the mutex released: renewed when a quorum
 * renewed it within the validity of the lease it set, gone when too few
 * could, unknown otherwise. The renewal goes to every server before any
 * reply is waited for (the connections missing are opened first, one
 * after another). *start: when it left. */
static redislock_keepalive_answer renew(const redislock_keepalive_lease *l, conn_cache *cache, uint64_t *start)
{
    const redislock_keepalive_spec *s = &l->spec;
    const redislock_keepalive_conn_call call = { s->sha, s->body, s->body_len, s->nkeys, s->argc, s->argv, s->lens };
    redislock_keepalive_conn **conns[REDISLOCK_MAX_SERVERS];
    redislock_keepalive_conn_result res[REDISLOCK_MAX_SERVERS];
    long long v[REDISLOCK_MAX_SERVERS];
    long at[REDISLOCK_MAX_SERVERS];
    uint32_t yes = 0, gone = 0;

    *start = redislock_now_us();
    for (uint32_t i = 0; i < s->count; i++) {
        at[i] = s->targets[i] ? cache_slot(cache, s->targets[i]) : -1;
    }
    /* Pointers into the slots once they are all there (adding one may move them). */
    for (uint32_t i = 0; i < s->count; i++) {
        conns[i] = at[i] >= 0 ? &cache->slots[at[i]].conn : NULL;
    }
    redislock_keepalive_conn_script_all(conns, s->count, &call, res, v);
    for (uint32_t i = 0; i < s->count; i++) {
        redislock_keepalive_answer a = answer(s, res[i], v[i]);
        yes += a == REDISLOCK_KEEPALIVE_RENEWED;
        gone += a == REDISLOCK_KEEPALIVE_GONE;
    }
    if (yes >= s->quorum) {
        /* Late, the lease may have run out meanwhile on some of them. */
        return redislock_now_us() < validity_end(*start, s->ttl_ms) ? REDISLOCK_KEEPALIVE_RENEWED
                                                                     : REDISLOCK_KEEPALIVE_GONE;
    }
    return s->count - gone < s->quorum ? REDISLOCK_KEEPALIVE_GONE : REDISLOCK_KEEPALIVE_UNKNOWN;
}

/* Records what the renewal of l that left at start found (mutex held),
 * and schedules the next tick on the grid of the grant. */
static void renewed(redislock_keepalive_lease *l, redislock_keepalive_answer a, uint64_t start)
{
    uint64_t tick = MAX(l->spec.ttl_ms * 1000 / 3, KEEPALIVE_TICK_MIN_US), now = redislock_now_us();

    if (a == REDISLOCK_KEEPALIVE_RENEWED) {
        l->renewed_at = start;
        l->renewed_new = true;
        l->renewals++;
    } else if (a == REDISLOCK_KEEPALIVE_GONE) {
        l->state = LEASE_LOST;
        l->loss_untold = true;
        return;
    }
    while (l->due <= now) {
        l->due += tick;
    }
}

/* }}} */

/* {{{ The thread */

/* The active lease due first (mutex held), or NULL; past max_hold ones are
 * done on the way. */
static redislock_keepalive_lease *due_first(registry *r)
{
    redislock_keepalive_lease *first = NULL;

    for (redislock_keepalive_lease *l = r->leases; l; l = l->next) {
        if (l->state == LEASE_ACTIVE && l->due >= l->stop_at) {
            l->state = LEASE_DONE;
        }
        if (l->state == LEASE_ACTIVE && !l->busy && (!first || l->due < first->due)) {
            first = l;
        }
    }
    return first;
}

/* Waits on r's condition until the monotonic time until (us), mutex held. */
static void wait_until(registry *r, uint64_t until)
{
    struct timespec ts = { .tv_sec = (time_t) (until / 1000000), .tv_nsec = (long) (until % 1000000) * 1000 };

    pthread_cond_timedwait(&r->cond, &r->mutex, &ts);
}

static void *thread_main(void *arg)
{
    registry *r = arg;
    conn_cache *cache = &r->cache;
    redislock_keepalive_lease *l;
    redislock_keepalive_answer a;
    uint64_t start;

    pthread_mutex_lock(&r->mutex);
    while (!r->quit) {
        if (!(l = due_first(r))) {
            if (cache->n) {
                /* Nothing held: no connection kept either. */
                pthread_mutex_unlock(&r->mutex);
                cache_close(cache);
                pthread_mutex_lock(&r->mutex);
                continue;
            }
            pthread_cond_wait(&r->cond, &r->mutex); /* no wake-up until a lease comes */
            continue;
        }
        if (l->due > redislock_now_us()) {
            wait_until(r, l->due);
            continue;
        }
        l->busy = true;
        pthread_mutex_unlock(&r->mutex);
        a = renew(l, cache, &start);
        pthread_mutex_lock(&r->mutex);
        l->busy = false;
        if (l->forgotten) {
            lease_free(l);
        } else if (l->state == LEASE_ACTIVE) {
            renewed(l, a, start);
        }
    }
    pthread_mutex_unlock(&r->mutex);
    cache_close(cache);
    return NULL;
}

/* Starts r's thread (mutex held), every signal blocked in it: they stay
 * the PHP thread's (timeouts, SIGTERM, a SIGPIPE of its own writes). */
static bool thread_start(registry *r)
{
    sigset_t all, old;
    pthread_attr_t attr;
    int rc;

    if (r->started) {
        return true;
    }
    sigfillset(&all);
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, KEEPALIVE_STACK);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&r->thread, &attr, thread_main, r);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    __atomic_store_n(&r->started, rc == 0, __ATOMIC_RELEASE); /* read unlocked by redislock_keepalive_running() */
    return rc == 0;
}

/* }}} */

/* {{{ The holder's side */

/* A lease for spec with its own copy of the arguments, or NULL. */
static redislock_keepalive_lease *lease_new(redislock_keepalive_spec *spec, registry *r)
{
    redislock_keepalive_lease *l = calloc(1, sizeof(*l));
    size_t total = 0, at = 0;

    for (int i = 0; i < spec->argc; i++) {
        total += spec->lens[i] + 1;
    }
    if (!l || !(l->args = malloc(total ? total : 1))) {
        free(l);
        return NULL;
    }
    l->spec = *spec;
    for (int i = 0; i < spec->argc; i++) {
        memcpy(l->args + at, spec->argv[i], spec->lens[i]);
        l->args[at + spec->lens[i]] = '\0';
        l->spec.argv[i] = l->args + at;
        at += spec->lens[i] + 1;
    }
    l->reg = r;
    l->pid = r->pid;
    l->due = spec->granted + MAX(spec->ttl_ms * 1000 / 3, KEEPALIVE_TICK_MIN_US);
    l->stop_at = spec->granted + spec->max_hold_ms * 1000;
    l->state = LEASE_ACTIVE;
    return l;
}

redislock_keepalive_lease *redislock_keepalive_start(redislock_keepalive_spec *spec)
{
    registry *r = registry_mine(true);
    redislock_keepalive_lease *l = r ? lease_new(spec, r) : NULL;

    if (!l) {
        for (uint32_t i = 0; i < spec->count; i++) {
            redislock_keepalive_conn_target_free(spec->targets[i]);
        }
        return NULL;
    }
    pthread_mutex_lock(&r->mutex);
    if (!thread_start(r)) {
        pthread_mutex_unlock(&r->mutex);
        lease_free(l);
        return NULL;
    }
    l->next = r->leases;
    if (r->leases) {
        r->leases->prev = l;
    }
    r->leases = l;
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->mutex);
    return l;
}

/* Moves what l has not told yet into news (mutex held). */
static void tell(redislock_keepalive_lease *l, redislock_keepalive_news *news)
{
    news->lost = l->state == LEASE_LOST;
    news->renewed_at = l->renewed_new ? l->renewed_at : 0;
    news->renewals = l->renewals;
    news->losses = l->loss_untold;
    l->renewed_new = false;
    l->renewals = 0;
    l->loss_untold = false;
}

/* Whether l is this process's (a forked child's inherited ones are not). */
static bool lease_mine(const redislock_keepalive_lease *l)
{
    return l && l->pid == redislock_process_pid();
}

void redislock_keepalive_poll(redislock_keepalive_lease *l, redislock_keepalive_news *news)
{
    memset(news, 0, sizeof(*news));
    if (!lease_mine(l)) {
        return;
    }
    pthread_mutex_lock(&l->reg->mutex);
    tell(l, news);
    pthread_mutex_unlock(&l->reg->mutex);
}

void redislock_keepalive_stop(redislock_keepalive_lease *l, redislock_keepalive_news *news)
{
    redislock_keepalive_news ignored;
    registry *r;

    if (!news) {
        news = &ignored;
    }
    memset(news, 0, sizeof(*news));
    if (!lease_mine(l)) {
        return; /* a parent's: it stays in the parent's registry, untouched */
    }
    r = l->reg;
    pthread_mutex_lock(&r->mutex);
    tell(l, news);
    if (l->prev) {
        l->prev->next = l->next;
    } else {
        r->leases = l->next;
    }
    if (l->next) {
        l->next->prev = l->prev;
    }
    if (l->busy) {
        l->forgotten = true; /* the thread frees it when its renewal is back */
    } else {
        lease_free(l);
    }
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->mutex);
}

void redislock_keepalive_collect(const void *owner, uint32_t *renewals, uint32_t *lost)
{
    registry *r = registry_mine(false);

    *renewals = 0;
    *lost = 0;
    if (!r) {
        return;
    }
    pthread_mutex_lock(&r->mutex);
    for (redislock_keepalive_lease *l = r->leases; l; l = l->next) {
        if (l->spec.owner == owner) {
            *renewals += l->renewals;
            *lost += l->loss_untold;
            l->renewals = 0;
            l->loss_untold = false;
        }
    }
    pthread_mutex_unlock(&r->mutex);
}

bool redislock_keepalive_running(void)
{
    registry *r = registry_mine(false);

    return r && __atomic_load_n(&r->started, __ATOMIC_ACQUIRE);
}

void redislock_keepalive_shutdown(void)
{
    registry *r = registry_mine(false);

    if (!r) {
        return; /* none, or a parent's: left as it is */
    }
    pthread_mutex_lock(&r->mutex);
    r->quit = true;
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->mutex);
    if (r->started) {
        pthread_join(r->thread, NULL);
    }
    while (r->leases) {
        redislock_keepalive_lease *l = r->leases;
        r->leases = l->next;
        lease_free(l);
    }
    __atomic_store_n(&current, r->inherited, __ATOMIC_RELEASE);
    registry_free(r);
}

/* }}} */

#else /* _WIN32: no keepalive thread; holds are kept as without keepalive */

redislock_keepalive_lease *redislock_keepalive_start(redislock_keepalive_spec *spec)
{
    for (uint32_t i = 0; i < spec->count; i++) {
        redislock_keepalive_conn_target_free(spec->targets[i]);
    }
    return NULL;
}

void redislock_keepalive_poll(redislock_keepalive_lease *l, redislock_keepalive_news *news)
{
    memset(news, 0, sizeof(*news));
}

void redislock_keepalive_stop(redislock_keepalive_lease *l, redislock_keepalive_news *news)
{
    if (news) {
        memset(news, 0, sizeof(*news));
    }
}

void redislock_keepalive_collect(const void *owner, uint32_t *renewals, uint32_t *lost)
{
    *renewals = 0;
    *lost = 0;
}

bool redislock_keepalive_running(void)
{
    return false;
}

void redislock_keepalive_shutdown(void)
{
}

#endif
