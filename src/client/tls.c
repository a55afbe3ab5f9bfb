/*
 * The TLS transport (rediss://): OpenSSL over the TCP transport, inside the
 * extension's own non-blocking I/O. The handshake is driven by the same
 * poll() loop as every other connection (connected() answers
 * REDISLOCK_AGAIN with what to wait for), so the servers of a quorum shake
 * hands in parallel, all within connect_timeout.
 *
 * TLS 1.2 or later; by default the server's certificate is verified against
 * tls_ca (else the system's trust store) and must be for the host name (or
 * IP address) of the DSN, sent as SNI too. A client certificate is offered
 * when tls_cert is set (mutual TLS). One SSL_CTX per distinct set of those
 * settings is kept for the life of the process (loading a trust store costs
 * milliseconds); connections are kept by the pool as any other, so a
 * persistent connection pays its handshake once.
 *
 * Closing frees the session without a close_notify: as for the plain
 * transports, nothing is written on the way out (a connection inherited
 * across fork() must not disturb the parent).
 */
#include "php_redislock.h"
#include "client/tls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#define TLS_CTX_MAX 16 /* distinct TLS settings whose context is kept */

typedef struct tls_ctx {
    char *key;     /* verify, ca, cert, key: NUL-separated */
    size_t key_len;
    SSL_CTX *ctx;
} tls_ctx;

/* The process's contexts and BIO method, shared by every thread of a
 * threaded (ZTS) PHP: found or made under ctxs_mutex (a context itself is
 * safe to share once set up: OpenSSL counts its references atomically). */
static pthread_mutex_t ctxs_mutex = PTHREAD_MUTEX_INITIALIZER;
static tls_ctx ctxs[TLS_CTX_MAX];
static int nctxs;
static BIO_METHOD *socket_method; /* OpenSSL's socket BIO, but never raising SIGPIPE */

/* Writes as the socket BIO does, with MSG_NOSIGNAL: a server that hung up
 * must not kill the process. */
static int bio_write(BIO *b, const char *buf, int len)
{
    ssize_t n = send(BIO_get_fd(b, NULL), buf, (size_t) len, MSG_NOSIGNAL | MSG_DONTWAIT);

    BIO_clear_retry_flags(b);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        BIO_set_retry_write(b);
    }
    return (int) n;
}

static int bio_read(BIO *b, char *buf, int len)
{
    ssize_t n = recv(BIO_get_fd(b, NULL), buf, (size_t) len, MSG_DONTWAIT);

    BIO_clear_retry_flags(b);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        BIO_set_retry_read(b);
    }
    return (int) n;
}

/* Makes socket_method (ctxs_mutex held); false when out of memory. */
static bool bio_method_make(void)
{
    const BIO_METHOD *base = BIO_s_socket();

    if (!socket_method) {
        socket_method = BIO_meth_new(BIO_TYPE_SOCKET, "redislock socket");
        if (!socket_method) {
            return false;
        }
        BIO_meth_set_write(socket_method, bio_write);
        BIO_meth_set_read(socket_method, bio_read);
        BIO_meth_set_ctrl(socket_method, BIO_meth_get_ctrl(base));
        BIO_meth_set_create(socket_method, BIO_meth_get_create(base));
        BIO_meth_set_destroy(socket_method, BIO_meth_get_destroy(base));
    }
    return true;
}

/* A BIO on fd that writes with MSG_NOSIGNAL, or NULL. The method was made
 * by ctx_get(), which every connection calls first. */
static BIO *bio_new(int fd)
{
    BIO *b = socket_method ? BIO_new(socket_method) : NULL;

    if (b) {
        BIO_set_fd(b, fd, BIO_NOCLOSE);
    }
    return b;
}

/* The newest OpenSSL error's reason, or what, when there is none. */
static const char *ssl_reason(const char *what)
{
    unsigned long e = ERR_peek_last_error();
    const char *r = e ? ERR_reason_error_string(e) : NULL;

    return r ? r : what;
}

/* Records a failure of the TLS layer (errno EPROTO) in t. */
static int tls_fail(redislock_transport *t, const char *fmt, const char *arg)
{
    t->err = EPROTO;
    snprintf(t->errstr, sizeof(t->errstr), fmt, arg);
    ERR_clear_error();
    return REDISLOCK_ERR;
}

