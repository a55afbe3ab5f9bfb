/*
 * The ZooKeeper sessions of this process: opened on first use, kept across
 * requests, forgotten (never closed) in a forked child, closed at process
 * end; their state (connected, lost, vouched for) and the waits on it. See
 * zk_session.h for the threading rules; the requests themselves are in
 * zk_request.c, the orphans in zk_orphans.c (both above this file: nothing
 * here calls them).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

/* Built --with-zookeeper only (see config.m4). */
#ifdef HAVE_REDISLOCK_ZOOKEEPER

#include "php.h"
#include "base/clock.h"
#include "zookeeper/zk_session.h"
#include "zookeeper/zk_private.h"

#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <pthread.h>
#include <unistd.h>

#define SESSIONS_MAX 8 /* distinct (hosts, session timeout) pairs in one process */

/* This thread's sessions (ZEND_TLS: the process's in a PHP without threads;
 * one set per thread in a threaded (ZTS) PHP, as connections to Redis are:
 * no session is used or closed by two threads); sessions_pid is the process
 * they were opened in. */
ZEND_TLS redislock_zk_session *sessions[SESSIONS_MAX];
ZEND_TLS pid_t sessions_pid;
static uint64_t last_serial; /* of the process, taken atomically */

/* Sessions inherited through fork(): their handle belongs to the parent (its
 * threads did not survive the fork, and closing it would end the parent's
 * session), so they are kept here, never used nor freed. */
ZEND_TLS redislock_zk_session *inherited;

/* {{{ Called on the ZooKeeper client's threads: C only */

/* The watcher of the session and of every watch set through it: records a
 * change of the connection's state, counts the event, wakes the PHP thread. */
static void on_event(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    redislock_zk_session *s = ctx;

    (void) path;
    pthread_mutex_lock(&s->mu);
    if (type == ZOO_SESSION_EVENT) {
        if (state == ZOO_CONNECTED_STATE) {
            s->connected = s->ever_connected = true;
            s->down_since = 0;
            /* The timeout the server granted: it expires the session by
             * that one, whatever was asked for. */
            s->server_timeout_ms = zoo_recv_timeout(zh);
        } else if (state == ZOO_EXPIRED_SESSION_STATE || state == ZOO_AUTH_FAILED_STATE) {
            s->expired = true;
            s->connected = false;
        } else {
            if (s->connected || !s->down_since) {
                s->down_since = redislock_now_us();
            }
            s->connected = false;
        }
    }
    s->events++;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* }}} */

/* The session's timeout in us: the one the server granted once known (it
 * may differ from the one asked for), else the one asked for. Called with
 * s->mu held. */
static uint64_t timeout_us_locked(const redislock_zk_session *s)
{
    return (uint64_t) (s->server_timeout_ms > 0 ? s->server_timeout_ms : s->timeout_ms) * 1000;
}

/* Whether s must be taken as gone: expired, or cut off from every server
 * for longer than its timeout (the servers have expired it by then, even if
 * the client cannot hear it yet). Once gone it stays gone, even if the
 * client gets through again later (a restarted server restores sessions):
 * its holds were reported lost, so the session must end, not carry on with
 * nodes nobody holds. Called with s->mu held. */
bool redislock_zk_session_lost_locked(redislock_zk_session *s, uint64_t now)
{
    if (s->down_since && now - s->down_since > timeout_us_locked(s)) {
        s->expired = true;
    }
    return s->expired;
}

/* The part of the session's timeout kept as a margin by the belief below:
 * for the servers' clocks running a little faster than ours, and for the
 * time between the answer and the caller acting on it. */
#define BELIEF_MARGIN_DIV 10

/* The session's timeout less the margin. Called with s->mu held. */
static uint64_t belief_us_locked(const redislock_zk_session *s)
{
    uint64_t t = timeout_us_locked(s);

    return t - t / BELIEF_MARGIN_DIV;
}

uint64_t redislock_zk_session_belief_us(redislock_zk_session *s)
{
    uint64_t t;

    pthread_mutex_lock(&s->mu);
    t = belief_us_locked(s);
    pthread_mutex_unlock(&s->mu);
    return t;
}

