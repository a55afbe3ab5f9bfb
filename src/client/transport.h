/*
 * Transports: how bytes reach a server. The I/O drives every connection
 * through one table of operations (as hiredis 1.x does with its
 * redisContextFuncs), so that a new transport (TLS, client/tls.c) is a
 * new table, not a branch in the I/O, and no caller compares tables. Each
 * keeps its errors hiredis-style: err (an errno value, 0 when none) and
 * errstr, in the transport itself, and its own state behind priv (as
 * hiredis's privctx). This file also holds the plain transports: TCP (IPv4,
 * else IPv6, as hiredis resolves) and unix sockets.
 *
 * All are non-blocking: connect() starts, the pool polls the descriptor
 * for writability (or what want says), then connected() finishes, or says
 * REDISLOCK_AGAIN and what to wait for in want (a TLS handshake is several
 * round trips, driven by the same poll() loop as everything else).
 */
#ifndef REDISLOCK_TRANSPORT_H
#define REDISLOCK_TRANSPORT_H

#include "config/config.h"
#include <sys/types.h>

typedef struct redislock_transport redislock_transport;

typedef struct redislock_transport_ops {
    const char *name;       /* for messages: "TLS" */
    /* A hint for a server that hangs up on the first command without a
     * word: the port may speak another protocol. NULL: none. */
    const char *hangup_hint;
    /* A hint for a handshake of the transport's own (handshaking) that did
     * not end in time. NULL for a transport with none. */
    const char *stall_hint;
    /* Starts connecting to srv. REDISLOCK_OK with t->fd open, or
     * REDISLOCK_ERR with t->err and t->errstr set (and nothing open). */
    int (*connect)(redislock_transport *t, const redislock_server *srv);
    /* The descriptor became ready while connecting: REDISLOCK_OK when the
     * connection is up, REDISLOCK_AGAIN when it must wait for t->want
     * (POLLIN or POLLOUT) again, REDISLOCK_ERR (err, errstr) when it
     * failed. */
    int (*connected)(redislock_transport *t);
    /* As recv() and send(): > 0 bytes, 0 the peer closed (read), -1 with
     * errno (EAGAIN when it would block: then t->want, when not 0, is what
     * to poll for instead of the obvious). Never raise SIGPIPE. On a failure
     * other than EAGAIN, errstr may say more than errno (TLS). */
    ssize_t (*read)(redislock_transport *t, char *buf, size_t len);
    ssize_t (*write)(redislock_transport *t, const char *buf, size_t len);
    /* Whether the transport holds bytes from the server that read() has
     * not returned yet, so that polling the descriptor cannot see them: the
     * plain transports hold none; TLS holds what OpenSSL read ahead (whole
     * records not yet returned, or the start of one). A connection is idle
     * only when this is false and its reply reader is empty too. */
    bool (*pending)(const redislock_transport *t);
    /* Closes the descriptor and frees priv. Writes nothing: a connection
     * inherited across fork() is closed without disturbing the parent that
     * still uses it. */
    void (*close)(redislock_transport *t);
    /* The transport's own words for why the last read() or write() failed
     * (a TLS alert), or NULL when errno says it all. */
    const char *(*error)(const redislock_transport *t);
    /* write() is a plain send() on fd with nothing of the transport's own,
     * so that a signal handler may write to fd (client/term.h). */
    bool plain;
} redislock_transport_ops;

struct redislock_transport {
    const redislock_transport_ops *ops;
    int fd;             /* -1 when not open */
    int err;            /* errno of the last failure, 0 when none */
    char errstr[160];
    short want;         /* poll events the transport waits for now, 0: those of the phase */
    bool handshaking;   /* connected at the socket level, the transport's own handshake still under way */
    void *priv;         /* the transport's own state (TLS: its session), or NULL */
};

#define REDISLOCK_AGAIN 1 /* connected(): not yet, poll for want */

extern const redislock_transport_ops redislock_transport_tcp;
extern const redislock_transport_ops redislock_transport_unix;

/* For a transport over TCP (TLS): TCP's connect, and the check that a
 * socket's non-blocking connect succeeded (REDISLOCK_OK, or REDISLOCK_ERR
 * with err and errstr, the descriptor closed). */
int redislock_transport_tcp_connect(redislock_transport *t, const redislock_server *srv);
int redislock_transport_socket_connected(redislock_transport *t);

#endif /* REDISLOCK_TRANSPORT_H */
