/*
 * The plain transports: TCP (IPv4, else IPv6, as hiredis resolves) and unix
 * sockets, non-blocking, with TCP_NODELAY. TLS (client/tls.c) runs over
 * the TCP one.
 */
#include "php_redislock.h"
#include "client/transport.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef MSG_NOSIGNAL
# define MSG_NOSIGNAL 0
#endif

/* Records a failure: err, and what failed in errstr. */
static int fail(redislock_transport *t, int err, const char *what)
{
    t->err = err;
    snprintf(t->errstr, sizeof(t->errstr), "%s", what ? what : strerror(err));
    if (t->fd >= 0) {
        close(t->fd);
        t->fd = -1;
    }
    return REDISLOCK_ERR;
}

/* A non-blocking, close-on-exec stream socket of family, connecting to
 * addr. In progress counts as started. */
static int start(redislock_transport *t, int family, const struct sockaddr *addr, socklen_t len)
{
    t->fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (t->fd < 0) {
        return fail(t, errno, NULL);
    }
    if (family != AF_UNIX) {
        int on = 1;
        setsockopt(t->fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    }
    if (connect(t->fd, addr, len) < 0 && errno != EINPROGRESS && errno != EAGAIN) {
        return fail(t, errno, NULL);
    }
    return REDISLOCK_OK;
}

int redislock_transport_tcp_connect(redislock_transport *t, const redislock_server *srv)
{
    static const int families[] = { AF_INET, AF_INET6 };
    struct addrinfo hints, *found = NULL;
    char port[8];
    int rc = EAI_NONAME;

    t->fd = -1;
    snprintf(port, sizeof(port), "%d", srv->port);
    memset(&hints, 0, sizeof(hints));
    hints.ai_socktype = SOCK_STREAM;
    /* IPv4 first, then IPv6: "localhost" reaches a server bound to
     * 127.0.0.1 only. */
    for (size_t i = 0; i < sizeof(families) / sizeof(families[0]) && !found; i++) {
        hints.ai_family = families[i];
        rc = getaddrinfo(srv->host, port, &hints, &found);
        if (rc != 0) {
            found = NULL;
        }
    }
    if (!found) {
        return fail(t, rc == EAI_SYSTEM ? errno : EHOSTUNREACH, rc == EAI_SYSTEM ? NULL : gai_strerror(rc));
    }
    for (struct addrinfo *a = found; a; a = a->ai_next) {
        if (start(t, a->ai_family, a->ai_addr, a->ai_addrlen) == REDISLOCK_OK) {
            freeaddrinfo(found);
            return REDISLOCK_OK;
        }
    }
    freeaddrinfo(found);
    return REDISLOCK_ERR;
}

static int unix_connect(redislock_transport *t, const redislock_server *srv)
{
    struct sockaddr_un sa;
    size_t len = strlen(srv->path);

    t->fd = -1;
    memset(&sa, 0, sizeof(sa));
    sa.sun_family = AF_UNIX;
    /* The parser refuses paths longer than sun_path holds. */
    ZEND_ASSERT(len < sizeof(sa.sun_path));
    memcpy(sa.sun_path, srv->path, len);
    return start(t, AF_UNIX, (struct sockaddr *) &sa, sizeof(sa));
}

int redislock_transport_socket_connected(redislock_transport *t)
{
    int err = 0;
    socklen_t len = sizeof(err);

    if (getsockopt(t->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) {
        err = errno;
    }
    return err ? fail(t, err, NULL) : REDISLOCK_OK;
}

static ssize_t socket_read(redislock_transport *t, char *buf, size_t len)
{
    return recv(t->fd, buf, len, MSG_DONTWAIT);
}

static ssize_t socket_write(redislock_transport *t, const char *buf, size_t len)
{
    return send(t->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* A socket buffers nothing of its own outside the kernel, where poll()
 * sees it. */
static bool socket_pending(const redislock_transport *t)
{
    (void) t;
    return false;
}

static void socket_close(redislock_transport *t)
{
    if (t->fd >= 0) {
        close(t->fd);
        t->fd = -1;
    }
}

/* A socket has no words of its own: errno says why. */
static const char *socket_error(const redislock_transport *t)
{
    (void) t;
    return NULL;
}

#define PLAIN_HANGUP "if this port speaks TLS, use rediss://"

const redislock_transport_ops redislock_transport_tcp = {
    "TCP", PLAIN_HANGUP, NULL, redislock_transport_tcp_connect, redislock_transport_socket_connected, socket_read,
    socket_write, socket_pending, socket_close, socket_error, true,
};

const redislock_transport_ops redislock_transport_unix = {
    "unix socket", PLAIN_HANGUP, NULL, unix_connect, redislock_transport_socket_connected, socket_read, socket_write,
    socket_pending, socket_close, socket_error, true,
};
