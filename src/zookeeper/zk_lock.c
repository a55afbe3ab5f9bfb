/*
 * The ZooKeeper lock recipe, on the session of zk_session.c:
 *
 * - acquire: create <parent>/lock-<guid>- as an ephemeral sequential node
 *   (the guid is new for every attempt: after a connection loss the node is
 *   looked for by it instead of being created twice), list the children,
 *   hold when ours has the lowest sequence number; otherwise watch only the
 *   node just before ours (one release wakes one waiter) and list again
 *   when it goes, because its owner may have given up rather than held.
 *   When the wait runs out our node is deleted again.
 * - release: delete our node. isAcquired: ask whether it still exists.
 * - A hold belongs to its session: when the session is lost, so is the hold.
 * - A hold is believed without asking only while its session is vouched for
 *   (redislock_zk_session_alive_until(): the last answer the servers gave,
 *   dated from its request's send time, plus the session timeout, less a
 *   margin). The client notices that the servers are out of reach only 2/3
 *   of the timeout after their last answer, and counts the session lost a
 *   timeout after that, while the servers expire it a timeout after they
 *   last heard from it: in between, another process may hold the lock.
 *   Past the belief the servers are asked, and an answer is not waited for
 *   longer than it would vouch for. No true answer ever comes from beyond.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

/* Built --with-zookeeper only (see config.m4). */
#ifdef HAVE_REDISLOCK_ZOOKEEPER

#include "php.h"
#include "config/config.h"
#include "base/clock.h"
#include "base/hex.h"
#include "base/process.h"
#include "zookeeper/zk_lock.h"
#include "zookeeper/zk_session.h"
#include "zookeeper/zk_request.h"
#include "zookeeper/zk_orphans.h"

#include <zookeeper/zookeeper.h>

#define NODE_PREFIX "lock-"
#define SEQ_DIGITS 10 /* ZooKeeper's sequence suffix */
#define NODE_NAME_LEN (sizeof(NODE_PREFIX) - 1 + REDISLOCK_ZK_GUID_LEN + 1 + SEQ_DIGITS)

/* The deadline of one request. */
static uint64_t request_deadline(const redislock_zk_lock *l)
{
    return redislock_now_us() + (uint64_t) l->connect_timeout * 1000;
}

/* Records the failure of a request (what: what the lock was doing) in l->err:
 * a connection error when its outcome is unknown or the session is gone, a
 * server error when ZooKeeper refused it. Returns REDISLOCK_ERR. */
static int fail(redislock_zk_lock *l, int rc, const char *what)
{
    if (rc == ZOPERATIONTIMEOUT) {
        redislock_error_set(&l->err, REDISLOCK_E_CONNECTION, "no answer from ZooKeeper at %s in time while %s",
                            l->hosts, what);
    } else if (rc == ZCONNECTIONLOSS) {
        redislock_error_set(&l->err, REDISLOCK_E_CONNECTION, "connection to ZooKeeper at %s lost while %s",
                            l->hosts, what);
    } else if (rc == ZSESSIONEXPIRED) {
        redislock_error_set(&l->err, REDISLOCK_E_CONNECTION, "ZooKeeper session to %s lost while %s", l->hosts,
                            what);
    } else {
        redislock_error_set(&l->err, REDISLOCK_E_SERVER, "ZooKeeper at %s refused %s: %s", l->hosts, what,
                            zerror(rc));
    }
    return REDISLOCK_ERR;
}

static bool outcome_unknown(int rc)
{
    return rc == ZOPERATIONTIMEOUT || rc == ZCONNECTIONLOSS;
}

/* The sequence number of a child named lock-<guid>-<digits>, or -1 for a
 * node that is not a contender of ours. */
static zend_long child_seq(const char *name)
{
    const char *digits = name + NODE_NAME_LEN - SEQ_DIGITS;
    zend_long seq = 0;

    if (strlen(name) != NODE_NAME_LEN || strncmp(name, NODE_PREFIX, sizeof(NODE_PREFIX) - 1) != 0
        || digits[-1] != '-') {
        return -1;
    }
    for (int i = 0; i < SEQ_DIGITS; i++) {
        if (digits[i] < '0' || digits[i] > '9') {
            return -1;
        }
        seq = seq * 10 + (digits[i] - '0');
    }
    return seq;
}

