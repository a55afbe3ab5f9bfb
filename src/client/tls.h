/*
 * The TLS transport (rediss://): OpenSSL over the TCP transport, driven by
 * the same non-blocking I/O as the plain ones (client/tls.c).
 */
#ifndef REDISLOCK_TLS_H
#define REDISLOCK_TLS_H

#include "client/transport.h"

extern const redislock_transport_ops redislock_tls_transport;

/* Process end: frees the TLS contexts kept for reuse. */
void redislock_tls_shutdown(void);

#endif /* REDISLOCK_TLS_H */
