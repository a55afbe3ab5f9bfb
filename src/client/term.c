/*
 * Releases written when the process is terminated (see client/term.h).
 *
 * Two tables, each read by the signal handler at any moment and written by
 * the process with atomic stores: the armed holds (a slot holds a pointer
 * to a hold written whole before it is published; the handler claims a slot
 * by tagging it, so that a hold it reads is never freed under it, even from
 * another thread), and, per descriptor, the serial number of the
 * connection that may take a write there now (0: none).
 */
#include "php.h"
#include "zend_signal.h"
#include "client/term.h"
#include "base/process.h"

#ifndef PHP_WIN32
# include <errno.h>
# include <signal.h>
# include <string.h>
# include <sys/socket.h>
# include <sys/uio.h>
# include <unistd.h>

# define TERM_SLOTS 64   /* holds armed at once; more are not released on SIGTERM */
# define TERM_FDS 4096   /* descriptors watched; a connection above is not written to */
# define TERM_CLAIMED 1  /* tag of a slot whose hold the handler is writing */

struct redislock_term_hold {
    pid_t pid;                                /* the process that armed it */
    uint32_t slot;                            /* where it is published */
    bool published;
    uint32_t n;
    struct {
        int fd;
        uint32_t serial;
    } to[REDISLOCK_MAX_SERVERS];              /* the connections that granted */
    struct iovec iov[3];                      /* head, body, tail */
    size_t last, last_len;                    /* where the last argument's bytes are in own */
    size_t size;                              /* room in own */
    char own[];                               /* the parts around the body */
};

static uintptr_t slots[TERM_SLOTS];
static uint32_t fds[TERM_FDS];
static uint32_t serials;

uint32_t redislock_term_serial(void)
{
    uint32_t s = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);

    return s ? s : __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
}

void redislock_term_writable(int fd, uint32_t serial, bool writable)
{
    if (fd >= 0 && fd < TERM_FDS) {
        __atomic_store_n(&fds[fd], writable ? serial : 0, __ATOMIC_RELEASE);
    }
}

/* Writes the hold's release to each of its connections that may take it. */
static void term_write(const redislock_term_hold *h)
{
    struct msghdr msg;

    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = (struct iovec *) h->iov;
    msg.msg_iovlen = 3;
    for (uint32_t i = 0; i < h->n; i++) {
        int fd = h->to[i].fd;
        size_t len = h->iov[0].iov_len + h->iov[1].iov_len + h->iov[2].iov_len;
        ssize_t sent;
        if (__atomic_load_n(&fds[fd], __ATOMIC_ACQUIRE) != h->to[i].serial) {
            continue;
        }
        sent = sendmsg(fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (sent != (ssize_t) len) {
            /* Half a command (or an error): nothing more after it. */
            __atomic_store_n(&fds[fd], 0, __ATOMIC_RELEASE);
        }
    }
}

/* The handler: writes every release this process armed, then dies of the
 * signal as it would have without us. */
static void term_handler(int signo)
{
    int saved = errno;
    pid_t pid = getpid();
    struct sigaction dfl;
    sigset_t set;

    for (int i = 0; i < TERM_SLOTS; i++) {
        uintptr_t p = __atomic_load_n(&slots[i], __ATOMIC_ACQUIRE);
        if (!p || (p & TERM_CLAIMED)
            || !__atomic_compare_exchange_n(&slots[i], &p, p | TERM_CLAIMED, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
            continue;
        }
        if (((const redislock_term_hold *) p)->pid == pid) {
            term_write((const redislock_term_hold *) p);
        }
    }
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
    raise(signo);
    sigemptyset(&set);
    sigaddset(&set, signo);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    errno = saved;
}

/* Whether the handler is in place, setting it when SIGTERM would kill the
 * process: its disposition, as PHP keeps it (zend_sigaction(): PHP code's
 * pcntl_signal(), the SAPI's own handler), is the default. Never replaces a
 * handler, nor SIG_IGN. With PHP's signal handling (ZEND_SIGNALS) reading
 * the disposition makes no system call, and PHP resets it each request. */
bool redislock_term_ready(void)
{
    struct sigaction old, act;

    memset(&old, 0, sizeof(old));
    zend_sigaction(SIGTERM, NULL, &old);
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == term_handler) {
        return true;
    }
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) {
        return false;
    }
    memset(&act, 0, sizeof(act));
    act.sa_handler = term_handler;
    sigemptyset(&act.sa_mask);
    zend_sigaction(SIGTERM, &act, NULL);
    return true;
}

/* Takes the hold out of its slot: false when the handler claimed it (the
 * process is dying: it stays as it is). */