/* The guid in our node's path (its base name after the prefix). */
static void node_guid(const char *node, char *guid)
{
    memcpy(guid, strrchr(node, '/') + sizeof(NODE_PREFIX), REDISLOCK_ZK_GUID_LEN);
    guid[REDISLOCK_ZK_GUID_LEN] = '\0';
}

static void drop_hold(redislock_zk_lock *l)
{
    if (l->node) {
        efree(l->node);
        l->node = NULL;
    }
    l->fence = 0;
}

bool redislock_zk_lock_held(redislock_zk_lock *l)
{
    if (l->node && !redislock_zk_session_find(l->serial)) {
        drop_hold(l);
    }
    return l->node != NULL;
}

/* Asks the servers whether node (ours) is still there. ZOK only when it is
 * and the answer still vouches for the session now (see
 * redislock_zk_session_alive_until(): an answer is not waited for past the
 * time it would vouch until, and one that comes later counts as none).
 * ZNONODE or ZSESSIONEXPIRED: it is gone. Anything else: unknown. */
static int confirm(redislock_zk_lock *l, redislock_zk_session *s, const char *node)
{
    int rc;

    for (int attempt = 0;; attempt++) {
        uint64_t deadline = MIN(request_deadline(l), redislock_now_us() + redislock_zk_session_belief_us(s));
        rc = redislock_zk_request_exists(s, node, deadline);
        if (rc == ZOK) {
            return redislock_now_us() < redislock_zk_session_alive_until(s) ? ZOK : ZOPERATIONTIMEOUT;
        }
        if (rc != ZCONNECTIONLOSS || attempt > 0) {
            return rc;
        }
        /* The session may well survive: ask again once connected. */
        rc = redislock_zk_session_ready(s, request_deadline(l));
        if (rc != ZOK) {
            return rc;
        }
    }
}

/* Whether this process may say that l's hold is still its own without
 * asking: only while its session is vouched for (the answer to a request
 * came recently enough that the servers cannot have expired the session
 * since). Past that, the client may simply not have noticed yet that the
 * servers are out of reach while they expire the session and another
 * process takes the lock. */
static bool vouched(redislock_zk_lock *l)
{
    redislock_zk_session *s = redislock_zk_lock_held(l) ? redislock_zk_session_find(l->serial) : NULL;

    return s && redislock_now_us() < redislock_zk_session_alive_until(s);
}

/* Creates the lock's parent nodes that are missing, as container nodes (the
 * server deletes them once they are empty again). */
static int make_parents(redislock_zk_lock *l, redislock_zk_session *s)
{
    char *path = estrdup(l->parent);
    int rc = ZOK;

    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            rc = redislock_zk_request_create(s, path, ZOO_CONTAINER, NULL, request_deadline(l));
            *p = c;
            if (rc != ZOK && rc != ZNODEEXISTS) {
                break;
            }
            rc = ZOK;
            if (c == '\0') {
                break;
            }
        }
    }
    efree(path);
    return rc;
}

/* After a connection loss: the child of ours named with guid, if the create
 * was carried out (*node NULL when not). */
static int find_node(redislock_zk_lock *l, redislock_zk_session *s, const char *guid, char **node)
{
    redislock_zk_names names;
    int rc = redislock_zk_session_ready(s, request_deadline(l));

    *node = NULL;
    if (rc == ZOK) {
        rc = redislock_zk_request_children(s, l->parent, &names, request_deadline(l));
    }
    if (rc != ZOK) {
        /* No parent: the lost create was refused for want of it. */
        return rc == ZNONODE ? ZOK : rc;
    }
    for (int32_t i = 0; i < names.count && !*node; i++) {
        if (child_seq(names.name[i]) >= 0 && strstr(names.name[i], guid)) {
            spprintf(node, 0, "%s/%s", l->parent, names.name[i]);
        }
    }
    redislock_zk_request_names_free(&names);
    return ZOK;
}

