/*
 * The orphans: nodes of ours whose create or delete had an unknown outcome,
 * kept in a list on their session (PHP thread only) and deleted through
 * zk_request.c when the session is next used or at request end. A session
 * that ends frees its list (zk_session.c): its nodes went with it.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

/* Built --with-zookeeper only (see config.m4). */
#ifdef HAVE_REDISLOCK_ZOOKEEPER

#include "php.h"
#include "base/clock.h"
#include "zookeeper/zk_orphans.h"
#include "zookeeper/zk_request.h"
#include "zookeeper/zk_private.h"

void redislock_zk_orphans_add(redislock_zk_session *s, const char *parent, const char *guid)
{
    redislock_zk_orphan *o = calloc(1, sizeof(*o));

    if (!o || !(o->parent = strdup(parent))) {
        /* Out of memory: the node goes with the session. */
        free(o);
        return;
    }
    snprintf(o->guid, sizeof(o->guid), "%s", guid);
    o->next = s->orphans;
    s->orphans = o;
}

/* Deletes the children of o->parent named with o->guid. ZOK: none is left. */
static int orphan_delete(redislock_zk_session *s, const redislock_zk_orphan *o, uint64_t deadline)
{
    redislock_zk_names names;
    int rc = redislock_zk_request_children(s, o->parent, &names, deadline);

    if (rc == ZNONODE) {
        return ZOK;
    }
    for (int32_t i = 0; rc == ZOK && i < names.count; i++) {
        if (strstr(names.name[i], o->guid)) {
            size_t len = strlen(o->parent) + strlen(names.name[i]) + 2;
            char *path = malloc(len);
            if (!path) {
                rc = ZSYSTEMERROR;
                break;
            }
            snprintf(path, len, "%s/%s", o->parent, names.name[i]);
            rc = redislock_zk_request_delete(s, path, deadline);
            rc = rc == ZNONODE ? ZOK : rc;
            free(path);
        }
    }
    redislock_zk_request_names_free(&names);
    return rc;
}

int redislock_zk_orphans_clean(redislock_zk_session *s, uint64_t deadline)
{
    while (s->orphans) {
        redislock_zk_orphan *o = s->orphans;
        int rc = orphan_delete(s, o, deadline);
        if (rc != ZOK) {
            return rc;
        }
        s->orphans = o->next;
        free(o->parent);
        free(o);
    }
    return ZOK;
}

/* What redislock_zk_orphans_flush() was given. */
typedef struct flush_args {
    zend_long timeout_ms;
    bool (*holding)(uint64_t serial);
} flush_args;

/* Whether s may stay open: it has no orphans left once they are deleted,
 * or this request still holds on it. Otherwise ending the session deletes
 * them (at once, or at its timeout when the servers cannot be told). */
static bool flush_session(redislock_zk_session *s, void *arg)
{
    const flush_args *a = arg;

    if (!s->orphans) {
        return true;
    }
    return redislock_zk_orphans_clean(s, redislock_now_us() + (uint64_t) a->timeout_ms * 1000) == ZOK
           || a->holding(s->serial);
}

void redislock_zk_orphans_flush(zend_long timeout_ms, bool (*holding)(uint64_t serial))
{
    flush_args a = { timeout_ms, holding };

    redislock_zk_session_sweep(flush_session, &a);
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
