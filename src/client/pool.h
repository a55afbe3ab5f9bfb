/*
 * Connection pool and command I/O.
 *
 * Connections are hiredis contexts kept for the life of the process
 * (persistent) or of the request. hiredis opens them and speaks the protocol;
 * the I/O itself is non-blocking and multiplexed with poll(), so one command
 * can go to several servers at once and a slow server costs at most the read
 * timeout. No zvals here.
 */
#ifndef REDISLOCK_POOL_H
#define REDISLOCK_POOL_H

#include "config/config.h"
#include "base/process.h"
#include "base/clock.h"
#include "base/hex.h"
#include "base/resp.h"
#include <hiredis/hiredis.h>

/* Outcome of one command on one server. */
#define REDISLOCK_CMD_OK 0       /* a reply was read (cmd->reply) */
#define REDISLOCK_CMD_CONNECT 1  /* no usable connection: nothing was sent */
#define REDISLOCK_CMD_LOST 2     /* connection lost after sending: outcome unknown */
#define REDISLOCK_CMD_TIMEOUT 3  /* no reply in time: outcome unknown */
#define REDISLOCK_CMD_ERROR 4    /* the server replied with an error (cmd->reply) */
#define REDISLOCK_CMD_TOO_LARGE 6 /* the reply is larger than the operation reads (netopts.reply_max): the
                                     command ran, the connection is closed; asking again gets the same */

#define REDISLOCK_ERRLEN 256
#define REDISLOCK_GRACE_US 200          /* decided early: the others get as long again as that took, and this */
/* A blocking round (BLPOP on every server of a quorum): once one server
 * answered, the others get this long. The wake-ups of one release reach
 * every server at once; one that is not there by then went to another
 * waiter (or was never pushed), and waiting on for it would only hold up
 * everyone whose wake-ups we took. */
#define REDISLOCK_BLOCK_GRACE_US 2000
#define REDISLOCK_STRIKES 3             /* a server given up this many rounds in a row ... */
#define REDISLOCK_SKIP_US 1000000       /* ... is left out of rounds that can do without it for this long */
#define REDISLOCK_PIPELINE_MAX 32 /* longest pipeline (a handshake is 3: AUTH, SELECT, CLIENT SETNAME) */

typedef struct redislock_conn redislock_conn;

/* One command for one server. The caller fills srv, buf and len; the pool
 * fills reply (free with freeReplyObject), status and errstr. */
typedef struct redislock_cmd {
    const redislock_server *srv;
    const char *buf;       /* RESP-encoded command, shared by all servers */
    size_t len;
    int count;             /* commands in buf: 1, or up to REDISLOCK_PIPELINE_MAX pipelined */
    uint32_t idx;          /* the caller's: which of its servers this is */
    redisReply *reply;
    int status;
    char errstr[REDISLOCK_ERRLEN];
    /* private */
    redislock_conn *conn;
    const char *out;              /* what is being sent: the handshake, then buf */
    size_t outlen;
    bool in_hello;                /* a new connection's handshake comes first */
    uint64_t deadline;            /* monotonic us: connect, then reply, must be done by then */
    uint64_t probe_until;         /* reopened after a broken handshake: listen first, until then */
    zend_long timeout_ms;         /* what the deadline stands for, for messages */
    size_t sent;
    int phase;
    int expect;                   /* replies to read: pipelined commands in buf */
    int got;                      /* replies read so far */
    redisReply *early[REDISLOCK_PIPELINE_MAX - 1]; /* replies before the last one (status and
                                                      errstr describe the last only) */
} redislock_cmd;

/* Ends a round before every server answered, once the outcome is known
 * whatever the rest would say: a quorum said yes, or too few can still say
 * yes. vote() reads a finished command: 1 yes, 0 no, -1 failure. */
typedef struct redislock_enough {
    const struct redislock_cmd *cmds; /* all the round's commands */
    size_t n;
    uint32_t quorum;
    int (*vote)(const struct redislock_cmd *cmd);
} redislock_enough;

/* How to reach the servers. */
typedef struct redislock_netopts {
    zend_long connect_timeout; /* ms */
    zend_long read_timeout;    /* ms, for the whole exchange */
    bool persistent;
    bool one_deadline;         /* connect, handshake and reply all within read_timeout */
    uint64_t deadline;         /* monotonic us: the operation ends by then whatever the timeouts (0: none) */
    const redislock_enough *enough; /* stop waiting once the outcome is known (NULL: wait for all) */
    bool blocking;             /* the command blocks on the server (BLPOP): one given up is closed, not
                                  left to take what comes later, and says nothing of the server's health */
    size_t reply_max;          /* bytes the reply may take (0: REDISLOCK_REPLY_MAX_BUFFER, for small replies) */
} redislock_netopts;

/* Sends each command to its server (opening connections as needed) and
 * gathers all replies, with one deadline of read_timeout for the lot. A
 * Sentinel or Cluster server's command goes to the node that takes it now
 * (redislock_topology.h). With opts->enough, once the outcome is known the
 * others get as long again as that took (and REDISLOCK_GRACE_US), then are
 * given up: a command sent whole leaves its connection owing the replies
 * (read and thrown away before the next command's), any other is closed;
 * they fail as not answered in time. */
void redislock_pool_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts);

/* As redislock_pool_exec(), every server taken as one server. */
void redislock_pool_exec_direct(redislock_cmd *cmds, size_t n, const redislock_netopts *opts);

/* Closes the pooled connections to srv (its master changed). */
void redislock_pool_forget(const redislock_server *srv);

/* The reply to the k-th command of cmd's pipeline (0-based), or NULL when
 * it was not read (the exchange failed first, or never got past a new
 * connection's handshake). */
const redisReply *redislock_cmd_reply(const redislock_cmd *cmd, int k);

/* Whether a command of an exec under way has its outcome (a reply, or a
 * failure). */
bool redislock_cmd_finished(const redislock_cmd *cmd);

/* Whether the outcome of a round is known from its finished commands. */
bool redislock_enough_known(const redislock_enough *e);
/* Whether a command of the round has answered (yes or no, not failed). */
bool redislock_enough_any_answer(const redislock_enough *e);

/* Frees the replies of a finished exec. */
void redislock_cmds_dtor(redislock_cmd *cmds, size_t n);


/* Drops connections left in an unknown state (a command sent, its reply
 * never read: the request was cut short). */
void redislock_pool_drop_dirty(void);

/* Request end: drops connections left in an unknown state and closes the
 * request-scoped ones. */
void redislock_pool_request_end(void);

/* Process end: closes every connection. */
void redislock_pool_shutdown(void);

/* The pool's state for phpinfo(): calls fn once per connection. */
void redislock_pool_describe(void (*fn)(const char *label, bool persistent, long pid, unsigned long long commands, void *arg), void *arg);

#endif /* REDISLOCK_POOL_H */