/* Creates our node, and the parents first when they are missing. */
static int create_node(redislock_zk_lock *l, redislock_zk_session *s, const char *guid, char **node)
{
    char *prefix, *created = NULL;
    int rc = ZOK;

    *node = NULL;
    spprintf(&prefix, 0, "%s/" NODE_PREFIX "%s-", l->parent, guid);
    for (int attempt = 0; attempt < 4 && !*node; attempt++) {
        rc = redislock_zk_request_create(s, prefix, ZOO_EPHEMERAL_SEQUENTIAL, &created, request_deadline(l));
        if (rc == ZOK) {
            *node = estrdup(created);
            free(created);
        } else if (rc == ZNONODE) {
            rc = make_parents(l, s);
        } else if (rc == ZCONNECTIONLOSS) {
            rc = find_node(l, s, guid, node);
        }
        if (rc != ZOK) {
            break;
        }
    }
    efree(prefix);
    if (outcome_unknown(rc)) {
        redislock_zk_orphans_add(s, l->parent, guid);
    }
    return rc;
}

/* Finds ours (mine, sequence my_seq) among the children: *found says
 * whether it is there, and the result is the name of the node just before
 * it, or NULL when ours is the lowest. */
static const char *predecessor(const redislock_zk_names *names, const char *mine, zend_long my_seq, bool *found)
{
    const char *pred = NULL;
    zend_long best = -1;

    *found = false;
    for (int32_t i = 0; i < names->count; i++) {
        zend_long seq = child_seq(names->name[i]);
        if (strcmp(names->name[i], mine) == 0) {
            *found = true;
        } else if (seq >= 0 && seq < my_seq && seq > best) {
            best = seq;
            pred = names->name[i];
        }
    }
    return pred;
}

/* One look at the queue: ZOK with *pred set to the path of the node to
 * watch (emalloc'd), or NULL when ours is first; ZNONODE when ours is gone. */
static int look(redislock_zk_lock *l, redislock_zk_session *s, const char *node, char **pred)
{
    const char *mine = strrchr(node, '/') + 1, *before;
    redislock_zk_names names;
    bool found;
    int rc = redislock_zk_request_children(s, l->parent, &names, request_deadline(l));

    *pred = NULL;
    if (rc != ZOK) {
        return rc;
    }
    before = predecessor(&names, mine, child_seq(mine), &found);
    if (before) {
        spprintf(pred, 0, "%s/%s", l->parent, before);
    }
    redislock_zk_request_names_free(&names);
    return found ? ZOK : ZSESSIONEXPIRED;
}

/* Waits for the node pred to go (or for any other event) until
 * wait_deadline; a watch still set when the wait runs out is removed, so
 * that a waiter that gave up leaves none behind. */
static int wait_for(redislock_zk_lock *l, redislock_zk_session *s, const char *pred, uint64_t wait_deadline)
{
    uint64_t since;
    int rc = redislock_zk_request_watch(s, pred, &since, request_deadline(l));

    if (rc == ZNONODE) {
        return ZOK;
    }
    if (rc == ZOK && !redislock_zk_session_wait_event(s, since, wait_deadline)) {
        redislock_zk_request_unwatch(s, pred, request_deadline(l));
    }
    return rc;
}

/* Waits until our node is the lowest or wait_deadline passes. */
static int wait_turn(redislock_zk_lock *l, redislock_zk_session *s, const char *node, uint64_t wait_deadline,
                     bool *first)
{
    char *pred;
    int rc;

    for (;;) {
        rc = look(l, s, node, &pred);
        if (rc == ZOK && pred && redislock_now_us() < wait_deadline) {
            rc = wait_for(l, s, pred, wait_deadline);
            efree(pred);
            pred = NULL;
            if (rc == ZOK) {
                continue;
            }
        }
        if (rc == ZCONNECTIONLOSS && redislock_now_us() < wait_deadline) {
            /* The session may well survive: carry on once connected again. */
            rc = redislock_zk_session_ready(s, request_deadline(l));
            if (rc == ZOK) {
                continue;
            }
        }
        break;
    }
    *first = rc == ZOK && !pred;
    if (pred) {
        efree(pred);
    }
    return rc;
}

/* A new random guid (hex) for one attempt. */
static int new_guid(char *guid)
{
    unsigned char raw[REDISLOCK_ZK_GUID_LEN / 2];

    if (redislock_process_random(raw, sizeof(raw)) == FAILURE) {
        return REDISLOCK_ERR;
    }
    redislock_hex(guid, raw, sizeof(raw));
    return REDISLOCK_OK;
}

zend_long redislock_zk_lock_remaining(redislock_zk_lock *l)
{
    redislock_zk_session *s = redislock_zk_lock_held(l) ? redislock_zk_session_find(l->serial) : NULL;
    return s ? (zend_long) redislock_ms_until(redislock_zk_session_alive_until(s)) : 0;
}

