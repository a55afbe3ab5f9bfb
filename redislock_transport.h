/*
 * Transports: how bytes reach a server. The pool drives every connection
 * through one table of operations (as hiredis 1.x does with its
 * redisContextFuncs), so that a new transport (TLS next) is a new table,
 * not a branch in the pool. Each keeps its errors hiredis-style: err (an
 * errno value, 0 when none) and errstr, in the transport itself.
 *
 * All are non-blocking: connect() starts, the pool polls the descriptor
 * for writability (or what want says), then connected() finishes.
 */
#ifndef REDISLOCK_TRANSPORT_H
#define REDISLOCK_TRANSPORT_H

#include "redislock_config.h"
#include <sys/types.h>

typedef struct redislock_transport redislock_transport;

typedef struct redislock_transport_ops {
    const char *name;
    /* Starts connecting to srv. REDISLOCK_OK with t->fd open, or
     * REDISLOCK_ERR with t->err and t->errstr set (and nothing open). */
    int (*connect)(redislock_transport *t, const redislock_server *srv);
    /* The descriptor became writable while connecting: REDISLOCK_OK when the
     * connection is up, REDISLOCK_ERR (err, errstr) when it failed. */
    int (*connected)(redislock_transport *t);
    /* As recv() and send(): > 0 bytes, 0 the peer closed (read), -1 with
     * errno (EAGAIN when it would block). Never raise SIGPIPE. */
    ssize_t (*read)(redislock_transport *t, char *buf, size_t len);
    ssize_t (*write)(redislock_transport *t, const char *buf, size_t len);
    /* Closes the descriptor. Writes nothing: a connection inherited across
     * fork() is closed without disturbing the parent that still uses it. */
    void (*close)(redislock_transport *t);
} redislock_transport_ops;

struct redislock_transport {
    const redislock_transport_ops *ops;
    int fd;             /* -1 when not open */
    int err;            /* errno of the last failure, 0 when none */
    char errstr[128];
};

extern const redislock_transport_ops redislock_transport_tcp;
extern const redislock_transport_ops redislock_transport_unix;

/* The transport for a server. */
const redislock_transport_ops *redislock_transport_for(const redislock_server *srv);

#endif /* REDISLOCK_TRANSPORT_H */
