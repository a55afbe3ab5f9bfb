/*
 * Transports: how bytes reach a server. The pool drives every connection
 * through one table of operations (as hiredis 1.x does with its
 * redisContextFuncs), so that a new transport (TLS next) is a new table,
 * not a branch in the pool. Each keeps its errors hiredis-style: err (an
 * errno value, 0 when none) and errstr, in the transport itself.
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
    const char *name;
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
    /* Closes the descriptor. Writes nothing: a connection inherited across
     * fork() is closed without disturbing the parent that still uses it. */
    void (*close)(redislock_transport *t);
} redislock_transport_ops;

struct redislock_transport {
    const redislock_transport_ops *ops;
    int fd;             /* -1 when not open */
    int err;            /* errno of the last failure, 0 when none */
    char errstr[160];
    short want;         /* poll events the transport waits for now, 0: those of the phase */
    bool handshaking;   /* connected at the socket level, a handshake (TLS) still under way */
    void *tls;          /* the TLS session (SSL *), or NULL */
};

#define REDISLOCK_AGAIN 1 /* connected(): not yet, poll for want */

extern const redislock_transport_ops redislock_transport_tcp;
extern const redislock_transport_ops redislock_transport_unix;
extern const redislock_transport_ops redislock_transport_tls; /* redislock_tls.c */

/* For the TLS transport: TCP's connect and connected. */
int redislock_tcp_connect(redislock_transport *t, const redislock_server *srv);
int redislock_socket_connected(redislock_transport *t);

/* Process end: frees the TLS contexts kept for reuse. */
void redislock_tls_shutdown(void);

/* The transport for a server. */
const redislock_transport_ops *redislock_transport_for(const redislock_server *srv);

#endif /* REDISLOCK_TRANSPORT_H */