/* A new client context for the server's TLS settings, or NULL with the
 * reason in t->errstr (file names are not secret; nothing else is said). */
static SSL_CTX *ctx_new(redislock_transport *t, const redislock_server *srv)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    const char *key = srv->tls_key ? srv->tls_key : srv->tls_cert;

    if (!ctx) {
        tls_fail(t, "cannot create a TLS context: %s", ssl_reason("out of memory"));
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    /* A record's header and body in one recv(), not two: a reply is one
     * record, and this halves the system calls of reading it. */
    SSL_CTX_set_read_ahead(ctx, 1);
    SSL_CTX_set_verify(ctx, srv->tls_verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
    if (srv->tls_ca ? SSL_CTX_load_verify_locations(ctx, srv->tls_ca, NULL) != 1
                    : SSL_CTX_set_default_verify_paths(ctx) != 1) {
        tls_fail(t, "cannot load the CA bundle (tls_ca): %s", ssl_reason("unreadable"));
        goto fail;
    }
    if (srv->tls_key && !srv->tls_cert) {
        tls_fail(t, "%s", "tls_key needs tls_cert");
        goto fail;
    }
    if (srv->tls_cert && SSL_CTX_use_certificate_chain_file(ctx, srv->tls_cert) != 1) {
        tls_fail(t, "cannot load the client certificate (tls_cert): %s", ssl_reason("unreadable"));
        goto fail;
    }
    if (key && (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(ctx) != 1)) {
        tls_fail(t, "cannot load the client key (tls_key): %s", ssl_reason("unreadable"));
        goto fail;
    }
    return ctx;

fail:
    SSL_CTX_free(ctx);
    return NULL;
}

/* The kept context whose key is key (ctxs_mutex held), or NULL. */
static SSL_CTX *ctx_find(const zend_string *key)
{
    for (int i = 0; i < nctxs; i++) {
        if (ctxs[i].key_len == ZSTR_LEN(key) && memcmp(ctxs[i].key, ZSTR_VAL(key), ctxs[i].key_len) == 0) {
            return ctxs[i].ctx;
        }
    }
    return NULL;
}

/* The context for the server's TLS settings, with a reference for the
 * caller (SSL_CTX_free when done). NULL with t->errstr on failure. Any
 * thread: the table is read and grown under ctxs_mutex. */
static SSL_CTX *ctx_get(redislock_transport *t, const redislock_server *srv)
{
    smart_str key = { 0 };
    SSL_CTX *ctx;
    const char *fields[] = { srv->tls_ca, srv->tls_cert, srv->tls_key };

    smart_str_appendc_ex(&key, srv->tls_verify ? 'V' : 'v', 1);
    for (int i = 0; i < 3; i++) {
        smart_str_appendc_ex(&key, '\0', 1);
        if (fields[i]) {
            smart_str_appends_ex(&key, fields[i], 1);
        }
    }
    pthread_mutex_lock(&ctxs_mutex);
    if (!bio_method_make()) {
        pthread_mutex_unlock(&ctxs_mutex);
        smart_str_free_ex(&key, 1);
        tls_fail(t, "%s", "cannot create a TLS socket: out of memory");
        return NULL;
    }
    ctx = ctx_find(key.s);
    if (ctx) {
        SSL_CTX_up_ref(ctx); /* the caller's; the table keeps its own */
    } else if ((ctx = ctx_new(t, srv)) != NULL && nctxs < TLS_CTX_MAX) {
        ctxs[nctxs].key = pemalloc(ZSTR_LEN(key.s), 1);
        memcpy(ctxs[nctxs].key, ZSTR_VAL(key.s), ZSTR_LEN(key.s));
        ctxs[nctxs].key_len = ZSTR_LEN(key.s);
        ctxs[nctxs++].ctx = ctx;
        SSL_CTX_up_ref(ctx);
    } /* else not kept (the table is full): the caller's reference is the only one */
    pthread_mutex_unlock(&ctxs_mutex);
    smart_str_free_ex(&key, 1);
    return ctx;
}

void redislock_tls_shutdown(void)
{
    for (int i = 0; i < nctxs; i++) {
        SSL_CTX_free(ctxs[i].ctx);
        pefree(ctxs[i].key, 1);
    }
    nctxs = 0;
    if (socket_method) {
        BIO_meth_free(socket_method);
        socket_method = NULL;
    }
}

/* Names the server in the session: SNI for a host name, and what the
 * certificate must be for when verifying (a host name, or an IP address). */
static int tls_name(redislock_transport *t, SSL *ssl, const redislock_server *srv)
{
    unsigned char addr[16];
    bool ip = inet_pton(AF_INET, srv->host, addr) == 1 || inet_pton(AF_INET6, srv->host, addr) == 1;

    if (!ip && SSL_set_tlsext_host_name(ssl, srv->host) != 1) {
        return tls_fail(t, "cannot set the TLS server name: %s", ssl_reason("invalid"));
    }
    if (!srv->tls_verify) {
        return REDISLOCK_OK;
    }
    if (ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), srv->host) != 1
           : SSL_set1_host(ssl, srv->host) != 1) {
        return tls_fail(t, "cannot set the name to verify: %s", ssl_reason("invalid"));
    }
    return REDISLOCK_OK;
}

