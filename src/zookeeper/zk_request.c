/*
 * Requests on a ZooKeeper session: each is sent with the client's
 * asynchronous call and waited for on the PHP thread, up to a deadline. The
 * completion, on the client's thread, copies the result into a request
 * record (malloc'd, C only) and wakes the PHP thread. A request the PHP
 * thread gave up on still completes later; the record, counted by both
 * sides, is freed by whichever lets go last. Above zk_session.c, whose
 * state under the session's mutex decides how long a request is waited
 * for.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

/* Built --with-zookeeper only (see config.m4). */
#ifdef HAVE_REDISLOCK_ZOOKEEPER

#include "php.h"
#include "base/clock.h"
#include "zookeeper/zk_request.h"
#include "zookeeper/zk_private.h"

typedef struct zk_request {
    redislock_zk_session *s;
    uint64_t sent;             /* monotonic us, taken before the request is handed to the client */
    int refs;                  /* the PHP thread and the client; under s->mu */
    bool done;
    int rc;
    char *path;                /* create: the path made */
    redislock_zk_names names;  /* children */
} zk_request;

static zk_request *request_new(redislock_zk_session *s)
{
    zk_request *r = calloc(1, sizeof(*r));

    if (r) {
        r->s = s;
        r->refs = 2;
        r->sent = redislock_now_us();
    }
    return r;
}

/* Whether rc is the servers' answer to a request (they heard it), rather
 * than the client's word that it has none (connection lost, session gone,
 * closing, its own timeout). Only the answers the lock's requests can get. */
static bool server_answered(int rc)
{
    switch (rc) {
    case ZOK:
    case ZNONODE:
    case ZNODEEXISTS:
    case ZNOTEMPTY:
    case ZBADVERSION:
    case ZNOCHILDRENFOREPHEMERALS:
    case ZNOAUTH:
    case ZINVALIDACL:
        return true;
    default:
        return false;
    }
}

/* Lets go of r; called with s->mu held. */
static void request_put(zk_request *r)
{
    if (--r->refs == 0) {
        free(r->path);
        redislock_zk_request_names_free(&r->names);
        free(r);
    }
}

/* {{{ Completions: on the client's thread, C only */

static void request_done(zk_request *r, int rc)
{
    redislock_zk_session *s = r->s;

    r->rc = rc;
    r->done = true;
    if (server_answered(rc) && r->sent > s->answered_sent) {
        s->answered_sent = r->sent;
    }
    pthread_cond_broadcast(&s->cv);
    request_put(r);
    pthread_mutex_unlock(&s->mu);
}

static void on_string(int rc, const char *value, const void *data)
{
    zk_request *r = (zk_request *) data;

    pthread_mutex_lock(&r->s->mu);
    if (rc == ZOK && value) {
        r->path = strdup(value);
        rc = r->path ? rc : ZSYSTEMERROR;
    }
    request_done(r, rc);
}

static void on_strings(int rc, const struct String_vector *strings, const void *data)
{
    zk_request *r = (zk_request *) data;

    pthread_mutex_lock(&r->s->mu);
    if (rc == ZOK && strings && strings->count > 0) {
        r->names.name = calloc((size_t) strings->count, sizeof(char *));
        for (int32_t i = 0; r->names.name && i < strings->count; i++) {
            if (!(r->names.name[i] = strdup(strings->data[i]))) {
                rc = ZSYSTEMERROR;
                break;
            }
            r->names.count = i + 1;
        }
        rc = r->names.name ? rc : ZSYSTEMERROR;
    }
    request_done(r, rc);
}

static void on_void(int rc, const void *data)
{
    zk_request *r = (zk_request *) data;

    pthread_mutex_lock(&r->s->mu);
    request_done(r, rc);
}

static void on_stat(int rc, const struct Stat *stat, const void *data)
{
    (void) stat;
    on_void(rc, data);
}

static void on_data(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    (void) value;
    (void) len;
    (void) stat;
    on_void(rc, data);
}

/* The session's watcher, for the watches the lock sets. */
static void on_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    redislock_zk_session *s = ctx;

    (void) zh;
    (void) type;
    (void) state;
    (void) path;
    pthread_mutex_lock(&s->mu);
    s->events++;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* }}} */

/* Waits for r, sent with result sent (the client's answer to the call),
 * until deadline. Returns the request's code; r is let go of unless out is
 * given, which then receives it, done, for the caller to read and put. */