uint64_t redislock_zk_session_alive_until(redislock_zk_session *s)
{
    uint64_t until = 0;

    pthread_mutex_lock(&s->mu);
    if (!redislock_zk_session_lost_locked(s, redislock_now_us()) && s->answered_sent) {
        until = s->answered_sent + belief_us_locked(s);
    }
    pthread_mutex_unlock(&s->mu);
    return until;
}

/* Waits on s's condition variable until deadline (monotonic us) at most,
 * or until the session counts as lost when it is cut off now. Called with
 * s->mu held. */
void redislock_zk_session_wait_locked(redislock_zk_session *s, uint64_t deadline)
{
    struct timespec ts;
    uint64_t lost_at = s->down_since + timeout_us_locked(s) + 1000;

    if (s->down_since && lost_at < deadline) {
        deadline = lost_at;
    }
    ts.tv_sec = (time_t) (deadline / 1000000);
    ts.tv_nsec = (long) (deadline % 1000000) * 1000;

    pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

int redislock_zk_session_ready(redislock_zk_session *s, uint64_t deadline)
{
    int rc;

    pthread_mutex_lock(&s->mu);
    for (;;) {
        uint64_t now = redislock_now_us();
        if (redislock_zk_session_lost_locked(s, now)) {
            rc = ZSESSIONEXPIRED;
            break;
        }
        if (s->connected) {
            rc = ZOK;
            break;
        }
        if (now >= deadline) {
            rc = ZOPERATIONTIMEOUT;
            break;
        }
        redislock_zk_session_wait_locked(s, deadline);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

bool redislock_zk_session_wait_event(redislock_zk_session *s, uint64_t since, uint64_t deadline)
{
    bool happened;

    pthread_mutex_lock(&s->mu);
    while (s->events == since && redislock_now_us() < deadline) {
        redislock_zk_session_wait_locked(s, deadline);
    }
    happened = s->events != since;
    pthread_mutex_unlock(&s->mu);
    return happened;
}

/* A new session for hosts; NULL (errno set) when the client refuses the
 * connect string. The client's threads start with every signal blocked, so
 * that no PHP signal handler (timeouts, pcntl) ever runs on them. */
static redislock_zk_session *session_open(const char *hosts, zend_long timeout_ms)
{
    redislock_zk_session *s = calloc(1, sizeof(*s));
    pthread_condattr_t attr;
    sigset_t all, old;
    int saved;

    if (!s || !(s->hosts = strdup(hosts))) {
        free(s);
        return NULL;
    }
    s->timeout_ms = timeout_ms;
    s->serial = __atomic_add_fetch(&last_serial, 1, __ATOMIC_RELAXED);
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &attr);
    pthread_condattr_destroy(&attr);

    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    s->zh = zookeeper_init(hosts, on_event, (int) timeout_ms, NULL, s, 0);
    saved = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
#ifdef HAVE_ZOO_SET_SERVERS_RESOLUTION_DELAY
    if (s->zh) {
        /* The client's I/O thread would otherwise resolve the hosts again
         * (getaddrinfo) each time it polls. A fork() while it is inside
         * getaddrinfo leaves the child a lock of glibc's that is never
         * released, and the child's own session then hangs in
         * getaddrinfo. Resolved now, and again only after a connection
         * loss. */
        zoo_set_servers_resolution_delay(s->zh, -1);
    }
#endif
    if (!s->zh) {
        pthread_cond_destroy(&s->cv);
        pthread_mutex_destroy(&s->mu);
        free(s->hosts);
        free(s);
        errno = saved;
        return NULL;
    }
    return s;
}

/* Frees the orphan list of s (its session ended, and its nodes with it). */
static void orphans_drop(redislock_zk_session *s)
{
    while (s->orphans) {
        redislock_zk_orphan *o = s->orphans;
        s->orphans = o->next;
        free(o->parent);
        free(o);
    }
}

/* Closes s: the client ends the session on the server (its ephemeral nodes
 * go now) and joins its threads, which call every pending completion first;
 * only then is s freed. */
static void session_close(redislock_zk_session *s)
{
    zookeeper_close(s->zh);
    orphans_drop(s);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s->hosts);
    free(s);
}

/* In a child after fork(): the parent's sessions are set aside untouched. */
static void forget_if_forked(void)
{
    pid_t pid = getpid();

    if (sessions_pid == pid) {
        return;
    }
    for (int i = 0; i < SESSIONS_MAX; i++) {
        if (sessions[i]) {
            sessions[i]->next_inherited = inherited;
            inherited = sessions[i];
            sessions[i] = NULL;
        }
    }
    sessions_pid = pid;
}

/* The slot of the session for hosts and timeout, or of a free place (with
 * *s NULL), or -1 when all are taken by others. */
static int session_slot(const char *hosts, zend_long timeout_ms, redislock_zk_session **s)
{
    int free_slot = -1;

    *s = NULL;
    for (int i = 0; i < SESSIONS_MAX; i++) {
        if (!sessions[i]) {
            free_slot = free_slot < 0 ? i : free_slot;
        } else if (sessions[i]->timeout_ms == timeout_ms && strcmp(sessions[i]->hosts, hosts) == 0) {
            *s = sessions[i];
            return i;
        }
    }
    return free_slot;
}

/* Drops a lost session from slot i: its nodes are gone with it. */
static void session_drop_lost(int i)
{
    redislock_zk_session *s = sessions[i];
    bool lost;

    pthread_mutex_lock(&s->mu);
    lost = redislock_zk_session_lost_locked(s, redislock_now_us());
    pthread_mutex_unlock(&s->mu);
    if (lost) {
        sessions[i] = NULL;
        session_close(s);
    }
}

/* The session in slot i, opened when missing, and connected within
 * connect_timeout ms. ZOK, or the code of the failure with the session
 * dropped when there is nothing worth keeping. */
static int session_connect(int i, const char *hosts, zend_long session_timeout, zend_long connect_timeout,
                           bool *fresh)
{
    redislock_zk_session *s = sessions[i];
    int rc;

    *fresh = !s;
    if (!s) {
        s = session_open(hosts, session_timeout);
        if (!s) {
            return ZSYSTEMERROR;
        }
        sessions[i] = s;
    }
    rc = redislock_zk_session_ready(s, redislock_now_us() + (uint64_t) connect_timeout * 1000);
    if (rc != ZOK && (rc == ZSESSIONEXPIRED || !s->ever_connected)) {
        /* Nothing to keep: the next attempt starts afresh. */
        sessions[i] = NULL;
        session_close(s);
    }
    return rc;
}

/* Writes into out the hosts of the connect string hosts (host:port,...[/chroot])
 * whose name does not resolve, each quoted, with the last resolver's
 * words into why; returns how many, and in *total how many hosts there
 * are. The client library resolves them when a session opens and leaves
 * out those that do not, failing with no more than ENOENT when none does:
 * this names them. Names were checked when the lock was made (letters,
 * digits, ".-_:[]"), so they are safe to show. */
static int hosts_unresolved(const char *hosts, char *out, size_t outlen, const char **why, int *total)
{
    const char *end = strchr(hosts, '/'), *p = hosts;
    size_t off = 0;
    int bad = 0;

    end = end ? end : hosts + strlen(hosts);
    out[0] = '\0';
    *total = 0;
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t) (end - p)), *item_end = comma ? comma : end;
        const char *colon = item_end;
        char host[256], port[8];
        struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
        int rc;

        while (colon > p && colon[-1] != ':') {
            colon--;
        }
        snprintf(port, sizeof(port), "%.*s", (int) (item_end - colon), colon);
        snprintf(host, sizeof(host), "%.*s", (int) MAX(colon - 1 - p, 0), p);
        if (host[0] == '[' && strlen(host) > 1 && host[strlen(host) - 1] == ']') {
            memmove(host, host + 1, strlen(host));
            host[strlen(host) - 1] = '\0';
        }
        (*total)++;
        rc = getaddrinfo(host, port, &hints, &res);
        if (rc == 0) {
            freeaddrinfo(res);
        } else {
            *why = gai_strerror(rc);
            off += (size_t) snprintf(out + off, off < outlen ? outlen - off : 0, "%s\"%s\"", bad ? ", " : "", host);
            off = MIN(off, outlen);
            bad++;
        }
        p = comma ? comma + 1 : end;
    }
    return bad;
}