/* Puts the session on the transport's socket. */
static int tls_bio(redislock_transport *t, SSL *ssl)
{
    BIO *b = bio_new(t->fd);

    if (!b) {
        return tls_fail(t, "cannot create a TLS socket: %s", ssl_reason("out of memory"));
    }
    SSL_set_bio(ssl, b, b);
    return REDISLOCK_OK;
}

static void tls_close(redislock_transport *t)
{
    if (t->priv) {
        SSL_free(t->priv);
        t->priv = NULL;
    }
    if (t->fd >= 0) {
        close(t->fd);
        t->fd = -1;
    }
}

static int tls_connect(redislock_transport *t, const redislock_server *srv)
{
    SSL_CTX *ctx;
    SSL *ssl;

    t->fd = -1;
    t->priv = NULL;
    t->want = 0;
    t->handshaking = false;
    ERR_clear_error();
    if ((ctx = ctx_get(t, srv)) == NULL) {
        return REDISLOCK_ERR;
    }
    if (redislock_transport_tcp_connect(t, srv) != REDISLOCK_OK) {
        SSL_CTX_free(ctx);
        return REDISLOCK_ERR;
    }
    ssl = SSL_new(ctx);
    SSL_CTX_free(ctx); /* the session holds its own reference */
    if (!ssl) {
        tls_close(t);
        return tls_fail(t, "cannot create a TLS session: %s", ssl_reason("out of memory"));
    }
    t->priv = ssl;
    if (tls_bio(t, ssl) != REDISLOCK_OK || tls_name(t, ssl, srv) != REDISLOCK_OK) {
        tls_close(t);
        return REDISLOCK_ERR;
    }
    SSL_set_connect_state(ssl);
    return REDISLOCK_OK;
}

/* Why a handshake failed, in words without secrets. */
static int handshake_failed(redislock_transport *t, int rc, int e)
{
    long v = SSL_get_verify_result(t->priv);
    unsigned long last = ERR_peek_last_error();

    if (v == X509_V_ERR_HOSTNAME_MISMATCH || v == X509_V_ERR_IP_ADDRESS_MISMATCH) {
        return tls_fail(t, "TLS certificate verify failed: %s (the certificate is for another host name)",
                        X509_verify_cert_error_string(v));
    }
    if (v != X509_V_OK) {
        return tls_fail(t, "TLS certificate verify failed: %s", X509_verify_cert_error_string(v));
    }
    if (ERR_GET_LIB(last) == ERR_LIB_SSL && (ERR_GET_REASON(last) == SSL_R_WRONG_VERSION_NUMBER
                                              || ERR_GET_REASON(last) == SSL_R_PACKET_LENGTH_TOO_LONG
                                              || ERR_GET_REASON(last) == SSL_R_UNEXPECTED_EOF_WHILE_READING)) {
        return tls_fail(t, "TLS handshake failed: %s (the server does not speak TLS on this port? use redis://)",
                        ERR_reason_error_string(last));
    }
    if (e == SSL_ERROR_SYSCALL && !last) {
        int err = errno;
        tls_fail(t, "TLS handshake failed: %s", rc == 0 || !err ? "connection closed by the server" : strerror(err));
        t->err = err ? err : ECONNRESET;
        return REDISLOCK_ERR;
    }
    return tls_fail(t, "TLS handshake failed: %s", ssl_reason("protocol error"));
}

