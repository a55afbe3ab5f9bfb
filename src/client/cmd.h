/*
 * A command for one server and what came of it: the bottom of the Redis
 * client. The caller fills in what to send and where; the layers above
 * (exec, route, pool, io) fill in the replies, a status and errstr, as
 * hiredis keeps err and errstr in its context. Also the options of an
 * exchange (redislock_netopts) and the quorum test that lets a round end
 * before every server answered (redislock_enough). No zvals here.
 */
#ifndef REDISLOCK_CMD_H
#define REDISLOCK_CMD_H

#include "base/error.h"
#include "config/config.h"
#include <hiredis/hiredis.h>

/* Outcome of one command on one server. */
#define REDISLOCK_CMD_OK 0       /* a reply was read (cmd->reply) */
#define REDISLOCK_CMD_CONNECT 1  /* no usable connection: nothing was sent */
#define REDISLOCK_CMD_LOST 2     /* connection lost after sending: outcome unknown */
#define REDISLOCK_CMD_TIMEOUT 3  /* no reply in time: outcome unknown */
#define REDISLOCK_CMD_ERROR 4    /* the server replied with an error (cmd->reply) */
#define REDISLOCK_CMD_NOTSENT 5  /* inside an exchange only: not sent yet, or the first write failed (safe to
                                    send again) */
#define REDISLOCK_CMD_TOO_LARGE 6 /* the reply is larger than the operation reads (netopts.reply_max): the
                                     command ran, the connection is closed; asking again gets the same */
#define REDISLOCK_CMD_SAME_SERVER 7 /* the exchange (netopts.identify) reached one server under two names:
                                       every command of it ends so, whatever it did (errstr names them) */

#define REDISLOCK_ERRLEN 256
#define REDISLOCK_PIPELINE_MAX 32 /* longest pipeline (a handshake is 5: AUTH, SELECT, CLIENT SETNAME, HELLO, INFO) */

/* Where a command is in an exchange (client/io.c). */
typedef enum {
    REDISLOCK_PHASE_CONNECT = 0, /* non-blocking connect under way */
    REDISLOCK_PHASE_SEND = 1,
    REDISLOCK_PHASE_RECV = 2,
    REDISLOCK_PHASE_DONE = 3,
    REDISLOCK_PHASE_PROBE = 4,   /* connected again after a handshake broke: listening before sending */
    REDISLOCK_PHASE_IDLE = 5,    /* not under way (not readied, or refused before it was) */
} redislock_phase;

/* Commands some servers have, that a script does otherwise (a connection
 * learns which from its handshake: client/conn.h). */
#define REDISLOCK_NATIVE_DELIFEQ (1<<0) /* DELIFEQ key value (Valkey 9.0+) */
#define REDISLOCK_NATIVE_DELEX   (1<<1) /* DELEX key IFEQ value (Redis 8.4+, Valkey 9.2+) */
#define REDISLOCK_NATIVE_SETIFEQ (1<<2) /* SET key value ... IFEQ value (Valkey 8.1+, Redis 8.4+) */

/* What a command may be sent as instead of its buf, on a connection whose
 * server has the native commands needs: a pipeline of count commands. */
typedef struct redislock_native {
    uint32_t needs;
    const char *buf;
    size_t len;
    int count;
} redislock_native;
#define REDISLOCK_NATIVES_MAX 2

#define REDISLOCK_RUN_ID_MAX 40 /* a Redis run id: 40 hex digits */

/* A pooled connection (client/conn.h): only a pointer to it here. */
typedef struct redislock_conn redislock_conn;

/* One command for one server. The caller fills srv, buf and len; the
 * exchange fills reply (free with redislock_cmd_dtor), status and errstr. */
