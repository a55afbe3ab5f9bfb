/*
 * A connection to one server: its transport, its reply reader, the
 * handshake a new one sends first, and the replies it still owes for
 * commands given up. Connections live in the process's list
 * (REDISLOCK_G(conns)): opened and dropped here, found, reused and closed
 * by the pool (client/pool.c), driven by the I/O (client/io.c).
 */
#ifndef REDISLOCK_CONN_H
#define REDISLOCK_CONN_H

#include "config/config.h"
#include "client/cmd.h"
#include "client/transport.h"
#include "client/reply.h"

struct redislock_conn {
    redislock_transport t;       /* the bytes' way to the server */
    redisReader *reader;         /* hiredis's RESP parser, limited (client/reply.h) */
    char *id;                   /* the server's identity (see redislock_server.id) */
    size_t id_len;
    char *label;                /* printable address */
    pid_t pid;                  /* process that opened it */
    uint32_t serial;            /* its number in the process, for the releases on SIGTERM (client/term.h);
                                   0 when the handler never writes to it (TLS) */
    uint32_t *term_mark;        /* where the handler looks for whether it may write to it now
                                   (redislock_term_mark()) */
    uint32_t flags;
    unsigned long long commands; /* replies read over it */
    char *hello;                 /* pipelined AUTH/SELECT/CLIENT SETNAME/HELLO/INFO still to send, or NULL */
    size_t hello_len;
    int hello_count;             /* commands in hello */
    bool hello_auth;             /* hello starts with AUTH */
    bool hello_select;           /* hello has SELECT after AUTH (if any) */
    bool hello_setname;          /* hello has CLIENT SETNAME after those (if any) */
    bool hello_server;           /* hello has HELLO 2 after those: the server's name and version */
    bool hello_info;             /* hello ends with INFO server: the run id */
    uint32_t natives;            /* REDISLOCK_NATIVE_* the server has (from HELLO; 0 when not known) */
    char run_id[REDISLOCK_RUN_ID_MAX + 1]; /* the server's run id, "" when not known (not asked, or
                                                   INFO refused: ACL) */
    int owed;                    /* replies still to come for commands given up (a round decided
                                    early): read and thrown away before the next command's */
    uint64_t owed_until;         /* monotonic us: they should have come by then */
    char refused[128];           /* an error the server answered the handshake with although it was
                                    not fatal (CLIENT SETNAME), until a command's reply came: if the
                                    connection breaks meanwhile, this is why (maxclients) */
};

#define REDISLOCK_CONN_PERSISTENT (1<<0) /* kept across requests */
#define REDISLOCK_CONN_IDENTIFIED (1<<3) /* asked for the server's run id (run_id, whatever came) */
#define REDISLOCK_CONN_BUSY       (1<<1) /* a command was sent and its reply not read yet */
#define REDISLOCK_CONN_CONNECTING (1<<2) /* connect() not finished yet */

/* Most replies a connection may owe; beyond, it is closed instead. */
#define REDISLOCK_CONN_OWED_MAX 8

/* Starts connecting to srv (non-blocking: the connect completes in the
 * I/O's poll() loop, alongside the other servers, so an unreachable host
 * holds up nobody), prepares (without sending it) the handshake that must
 * precede any command (AUTH, SELECT, CLIENT SETNAME, HELLO, and with identify INFO
 * server for the run id) and adds the connection to the list. On failure
 * returns NULL with a message in err. */
redislock_conn *redislock_conn_open(const redislock_server *srv, bool persistent, bool identify, char *err,
                                    size_t errlen);

/* Makes an open connection ask its server's run id (INFO server) ahead of
 * its next command, as a handshake of its own. */
void redislock_conn_ask_identity(redislock_conn *c);

/* Takes the run id from r, the reply to INFO server (none when the server
 * refused it: an ACL without INFO); c is identified either way. */
void redislock_conn_identity(redislock_conn *c, const redisReply *r);

/* The native commands a server has, from its reply to HELLO 2 (its name,
 * "valkey" or "redis", and version): 0 for anything else. */
uint32_t redislock_conn_natives(const redisReply *r);

/* Points cmd's output at what goes over its connection after the
 * handshake: its buf, or the first of its natives the connection's server
 * can run (cmd->native says which). cmd->nnatives must be set (0 when the
 * exchange's netopts.natives is not): client/pool.c calls it only for a
 * connection whose server has native commands, or after a handshake. */
void redislock_conn_choose(redislock_cmd *cmd);

/* Checks the handshake replies of a new connection (h: its handshake
 * command, all replies in). REDISLOCK_ERR with the message in err when AUTH
 * or SELECT was refused; a refused CLIENT SETNAME is kept in c->refused; the
 * INFO reply, if asked, gives the run id. */
int redislock_conn_hello_check(redislock_cmd *h, char *err, size_t errlen);

/* Removes a connection from the list and closes it. Only the file
 * descriptor is closed: nothing is ever written on the way out, so a
 * connection inherited across fork() can be dropped without disturbing the
 * parent that still uses it. */
void redislock_conn_drop(redislock_conn *c);

/* Whether c holds bytes from the server not taken out as a reply: in its
 * reply reader, or inside its transport (a TLS record read ahead). Once a
 * command's replies are all read, or when the connection is idle, anything
 * at all means the server sent what nobody asked for: the replies may be
 * out of step, and the connection must not be used again. */
static inline bool redislock_conn_holds(const redislock_conn *c)
{
    return redislock_reply_pending(c->reader) || c->t.ops->pending(&c->t);
}

/* Throws away the replies c owes for commands given up as far as the
 * reader has them whole. false on a protocol error. */
bool redislock_conn_discard_owed(redislock_conn *c);

/* Reads what the socket has of the replies c owes, without waiting, and
 * throws them away. false when the connection cannot be used any more (it
 * broke, the replies did not come in time, or more came than owed). */
bool redislock_conn_drain(redislock_conn *c, uint64_t now);

#endif /* REDISLOCK_CONN_H */