/* Records in err why no session to hosts could be opened or connected
 * (rc: the client's code). */
static void session_failure(const char *hosts, int rc, zend_long connect_timeout, redislock_error *err)
{
    char names[256];
    const char *why = "";
    int saved = errno, total, bad = rc == ZSESSIONEXPIRED ? 0 : hosts_unresolved(hosts, names, sizeof(names), &why,
                                                                                 &total);

    if (bad > 0 && bad == total) {
        redislock_error_set(err, REDISLOCK_E_CONNECTION, "cannot resolve ZooKeeper host%s %s: %s", bad > 1 ? "s" : "",
                            names, why);
    } else if (rc == ZSYSTEMERROR) {
        redislock_error_set(err, REDISLOCK_E_CONNECTION, "cannot open a ZooKeeper session to %s: %s", hosts,
                            strerror(saved));
    } else if (rc == ZSESSIONEXPIRED) {
        redislock_error_set(err, REDISLOCK_E_CONNECTION, "ZooKeeper session to %s expired", hosts);
    } else {
        /* The client tried the hosts that resolve. */
        redislock_error_set(err, REDISLOCK_E_CONNECTION, "ZooKeeper at %s not reachable within " ZEND_LONG_FMT
                            " ms%s%s%s%s", hosts, connect_timeout, bad ? " (cannot resolve " : "", bad ? names : "",
                            bad ? ": " : "", bad ? why : "");
        if (bad) {
            strncat(err->msg, ")", sizeof(err->msg) - strlen(err->msg) - 1);
        }
    }
}

