/*
 * Leftover tokens, removed later.
 *
 * A token whose fate is unknown stays here as the command that removes it
 * (the release script, sent by EVAL so no NOSCRIPT can stop it; it deletes
 * only our own token, so sending it late or twice is always safe). Tokens
 * written by another process (kept across fork()) are dropped, not sent:
 * that process keeps its own.
 */
#include "php_redislock.h"
#include "redislock_leftovers.h"

#include <string.h>

typedef struct redislock_leftover {
    redislock_servers *list; /* holds a reference: the server's settings */
    uint32_t index;          /* which server of list */
    pid_t pid;               /* process that wrote the token */
    char *cmd;               /* the command that removes it (persistent) */
    size_t len;
    redislock_netopts o;
    redislock_leftover_group *group;
    uint64_t next_try;       /* monotonic us: a flush of all leftovers skips it until then */
    uint32_t tries;          /* times sent without an answer */
} redislock_leftover;

#define RETRY_MIN_US 1000000   /* a server that did not answer is tried again after 1 s, */
#define RETRY_MAX_US 60000000  /* doubling up to a minute (unless an operation reaches it first) */

static void group_release(redislock_leftover_group *g)
{
    if (g && --g->refs == 0) {
        pefree(g, 1);
    }
}

/* Forgets leftover i, keeping the others in order (oldest first). */
static void forget(uint32_t i)
{
    redislock_leftover *e = &REDISLOCK_G(leftovers)[i];

    redislock_servers_release(e->list);
    pefree(e->cmd, 1);
    group_release(e->group);
    memmove(e, e + 1, (REDISLOCK_G(nleftovers) - i - 1) * sizeof(*e));
    REDISLOCK_G(nleftovers)--;
}

void redislock_leftovers_add(const redislock_servers *list, uint32_t index, const char *cmd, size_t len,
                             const redislock_netopts *o, redislock_leftover_group *group)
{
    redislock_leftover *e;

    if (!REDISLOCK_G(leftovers)) {
        REDISLOCK_G(leftovers) = pemalloc(REDISLOCK_LEFTOVERS_MAX * sizeof(redislock_leftover), 1);
    }
    if (REDISLOCK_G(nleftovers) == REDISLOCK_LEFTOVERS_MAX) {
        forget(0);
    }
    e = &REDISLOCK_G(leftovers)[REDISLOCK_G(nleftovers)++];
    redislock_servers_addref((redislock_servers *) list);
    e->list = (redislock_servers *) list;
    e->index = index;
    e->pid = redislock_pid();
    e->cmd = pemalloc(len, 1);
    memcpy(e->cmd, cmd, len);
    e->len = len;
    e->o = *o;
    e->o.deadline = 0;
    e->group = group;
    e->next_try = 0;
    e->tries = 0;
    if (group) {
        group->refs++;
    }
}

static const redislock_server *server_of(const redislock_leftover *e)
{
    return &e->list->server[e->index];
}

static bool same_server(const redislock_server *a, const redislock_server *b)
{
    return a->id_len == b->id_len && memcmp(a->id, b->id, a->id_len) == 0;
}

bool redislock_leftovers_for(const redislock_server *srv)
{
    for (uint32_t i = 0; i < REDISLOCK_G(nleftovers); i++) {
        if (same_server(server_of(&REDISLOCK_G(leftovers)[i]), srv)) {
            return true;
        }
    }
    return false;
}

static bool wanted(const redislock_server *srv, const redislock_server *const *only, size_t nonly)
{
    if (!only) {
        return true;
    }
    for (size_t k = 0; k < nonly; k++) {
        if (same_server(srv, only[k])) {
            return true;
        }
    }
    return false;
}

/* One round: up to REDISLOCK_PIPELINE_MAX leftovers of each server (of one
 * persistence, the oldest leftover's), sent at once. Returns how many were
 * answered and forgotten. */