typedef struct redislock_cmd {
    const redislock_server *srv;
    const char *buf;       /* RESP-encoded command, shared by all servers */
    size_t len;
    int count;             /* commands in buf: 1, or up to REDISLOCK_PIPELINE_MAX pipelined */
    uint32_t idx;          /* the caller's: which of its servers this is */
    redisReply *reply;
    int status;
    char errstr[REDISLOCK_ERRLEN];
    uint32_t term_serial;  /* status OK: the serial number of the connection that answered, 0 when no release
                              is ever written to it on SIGTERM (client/term.h: TLS), or before */
    int term_fd;           /* and its descriptor */
    const redislock_native *natives; /* read only with netopts.natives: the forms it may take instead of
                                        buf, the first its connection's server can run wins (nnatives) */
    int nnatives;
    int native;            /* status OK or ERROR: which was sent, k + 1 for natives[k]; 0 for buf */
    uint8_t ahead;         /* read only with netopts.ahead: how many of the first commands in buf are the
                              caller's leftovers (releases that ride ahead of its own) */
    /* private */
    redislock_conn *conn;
    const char *out;              /* what is being sent: the handshake, then buf */
    size_t outlen;
    bool in_hello;                /* a new connection's handshake comes first */
    uint64_t deadline;            /* monotonic us: connect, then reply, must be done by then */
    uint64_t probe_until;         /* reopened after a broken handshake: listen first, until then */
    zend_long timeout_ms;         /* what the deadline stands for, for messages */
    size_t sent;
    redislock_phase phase;
    int expect;                   /* replies to read: pipelined commands in buf */
    int got;                      /* replies read so far */
    redisReply *early[REDISLOCK_PIPELINE_MAX - 1]; /* replies before the last one (status and
                                                      errstr describe the last only) */
    char run_id[REDISLOCK_RUN_ID_MAX + 1]; /* with netopts.identify: the run id of a connection closed
                                              in the exchange (given up once a quorum answered), so
                                              that the exchange still sees whom it reached */
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
    bool identify;             /* the commands go to every server of one list (a quorum): a connection
                                  learns its server's run id when it opens (INFO server, in its
                                  handshake), and two that reach the same server end the exchange
                                  (REDISLOCK_CMD_SAME_SERVER). An open connection costs nothing more. */
    bool natives;              /* the commands' natives are set (else they are ignored, and may be unset) */
    bool ahead;                /* with identify: the commands' ahead is set, and the replies of that many
                                  first commands of each pipeline are kept when the exchange ends as
                                  REDISLOCK_CMD_SAME_SERVER (else ahead is ignored, and may be unset) */
    size_t reply_max;          /* bytes the reply may take (0: REDISLOCK_REPLY_MAX_BUFFER, for small replies) */
} redislock_netopts;

/* Readies a command for an exchange: nothing read, nothing sent, no
 * connection yet. Inlined: every exchange runs it for every command. */
static zend_always_inline void redislock_cmd_reset(redislock_cmd *cmd)
{
    cmd->reply = NULL;
    cmd->status = REDISLOCK_CMD_NOTSENT;
    cmd->errstr[0] = '\0';
    cmd->term_serial = 0;
    cmd->native = 0;
    cmd->conn = NULL;
    cmd->got = 0;
    cmd->expect = 1;
    cmd->in_hello = false;
    cmd->probe_until = 0;
    cmd->phase = REDISLOCK_PHASE_IDLE;
}

/* Sets the command's deadline to timeout_ms after from, or to the
 * operation's own deadline when that comes first. */
void redislock_cmd_deadline(redislock_cmd *cmd, const redislock_netopts *o, uint64_t from, zend_long timeout_ms);

/* The reply to the k-th command of cmd's pipeline (0-based), or NULL when
 * it was not read (the exchange failed first, or never got past a new
 * connection's handshake). */
const redisReply *redislock_cmd_reply(const redislock_cmd *cmd, int k);

/* Frees the replies of cmd's pipeline from place keep on (the last one
 * too), keeping those before it for redislock_cmd_reply() (all of them
 * while a handshake's come first). redislock_cmd_dtor() is this with 0. */
void redislock_cmd_keep_first(redislock_cmd *cmd, int keep);

/* Takes the reply at place k of cmd's pipeline out of cmd (so that
 * redislock_cmd_dtor() leaves it alone); the caller frees it. */
redisReply *redislock_cmd_take_reply(redislock_cmd *cmd, int k);

/* Ends cmd outside an exchange with the given outcome: replies[k] is the
 * reply to its k-th command (NULL: none), taken over by cmd; status and
 * errstr those of the last. */
void redislock_cmd_finish(redislock_cmd *cmd, redisReply *const *replies, int status, const char *errstr);

/* Whether a command of an exchange under way has its outcome (a reply, or
 * a failure). */
bool redislock_cmd_finished(const redislock_cmd *cmd);

/* Ends cmd as refused by r, an error reply to it (or to a command of its
 * pipeline): status REDISLOCK_CMD_ERROR, errstr "HOST replied: TEXT" with
 * the text made safe to show (redislock_reply_error_text()) and, for a
 * refusal of the server's state, what to do (redislock_reply_refusal()). */
void redislock_cmd_refused(redislock_cmd *cmd, const redisReply *r);

/* The kind of failure a finished command is, where replies become kinds:
 * REDISLOCK_E_CONNECTION when the server was not reached, did not answer
 * in time or was lost, or refused to serve anyone now because of its own
 * state (any reply of the command that redislock_reply_refusal() names:
 * LOADING, READONLY, OOM, NOAUTH...), since trying again later may work;
 * REDISLOCK_E_SERVER for any other failure (an error reply about the
 * request: NOPERM, WRONGTYPE, ERR...); REDISLOCK_E_NONE when it did not
 * fail. */
redislock_errcode redislock_cmd_kind(const redislock_cmd *cmd);

/* Frees the replies of n finished commands. */
void redislock_cmd_dtor(redislock_cmd *cmds, size_t n);

/* Whether the outcome of a round is known from its finished commands. */
bool redislock_cmd_enough_known(const redislock_enough *e);
/* Whether a command of the round has answered (yes or no, not failed). */
bool redislock_cmd_enough_answered(const redislock_enough *e);

#endif /* REDISLOCK_CMD_H */