static int request_wait(zk_request *r, int sent, uint64_t deadline, zk_request **out)
{
    redislock_zk_session *s = r->s;
    int rc;

    pthread_mutex_lock(&s->mu);
    if (sent != ZOK) {
        /* Never queued: no completion will come. */
        r->refs--;
        r->done = true;
        r->rc = sent;
    }
    /* A request on a session known to be gone gets no useful answer:
     * whatever the client does with it, it is not waited for. */
    while (!r->done && !redislock_zk_session_lost_locked(s, redislock_now_us()) && redislock_now_us() < deadline) {
        redislock_zk_session_wait_locked(s, deadline);
    }
    if (!r->done) {
        rc = redislock_zk_session_lost_locked(s, redislock_now_us()) ? ZSESSIONEXPIRED : ZOPERATIONTIMEOUT;
    } else if (r->rc == ZINVALIDSTATE) {
        /* The handle is dead: its session expired or was refused. */
        rc = ZSESSIONEXPIRED;
    } else if (r->rc == ZOPERATIONTIMEOUT) {
        /* The client's own timeout: it gave up on the connection (ours,
         * above, means no answer by the deadline). */
        rc = ZCONNECTIONLOSS;
    } else {
        rc = r->rc;
    }
    if (out && r->done) {
        *out = r;
    } else {
        request_put(r);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static void request_release(zk_request *r)
{
    redislock_zk_session *s = r->s;

    pthread_mutex_lock(&s->mu);
    request_put(r);
    pthread_mutex_unlock(&s->mu);
}

int redislock_zk_request_create(redislock_zk_session *s, const char *path, int flags, char **created,
                                uint64_t deadline)
{
    zk_request *r = request_new(s), *done = NULL;
    int rc;

    if (!r) {
        return ZSYSTEMERROR;
    }
    rc = request_wait(r, zoo_acreate(s->zh, path, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, flags, on_string, r), deadline,
                      created ? &done : NULL);
    if (done) {
        if (rc == ZOK) {
            *created = done->path;
            done->path = NULL;
        }
        request_release(done);
    }
    return rc;
}

int redislock_zk_request_children(redislock_zk_session *s, const char *path, redislock_zk_names *out,
                                  uint64_t deadline)
{
    zk_request *r = request_new(s), *done = NULL;
    int rc;

    out->name = NULL;
    out->count = 0;
    if (!r) {
        return ZSYSTEMERROR;
    }
    rc = request_wait(r, zoo_aget_children(s->zh, path, 0, on_strings, r), deadline, &done);
    if (done) {
        if (rc == ZOK) {
            *out = done->names;
            done->names.name = NULL;
            done->names.count = 0;
        }
        request_release(done);
    }
    return rc;
}

int redislock_zk_request_delete(redislock_zk_session *s, const char *path, uint64_t deadline)
{
    zk_request *r = request_new(s);

    return r ? request_wait(r, zoo_adelete(s->zh, path, -1, on_void, r), deadline, NULL) : ZSYSTEMERROR;
}

int redislock_zk_request_exists(redislock_zk_session *s, const char *path, uint64_t deadline)
{
    zk_request *r = request_new(s);

    return r ? request_wait(r, zoo_aexists(s->zh, path, 0, on_stat, r), deadline, NULL) : ZSYSTEMERROR;
}

int redislock_zk_request_watch(redislock_zk_session *s, const char *path, uint64_t *since, uint64_t deadline)
{
    zk_request *r = request_new(s);

    if (!r) {
        return ZSYSTEMERROR;
    }
    pthread_mutex_lock(&s->mu);
    *since = s->events;
    pthread_mutex_unlock(&s->mu);
    return request_wait(r, zoo_awget(s->zh, path, on_watch, s, on_data, r), deadline, NULL);
}

int redislock_zk_request_unwatch(redislock_zk_session *s, const char *path, uint64_t deadline)
{
    zk_request *r = request_new(s);

    /* The "all" form: the other one only checks on the server and removes
     * locally. The header declares the completion as a pointer to a
     * completion; the client uses it as the completion itself. */
    return r ? request_wait(r, zoo_aremove_all_watches(s->zh, path, ZWATCHTYPE_DATA, 0,
                                                       (void_completion_t *) on_void, r), deadline, NULL)
             : ZSYSTEMERROR;
}

void redislock_zk_request_names_free(redislock_zk_names *names)
{
    for (int32_t i = 0; i < names->count; i++) {
        free(names->name[i]);
    }
    free(names->name);
    names->name = NULL;
    names->count = 0;
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
