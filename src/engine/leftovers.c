/*
 * Leftover tokens, removed later.
 *
 * A token whose fate is unknown stays here as the command that removes it
 * (the release script, sent by EVAL so no NOSCRIPT can stop it; it deletes
 * only our own token, so sending it late or twice is always safe). Tokens
 * written by another process (kept across fork()) are dropped, not sent:
 * that process keeps its own.
 *
 * On a cluster, a leftover rides only ahead of a command to its own slot:
 * it then goes to the node that holds its key, whatever that node is doing
 * with the caller's command (the routing layer sends each command of a
 * pipeline again where it belongs, client/route.c).
 */
#include "php_redislock.h"
#include "engine/leftovers.h"
#include "client/cluster.h"
#include "base/clock.h"
#include "base/process.h"

#include <string.h>

typedef struct redislock_leftover {
    redislock_servers *list; /* holds a reference: the server's settings */
    uint32_t index;          /* which server of list */
    int slot;                /* on a cluster, its key's slot; else -1 */
    pid_t pid;               /* process that wrote the token */
    char *cmd;               /* the command that removes it (persistent) */
    size_t len;
    redislock_netopts o;
    redislock_leftover_group *group;
    uint64_t next_try;       /* monotonic us: a flush of all leftovers skips it until then */
    redislock_cmd *sent_with; /* in flight, ahead of this command (see redislock_leftovers_ahead()) */
    int sent_k;              /* its place in that command's pipeline */
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

static const redislock_server *server_of(const redislock_leftover *e)
{
    return &e->list->server[e->index];
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
    e->pid = redislock_process_pid();
    e->cmd = pemalloc(len, 1);
    memcpy(e->cmd, cmd, len);
    e->len = len;
    e->slot = server_of(e)->kind == REDISLOCK_SERVER_CLUSTER ? redislock_cluster_slot(cmd, len) : -1;
    e->o = *o;
    e->o.deadline = 0;
    e->group = group;
    e->next_try = 0;
    e->tries = 0;
    e->sent_with = NULL;
    if (group) {
        group->refs++;
    }
}

static bool same_server(const redislock_server *a, const redislock_server *b)
{
    return a->id_len == b->id_len && memcmp(a->id, b->id, a->id_len) == 0;
}

/* Puts the leftovers of cmd->srv for slot (-1: not a cluster) ahead of
 * cmd; see redislock_leftovers_ahead(). */
static int ahead_of(redislock_cmd *cmd, int slot, int max, bool all, smart_str *buf)
{
    int k = 0;
    uint64_t now = all ? 0 : redislock_now_us();

    for (uint32_t i = 0; i < REDISLOCK_G(nleftovers) && k < max; i++) {
        redislock_leftover *e = &REDISLOCK_G(leftovers)[i];
        if (e->sent_with || e->pid != redislock_process_pid() || e->slot != slot || !same_server(server_of(e), cmd->srv)
            || (!all && e->next_try > now)) {
            continue;
        }
        smart_str_appendl(buf, e->cmd, e->len);
        e->sent_with = cmd;
        e->sent_k = k++;
    }
    return k;
}

int redislock_leftovers_ahead(redislock_cmd *cmd, int max, bool all, smart_str *buf)
{
    int slot = cmd->srv->kind == REDISLOCK_SERVER_CLUSTER ? redislock_cluster_slot(cmd->buf, cmd->len) : -1;

    return ahead_of(cmd, slot, max, all, buf);
}

uint32_t redislock_leftovers_settle(void)
{
    uint32_t answered = 0;

    for (uint32_t i = REDISLOCK_G(nleftovers); i-- > 0;) {
        redislock_leftover *e = &REDISLOCK_G(leftovers)[i];
        const redisReply *r;

        if (!e->sent_with) {
            continue;
        }
        r = redislock_cmd_reply(e->sent_with, e->sent_k);
        e->sent_with = NULL;
        /* An integer: the script ran (a definite error, such as BUSY or
         * NOPERM, means it did not: keep trying). */
        if (r && r->type == REDIS_REPLY_INTEGER) {
            if (r->integer == 1 && e->group && ++e->group->yes == e->group->quorum) {
                REDISLOCK_G(stats).auto_released++;
            }
            forget(i);
            answered++;
        } else {
            e->tries++;
            e->next_try = redislock_now_us() + MIN((uint64_t) RETRY_MIN_US << MIN(e->tries - 1, 6), RETRY_MAX_US);
        }
    }
    return answered;
}

/* One round: up to REDISLOCK_PIPELINE_MAX leftovers of each server (on a
 * cluster, of each slot; of one persistence, the oldest leftover's; not
 * those of a server that did not answer lately), sent at once. Returns
 * how many were answered and forgotten. */
static uint32_t flush_round(uint64_t deadline)
{
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    smart_str bufs[REDISLOCK_MAX_SERVERS];
    int slots[REDISLOCK_MAX_SERVERS];
    size_t n = 0;
    uint32_t answered;
    redislock_netopts o = { 0 };
    bool chosen = false;
    uint64_t now = redislock_now_us();

    for (uint32_t i = 0; i < REDISLOCK_G(nleftovers); i++) {
        redislock_leftover *e = &REDISLOCK_G(leftovers)[i];
        const redislock_server *srv = server_of(e);
        size_t g;

        if (e->next_try > now) {
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
        for (g = 0; g < n && !(same_server(cmds[g].srv, srv) && slots[g] == e->slot); g++);
        if (g == n && n < REDISLOCK_MAX_SERVERS) {
            memset(&bufs[n], 0, sizeof(bufs[n]));
            cmds[n].srv = srv;
            slots[n] = e->slot;
            cmds[n].count = ahead_of(&cmds[n], e->slot, REDISLOCK_PIPELINE_MAX, false, &bufs[n]);
            cmds[n].buf = ZSTR_VAL(bufs[n].s);
            cmds[n].len = ZSTR_LEN(bufs[n].s);
            n++;
        }
    }
    if (n == 0) {
        return 0;
    }
    o.one_deadline = true;
    o.deadline = deadline;
    redislock_exec(cmds, n, &o);
    answered = redislock_leftovers_settle();
    redislock_cmd_dtor(cmds, n);
    for (size_t g = 0; g < n; g++) {
        smart_str_free(&bufs[g]);
    }
    return answered;
}

void redislock_leftovers_flush(uint64_t deadline)
{
    /* Inherited across fork(): the parent removes its own. */
    for (uint32_t i = REDISLOCK_G(nleftovers); i-- > 0;) {
        if (REDISLOCK_G(leftovers)[i].pid != redislock_process_pid()) {
            forget(i);
        }
    }
    /* Another round only while rounds make progress and time is left. */
    while (REDISLOCK_G(nleftovers) > 0 && redislock_now_us() < deadline
           && flush_round(deadline) > 0) {
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

redislock_leftover_group *redislock_leftovers_group_new(uint32_t quorum)
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
