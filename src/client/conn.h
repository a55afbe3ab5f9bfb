/*
 * A pooled connection and how a command moves over it: shared by the pool
 * (redislock_pool.c), which finds and opens connections, and the I/O
 * (redislock_io.c), which drives commands over them. Private to those two
 * and the routing under the pool (redislock_route.c), which readies
 * commands it could not route as the pool would.
 */
#ifndef REDISLOCK_CONN_H
#define REDISLOCK_CONN_H

#include "client/pool.h"
#include "client/transport.h"

struct redislock_conn {
    redislock_transport t;       /* the bytes' way to the server */
    redisReader *reader;         /* hiredis's RESP parser, limited (redislock_reply.h) */
    char *id;                   /* the server's identity (see redislock_server.id) */
    size_t id_len;
    char *label;                /* printable address */
    pid_t pid;                  /* process that opened it */
    uint32_t flags;
    unsigned long long commands; /* replies read over it */
    char *hello;                 /* pipelined AUTH/SELECT/CLIENT SETNAME still to send, or NULL */
    size_t hello_len;
    int hello_count;             /* commands in hello */
    bool hello_auth;             /* hello starts with AUTH */
    bool hello_select;           /* hello has SELECT after AUTH (if any) */
    int owed;                    /* replies still to come for commands given up (a round decided
                                    early): read and thrown away before the next command's */
    uint64_t owed_until;         /* monotonic us: they should have come by then */
    char refused[128];           /* an error the server answered the handshake with although it was
                                    not fatal (CLIENT SETNAME), until a command's reply came: if the
                                    connection breaks meanwhile, this is why (maxclients) */
};

#define REDISLOCK_CONN_PERSISTENT (1<<0) /* kept across requests */
#define REDISLOCK_CONN_BUSY       (1<<1) /* a command was sent and its reply not read yet */
#define REDISLOCK_CONN_CONNECTING (1<<2) /* connect() not finished yet */

#define PHASE_CONNECT 0 /* non-blocking connect under way */
#define PHASE_SEND 1
#define PHASE_RECV 2
#define PHASE_DONE 3
#define PHASE_PROBE 4   /* connected again after a handshake broke: listening before sending */
#define PHASE_IDLE 5    /* not under way (not readied, or refused before it was) */

/* How long a connection reopened after its handshake broke listens before
 * it sends: a server at maxclients writes its refusal and closes at once,
 * and a handshake already on its way would turn that into a reset that
 * loses the message. */
#define PROBE_US 250000

#define REDISLOCK_CMD_NOTSENT 5 /* private: the first write failed, safe to resend */

/* Removes a connection from the pool and closes it. */
void redislock_conn_drop(redislock_conn *c);

/* Whether c holds bytes from the server not taken out as a reply: in its
 * reply reader, or inside its transport (a TLS record read ahead). Once a
 * command's replies are all read, or when the connection is idle, anything
 * at all means the server sent what nobody asked for: the replies may be
 * out of step, and the connection must not be used again. */
bool redislock_conn_holds(const redislock_conn *c);

/* Most replies a connection may owe; beyond, it is closed instead. */
#define REDISLOCK_OWED_MAX 8

/* Reads what the socket has of the replies c owes, without waiting, and
 * throws them away. false when the connection cannot be used any more (it
 * broke, the replies did not come in time, or more came than owed). */
bool redislock_conn_drain(redislock_conn *c, uint64_t now);

/* Drives the commands (each with its connection) until every one has its
 * reply or failed, or its deadline passes. A reply that arrived by the
 * deadline is always read. */
void redislock_io_run(redislock_cmd **cmds, size_t n, const redislock_netopts *o);

/* Sets the command's deadline to timeout_ms after from, or to the
 * operation's own deadline when that comes first. */
void redislock_cmd_deadline(redislock_cmd *cmd, const redislock_netopts *o, uint64_t from, zend_long timeout_ms);

#endif /* REDISLOCK_CONN_H */