int redislock_zk_lock_acquire(redislock_zk_lock *l, zend_long wait_ms, bool *acquired)
{
    uint64_t wait_deadline = redislock_now_us() + (uint64_t) wait_ms * 1000;
    char guid[REDISLOCK_ZK_GUID_LEN + 1], *node;
    redislock_zk_session *s;
    bool first = false;
    int rc;

    /* Held already: true from memory only while the session is vouched
     * for, else the servers are asked (and a hold found gone is taken
     * anew). */
    if (vouched(l)) {
        *acquired = true;
        return REDISLOCK_OK;
    }
    if (redislock_zk_lock_check(l, acquired) != REDISLOCK_OK || *acquired) {
        return *acquired ? REDISLOCK_OK : REDISLOCK_ERR;
    }
    if (new_guid(guid) != REDISLOCK_OK) {
        redislock_error_set(&l->err, REDISLOCK_E_RANDOM, "no random bytes for the node's name");
        return REDISLOCK_ERR;
    }
    s = redislock_zk_session_get(l->hosts, l->session_timeout, l->connect_timeout, &l->err);
    if (!s) {
        return REDISLOCK_ERR;
    }
    redislock_zk_orphans_clean(s, request_deadline(l));
    rc = create_node(l, s, guid, &node);
    if (rc != ZOK || !node) {
        return fail(l, rc == ZOK ? ZCONNECTIONLOSS : rc, "creating the lock's node");
    }
    rc = wait_turn(l, s, node, wait_deadline, &first);
    if (rc == ZOK && first && redislock_now_us() >= redislock_zk_session_alive_until(s)) {
        /* Ours, but learnt too late to vouch for it now: asked again. */
        rc = confirm(l, s, node);
        rc = rc == ZNONODE ? ZSESSIONEXPIRED : rc;
    }
    if (rc == ZOK && first) {
        l->node = node;
        l->fence = child_seq(strrchr(node, '/') + 1);
        l->serial = redislock_zk_session_serial(s);
        *acquired = true;
        return REDISLOCK_OK;
    }
    /* Not ours in time, or a failure: our node goes again (later, with the
     * other orphans, when it cannot go now). */
    if (rc != ZSESSIONEXPIRED) {
        int del = redislock_zk_request_delete(s, node, request_deadline(l));
        if (del != ZOK && del != ZNONODE) {
            redislock_zk_orphans_add(s, l->parent, guid);
        }
    }
    efree(node);
    return rc == ZOK ? REDISLOCK_OK : fail(l, rc, "waiting for the lock");
}

int redislock_zk_lock_release(redislock_zk_lock *l, bool *released)
{
    redislock_zk_session *s;
    char guid[REDISLOCK_ZK_GUID_LEN + 1];
    int rc;

    *released = false;
    if (!redislock_zk_lock_held(l)) {
        return REDISLOCK_OK;
    }
    s = redislock_zk_session_find(l->serial);
    rc = redislock_zk_request_delete(s, l->node, request_deadline(l));
    if (outcome_unknown(rc)) {
        node_guid(l->node, guid);
        redislock_zk_orphans_add(s, l->parent, guid);
    }
    drop_hold(l);
    *released = rc == ZOK;
    if (rc == ZOK || rc == ZNONODE || rc == ZSESSIONEXPIRED) {
        return REDISLOCK_OK;
    }
    return fail(l, rc, "deleting the lock's node");
}

int redislock_zk_lock_check(redislock_zk_lock *l, bool *held)
{
    redislock_zk_session *s;
    int rc;

    *held = false;
    if (!redislock_zk_lock_held(l)) {
        return REDISLOCK_OK;
    }
    s = redislock_zk_session_find(l->serial);
    rc = confirm(l, s, l->node);
    if (rc == ZNONODE || rc == ZSESSIONEXPIRED) {
        drop_hold(l);
        return REDISLOCK_OK;
    }
    *held = rc == ZOK;
    return rc == ZOK ? REDISLOCK_OK : fail(l, rc, "checking the lock's node");
}

void redislock_zk_lock_dtor(redislock_zk_lock *l)
{
    drop_hold(l);
    if (l->hosts) {
        efree(l->hosts);
        l->hosts = NULL;
    }
    if (l->parent) {
        efree(l->parent);
        l->parent = NULL;
    }
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