static bool term_unpublish(redislock_term_hold *h)
{
    uintptr_t p = (uintptr_t) h;

    return __atomic_compare_exchange_n(&slots[h->slot], &p, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* Publishes h in a free slot: false when none is left. */
static bool term_publish(redislock_term_hold *h)
{
    for (int i = 0; i < TERM_SLOTS; i++) {
        uintptr_t none = 0;
        h->slot = (uint32_t) i;
        if (__atomic_compare_exchange_n(&slots[i], &none, (uintptr_t) h, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            return true;
        }
    }
    return false;
}

/* Takes h out of its slot: false when the handler claimed it (the process
 * is dying: it stays as it is, never to be written to again). */
static bool term_withdraw(redislock_term_hold *h)
{
    if (h->published && !term_unpublish(h)) {
        return false;
    }
    h->published = false;
    return true;
}

void redislock_term_disarm(redislock_term_hold **h)
{
    if (*h && !term_withdraw(*h)) {
        *h = NULL;
    }
}

void redislock_term_free(redislock_term_hold **h)
{
    if (*h && term_withdraw(*h)) {
        pefree(*h, 1);
    }
    *h = NULL;
}

/* Writes n in decimal at out; returns the end. */
static char *term_decimal(char *out, size_t n)
{
    char digits[24];
    int k = 0;

    do {
        digits[k++] = (char) ('0' + n % 10);
        n /= 10;
    } while (n);
    while (k) {
        *out++ = digits[--k];
    }
    return out;
}

/* Writes a RESP bulk string header ("$len\r\n") at out; returns the end. */
static char *term_bulk(char *out, size_t len)
{
    *out++ = '$';
    out = term_decimal(out, len);
    *out++ = '\r';
    *out++ = '\n';
    return out;
}

/* Encodes r (its body apart) into h->own and points h->iov at the parts:
 * "*N EVAL $len", the body, then the arguments. */
static void term_encode(redislock_term_hold *h, const redislock_term_release *r)
{
    char *out = h->own;

    *out++ = '*';
    out = term_decimal(out, (size_t) r->argc + 2);
    memcpy(out, "\r\n$4\r\nEVAL\r\n", 12);
    out = term_bulk(out + 12, r->body_len);
    h->iov[0].iov_base = h->own;
    h->iov[0].iov_len = (size_t) (out - h->own);
    h->iov[1].iov_base = (void *) r->body;
    h->iov[1].iov_len = r->body_len;
    h->iov[2].iov_base = out;
    *out++ = '\r';
    *out++ = '\n';
    for (int i = 0; i < r->argc; i++) {
        out = term_bulk(out, r->lens[i]);
        h->last = (size_t) (out - h->own);
        h->last_len = r->lens[i];
        memcpy(out, r->argv[i], r->lens[i]);
        out += r->lens[i];
        *out++ = '\r';
        *out++ = '\n';
    }
    h->iov[2].iov_len = (size_t) (out - (char *) h->iov[2].iov_base);
}

/* Publishes h for the connections of cmds that answered, unless none of
 * them may be written to from the handler. */
static void term_publish_to(redislock_term_hold *h, const redislock_cmd *cmds, size_t n)
{
    h->n = 0;
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].status == REDISLOCK_CMD_OK && cmds[i].term_fd >= 0 && cmds[i].term_fd < TERM_FDS) {
            h->to[h->n].fd = cmds[i].term_fd;
            h->to[h->n++].serial = cmds[i].term_serial;
        }
    }
    h->pid = redislock_process_pid();
    h->published = h->n > 0 && term_publish(h);
}

void redislock_term_arm(redislock_term_hold **h, const redislock_term_release *r, const redislock_cmd *cmds,
                        size_t n)
{
    size_t size = 64;

    for (int i = 0; i < r->argc; i++) {
        size += r->lens[i] + 32;
    }
    redislock_term_disarm(h);
    if (*h && (*h)->size < size) {
        redislock_term_free(h);
    }
    if (!*h) {
        *h = pemalloc(sizeof(**h) + size, 1);
        (*h)->size = size;
        (*h)->published = false;
    }
    term_encode(*h, r);
    term_publish_to(*h, cmds, n);
}

bool redislock_term_rearm(redislock_term_hold **h, const char *last, size_t len, const redislock_cmd *cmds, size_t n)
{
    redislock_term_disarm(h);
    if (!*h || (*h)->last_len != len) {
        return false;
    }
    memcpy((*h)->own + (*h)->last, last, len);
    term_publish_to(*h, cmds, n);
    return true;
}

#else /* PHP_WIN32: no signals to act on */

bool redislock_term_ready(void)
{
    return false;
}

uint32_t redislock_term_serial(void)
{
    return 1;
}

void redislock_term_writable(int fd, uint32_t serial, bool writable)
{
    (void) fd;
    (void) serial;
    (void) writable;
}

void redislock_term_disarm(redislock_term_hold **h)
{
    *h = NULL;
}

void redislock_term_free(redislock_term_hold **h)
{
    *h = NULL;
}

bool redislock_term_rearm(redislock_term_hold **h, const char *last, size_t len, const redislock_cmd *cmds, size_t n)
{
    (void) last;
    (void) len;
    (void) cmds;
    (void) n;
    *h = NULL;
    return true;
}

void redislock_term_arm(redislock_term_hold **h, const redislock_term_release *r, const redislock_cmd *cmds,
                        size_t n)
{
    (void) r;
    (void) cmds;
    (void) n;
    *h = NULL;
}

#endif