redislock_zk_session *redislock_zk_session_get(const char *hosts, zend_long session_timeout,
                                               zend_long connect_timeout, redislock_error *err)
{
    redislock_zk_session *s;
    bool fresh;
    int i, rc;

    forget_if_forked();
    i = session_slot(hosts, session_timeout, &s);
    if (i < 0) {
        redislock_error_set(err, REDISLOCK_E_CONFIG, "more than %d ZooKeeper connect strings in one process",
                            SESSIONS_MAX);
        return NULL;
    }
    if (s) {
        session_drop_lost(i);
    }
    rc = session_connect(i, hosts, session_timeout, connect_timeout, &fresh);
    if (rc == ZSESSIONEXPIRED && !fresh) {
        /* The servers said the old session is gone when it reconnected:
         * a new one, transparently. */
        rc = session_connect(i, hosts, session_timeout, connect_timeout, &fresh);
    }
    if (rc == ZOK) {
        return sessions[i];
    }
    session_failure(hosts, rc, connect_timeout, err);
    return NULL;
}

redislock_zk_session *redislock_zk_session_find(uint64_t serial)
{
    forget_if_forked();
    for (int i = 0; i < SESSIONS_MAX; i++) {
        redislock_zk_session *s = sessions[i];
        if (s && s->serial == serial) {
            bool lost;
            pthread_mutex_lock(&s->mu);
            lost = redislock_zk_session_lost_locked(s, redislock_now_us());
            pthread_mutex_unlock(&s->mu);
            return lost ? NULL : s;
        }
    }
    return NULL;
}

uint64_t redislock_zk_session_serial(const redislock_zk_session *s)
{
    return s->serial;
}

void redislock_zk_session_sweep(bool (*keep)(redislock_zk_session *s, void *arg), void *arg)
{
    forget_if_forked();
    for (int i = 0; i < SESSIONS_MAX; i++) {
        redislock_zk_session *s = sessions[i];
        if (s && !keep(s, arg)) {
            sessions[i] = NULL;
            session_close(s);
        }
    }
}

void redislock_zk_session_close_all(void)
{
    forget_if_forked();
    for (int i = 0; i < SESSIONS_MAX; i++) {
        if (sessions[i]) {
            session_close(sessions[i]);
            sessions[i] = NULL;
        }
    }
}

void redislock_zk_session_describe_all(void (*fn)(const char *hosts, long long id, bool connected, void *arg),
                                       void *arg)
{
    forget_if_forked();
    for (int i = 0; i < SESSIONS_MAX; i++) {
        redislock_zk_session *s = sessions[i];
        if (s) {
            const clientid_t *id = zoo_client_id(s->zh);
            bool connected;
            pthread_mutex_lock(&s->mu);
            connected = s->connected;
            pthread_mutex_unlock(&s->mu);
            fn(s->hosts, id ? (long long) id->client_id : 0, connected, arg);
        }
    }
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