static int tls_connected(redislock_transport *t)
{
    int rc, e;

    if (!t->handshaking) {
        if (redislock_transport_socket_connected(t) != REDISLOCK_OK) {
            tls_close(t);
            return REDISLOCK_ERR;
        }
        t->handshaking = true;
    }
    ERR_clear_error();
    errno = 0;
    rc = SSL_connect(t->priv);
    if (rc == 1) {
        t->handshaking = false;
        t->want = 0;
        return REDISLOCK_OK;
    }
    e = SSL_get_error(t->priv, rc);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
        t->want = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
        return REDISLOCK_AGAIN;
    }
    handshake_failed(t, rc, e);
    tls_close(t);
    return REDISLOCK_ERR;
}

/* The result of an SSL_read or SSL_write that returned rc <= 0, in recv()
 * and send() terms; a TLS-level failure says why in errstr. */
static ssize_t tls_io_result(redislock_transport *t, int rc)
{
    int e = SSL_get_error(t->priv, rc);

    switch (e) {
        case SSL_ERROR_WANT_READ:
        case SSL_ERROR_WANT_WRITE:
            t->want = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
            errno = EAGAIN;
            return -1;
        case SSL_ERROR_ZERO_RETURN:
            return 0;
        case SSL_ERROR_SYSCALL:
            if (ERR_peek_last_error() == 0 && (rc == 0 || errno == 0)) {
                return 0; /* closed without close_notify, as a server that exits does */
            }
            if (ERR_peek_last_error() == 0) {
                return -1; /* errno says why */
            }
            ZEND_FALLTHROUGH;
        default:
            tls_fail(t, "TLS error: %s", ssl_reason("protocol error"));
            errno = EPROTO;
            return -1;
    }
}

/* Readies an SSL_read or SSL_write: empties OpenSSL's error queue (of this
 * thread), which SSL_get_error() needs empty before the call it judges
 * (looking is much cheaper than clearing, and the queue is almost always
 * empty already), and errno. */
static void io_begin(void)
{
    if (ERR_peek_error() != 0) {
        ERR_clear_error();
    }
    errno = 0;
}

/* The result of an SSL_read or SSL_write that returned rc, in recv() and
 * send() terms. */
static ssize_t io_end(redislock_transport *t, int rc)
{
    if (rc > 0) {
        t->want = 0;
        return rc;
    }
    return tls_io_result(t, rc);
}

static ssize_t tls_read(redislock_transport *t, char *buf, size_t len)
{
    io_begin();
    return io_end(t, SSL_read(t->priv, buf, (int) MIN(len, INT_MAX)));
}

static ssize_t tls_write(redislock_transport *t, const char *buf, size_t len)
{
    io_begin();
    return io_end(t, SSL_write(t->priv, buf, (int) MIN(len, INT_MAX)));
}

/* With read-ahead, one recv() can take several records off the socket: a
 * reply and whatever the server sent behind it. SSL_read() returns one
 * record at a time, so the rest waits inside OpenSSL where poll() cannot
 * see it: decrypted (SSL_pending), or still raw, whole or in part
 * (SSL_has_pending covers both). */
static bool tls_pending(const redislock_transport *t)
{
    return t->priv && (SSL_pending(t->priv) > 0 || SSL_has_pending(t->priv));
}

/* The words of the TLS layer for the last failure (tls_fail()), if it was
 * the TLS layer's. */
static const char *tls_error(const redislock_transport *t)
{
    return t->err == EPROTO && t->errstr[0] ? t->errstr : NULL;
}

const redislock_transport_ops redislock_tls_transport = {
    "TLS", NULL, "a server that does not speak TLS on this port waits like this", tls_connect, tls_connected,
    tls_read, tls_write, tls_pending, tls_close, tls_error, false, /* never written to from a signal handler */
};