static uint32_t flush_round(const redislock_server *const *only, size_t nonly, uint64_t deadline)
{
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    uint32_t members[REDISLOCK_MAX_SERVERS][REDISLOCK_PIPELINE_MAX];
    bool done[REDISLOCK_LEFTOVERS_MAX] = { false };
    size_t n = 0;
    uint32_t answered = 0;
    redislock_netopts o = { 0 };
    bool chosen = false;

    for (uint32_t i = 0; i < REDISLOCK_G(nleftovers); i++) {
        redislock_leftover *e = &REDISLOCK_G(leftovers)[i];
        const redislock_server *srv = server_of(e);
        size_t g;

        if (!wanted(srv, only, nonly) || (!only && e->next_try > redislock_now_us())) {
            continue;
        }
        if (!chosen) {
            o = e->o;
            chosen = true;
        } else if (e->o.persistent != o.persistent) {
            continue;
        }
        o.read_timeout = MAX(o.read_timeout, e->o.read_timeout);
        o.connect_timeout = MAX(o.connect_timeout, e->o.connect_timeout);
        for (g = 0; g < n && !same_server(cmds[g].srv, srv); g++);
        if (g == n) {
            if (n == REDISLOCK_MAX_SERVERS) {
                continue;
            }
            cmds[n].srv = srv;
            cmds[n].count = 0;
            cmds[n].len = 0;
            n++;
        }
        if (cmds[g].count < REDISLOCK_PIPELINE_MAX) {
            members[g][cmds[g].count++] = i;
            cmds[g].len += e->len;
        }
    }
    if (n == 0) {
        return 0;
    }
    for (size_t g = 0; g < n; g++) {
        char *buf = emalloc(cmds[g].len), *p = buf;
        for (int k = 0; k < cmds[g].count; k++) {
            redislock_leftover *e = &REDISLOCK_G(leftovers)[members[g][k]];
            memcpy(p, e->cmd, e->len);
            p += e->len;
        }
        cmds[g].buf = buf;
    }
    o.one_deadline = true;
    o.deadline = deadline;
    redislock_pool_exec(cmds, n, &o);
    for (size_t g = 0; g < n; g++) {
        for (int k = 0; k < cmds[g].count; k++) {
            const redisReply *r = redislock_cmd_reply(&cmds[g], k);
            redislock_leftover *e = &REDISLOCK_G(leftovers)[members[g][k]];
            /* An integer: the script ran (a definite error, such as BUSY
             * or NOPERM, means it did not: keep trying). */
            if (r && r->type == REDIS_REPLY_INTEGER) {
                if (r->integer == 1 && e->group && ++e->group->yes == e->group->quorum) {
                    REDISLOCK_G(stats).auto_released++;
                }
                done[members[g][k]] = true;
                answered++;
            } else {
                e->tries++;
                e->next_try = redislock_now_us() + MIN((uint64_t) RETRY_MIN_US << MIN(e->tries - 1, 6), RETRY_MAX_US);
            }
        }
        efree((char *) cmds[g].buf);
        cmds[g].buf = NULL;
    }
    redislock_cmds_dtor(cmds, n);
    for (uint32_t i = REDISLOCK_G(nleftovers); i-- > 0;) {
        if (done[i]) {
            forget(i);
        }
    }
    return answered;
}

void redislock_leftovers_flush(const redislock_server *const *only, size_t nonly, uint64_t deadline)
{
    /* Inherited across fork(): the parent removes its own. */
    for (uint32_t i = REDISLOCK_G(nleftovers); i-- > 0;) {
        if (REDISLOCK_G(leftovers)[i].pid != redislock_pid()) {
            forget(i);
        }
    }
    /* Another round only while rounds make progress and time is left. */
    while (REDISLOCK_G(nleftovers) > 0 && redislock_now_us() < deadline
           && flush_round(only, nonly, deadline) > 0) {
    }
}

uint64_t redislock_leftovers_deadline(void)
{
    zend_long longest = 0;

    for (uint32_t i = 0; i < REDISLOCK_G(nleftovers); i++) {
        longest = MAX(longest, REDISLOCK_G(leftovers)[i].o.read_timeout);
    }
    return redislock_now_us() + (uint64_t) longest * 1000;
}

redislock_leftover_group *redislock_leftover_group_new(uint32_t quorum)
{
    redislock_leftover_group *g = pecalloc(1, sizeof(*g), 1);

    g->quorum = quorum;
    return g;
}

void redislock_leftovers_shutdown(void)
{
    while (REDISLOCK_G(nleftovers) > 0) {
        forget(REDISLOCK_G(nleftovers) - 1);
    }
    if (REDISLOCK_G(leftovers)) {
        pefree(REDISLOCK_G(leftovers), 1);
        REDISLOCK_G(leftovers) = NULL;
    }
}
