/*
 * Releases written when the process is terminated (see client/term.h).
 *
 * Two tables, each read by the signal handler at any moment and written by
 * the process with atomic operations: the slots of the armed holds, and,
 * per descriptor, the serial number of the connection that may take a
 * write there now (0: none), which the handler claims
 * (REDISLOCK_TERM_TAKEN) while it writes.
 *
 * A slot is free, being filled by the thread that took it (with a
 * compare-and-swap from free), armed, or claimed by the handler (from
 * armed: then it is the handler's until the process dies, and the thread
 * that armed it, finding it so, neither frees it nor lets the hold go). The
 * handler reads only the slots it claimed.
 */
#include "php_redislock.h"
#include "zend_signal.h"
#include "client/term.h"

#ifndef PHP_WIN32
# include <errno.h>
# include <signal.h>
# include <string.h>
# include <sys/socket.h>
# include <sys/uio.h>
# include <unistd.h>

/* The handler's room for one release: at most 3 iovecs an argument (its
 * header, its bytes, its tail) and 25 bytes of headers and line ends. */
# define TERM_IOV (3 * (REDISLOCK_TERM_ARGS + 2) + 1)
# define TERM_TEXT (25 * (REDISLOCK_TERM_ARGS + 3))

typedef redislock_term_slot term_slot;

static term_slot slots[REDISLOCK_TERM_SLOTS];
static uint32_t serials;
static uint32_t fds[REDISLOCK_TERM_FDS];

uint32_t redislock_term_serial(void)
{
    uint32_t s;

    do {
        s = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
    } while (s == 0 || s == REDISLOCK_TERM_TAKEN);
    return s;
}

void redislock_term_dying(void)
{
    for (;;) {
        pause();
    }
}

/* {{{ The handler: the release put together at signal time */

/* A release as the handler sends it: iovecs over its own bytes (headers,
 * line ends, in text) and the bytes the release points to. */
typedef struct term_msg {
    struct iovec iov[TERM_IOV];
    size_t n;                                 /* iovecs used */
    size_t len;                               /* bytes in them all */
    char *run;                                /* text written and not yet in an iovec */
    char *end;                                /* end of the text written */
    char text[TERM_TEXT];
} term_msg;

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

static void msg_iov(term_msg *m, const void *p, size_t len)
{
    m->iov[m->n].iov_base = (void *) p;
    m->iov[m->n++].iov_len = len;
    m->len += len;
}

/* Puts the text written since the last iovec into one. */
static void msg_flush(term_msg *m)
{
    if (m->end > m->run) {
        msg_iov(m, m->run, (size_t) (m->end - m->run));
        m->run = m->end;
    }
}

/* Adds the bytes p (len) as they are, after the text so far. */
static void msg_ref(term_msg *m, const char *p, size_t len)
{
    if (len) {
        msg_flush(m);
        msg_iov(m, p, len);
    }
}

/* Adds a bulk string: the bytes p (len) then tail (tail_len). */
static void msg_bulk(term_msg *m, const char *p, size_t len, const char *tail, size_t tail_len)
{
    *m->end++ = '$';
    m->end = term_decimal(m->end, len + tail_len);
    *m->end++ = '\r';
    *m->end++ = '\n';
    msg_ref(m, p, len);
    msg_ref(m, tail, tail_len);
    *m->end++ = '\r';
    *m->end++ = '\n';
}

/* Puts r together: EVAL, the script, the arguments. */
static void msg_build(term_msg *m, const redislock_term_release *r)
{
    m->n = 0;
    m->len = 0;
    m->run = m->end = m->text;
    *m->end++ = '*';
    m->end = term_decimal(m->end, (size_t) r->argc + 2);
    *m->end++ = '\r';
    *m->end++ = '\n';
    msg_bulk(m, "EVAL", 4, NULL, 0);
    msg_bulk(m, r->body, r->body_len, NULL, 0);
    for (uint32_t i = 0; i < r->argc; i++) {
        const redislock_term_arg *a = &r->argv[i];
        msg_bulk(m, a->p, a->len, a->tail, a->tail_len);
    }
    msg_flush(m);
}

/* Writes the slot's release to each of its connections that may take it:
 * each claimed while it is written, given back after a whole write (the
 * next release may follow it), left at 0 after less (nothing more may). */
static void term_write(const term_slot *s)
{
    redislock_term_release r;
    term_msg m;
    struct msghdr msg;

    r.argc = 0;
    r.nums = 0;
    if (!s->describe(&r, s->hold)) {
        return;
    }
    msg_build(&m, &r);
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = m.iov;
    msg.msg_iovlen = m.n;
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t serial = s->to[i].serial;
        uint32_t *mark = &fds[s->to[i].fd];
        ssize_t sent;
        if (!__atomic_compare_exchange_n(mark, &serial, REDISLOCK_TERM_TAKEN, false, __ATOMIC_ACQ_REL,
                                         __ATOMIC_RELAXED)) {
            continue;
        }
        sent = sendmsg(s->to[i].fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
        __atomic_store_n(mark, sent == (ssize_t) m.len ? serial : 0, __ATOMIC_RELEASE);
    }
}

/* The handler: writes every release this process armed, then dies of the
 * signal as it would have without us. */
void redislock_term_handler(int signo)
{
    int saved = errno;
    pid_t pid = getpid();
    struct sigaction dfl;
    sigset_t set;

    for (int i = 0; i < REDISLOCK_TERM_SLOTS; i++) {
        uint32_t armed = REDISLOCK_TERM_ARMED;
        if (__atomic_load_n(&slots[i].state, __ATOMIC_RELAXED) != REDISLOCK_TERM_ARMED
            || !__atomic_compare_exchange_n(&slots[i].state, &armed, REDISLOCK_TERM_CLAIMED, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_RELAXED)) {
            continue;
        }
        if (slots[i].pid == pid) {
            term_write(&slots[i]);
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

/* }}} */

/* {{{ Arming */

/* Whether the handler is in place (set): SIGTERM's disposition as PHP keeps it
 * (zend_sigaction(): PHP code's pcntl_signal(), the SAPI's own handler).
 * With PHP's signal handling (ZEND_SIGNALS) it is read from PHP's table,
 * without a system call; PHP resets it each request. dfl: whether it is the
 * default instead. */
static zend_always_inline bool term_set(bool *dfl)
{
#ifdef ZEND_SIGNALS
    const zend_signal_entry_t *e = &SIGG(handlers)[SIGTERM - 1];

    *dfl = !(e->flags & SA_SIGINFO) && e->handler == (void *) SIG_DFL;
    return e->handler == (void *) redislock_term_handler && !(e->flags & SA_SIGINFO);
#else
    struct sigaction old;

    memset(&old, 0, sizeof(old));
    sigaction(SIGTERM, NULL, &old);
    *dfl = !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL;
    return !(old.sa_flags & SA_SIGINFO) && old.sa_handler == redislock_term_handler;
#endif
}

/* A free slot, now being filled; NULL when none is left. */
static term_slot *term_take(void)
{
    for (int i = 0; i < REDISLOCK_TERM_SLOTS; i++) {
        uint32_t free_ = REDISLOCK_TERM_FREE;
        if (__atomic_load_n(&slots[i].state, __ATOMIC_RELAXED) == REDISLOCK_TERM_FREE
            && __atomic_compare_exchange_n(&slots[i].state, &free_, REDISLOCK_TERM_FILLING, false, __ATOMIC_ACQ_REL,
                                           __ATOMIC_RELAXED)) {
            return &slots[i];
        }
    }
    return NULL;
}

void redislock_term_arm_any(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds, size_t n,
                            redislock_term_describe describe, const void *hold)
{
    struct sigaction act;
    term_slot *s = NULL;
    uint32_t k = 0;
    bool dfl;

    ZEND_ASSERT(!ref->armed);
    if (!term_set(&dfl)) {
        /* Not in place: set when SIGTERM would kill the process (its
         * disposition is the default). Never replaces a handler, nor
         * SIG_IGN. */
        if (!dfl) {
            return;
        }
        memset(&act, 0, sizeof(act));
        act.sa_handler = redislock_term_handler;
        sigemptyset(&act.sa_mask);
        zend_sigaction(SIGTERM, &act, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].status == REDISLOCK_CMD_OK && cmds[i].term_serial) {
            if (!s && !(s = term_take())) {
                return;
            }
            s->to[k].fd = cmds[i].term_fd;
            s->to[k++].serial = cmds[i].term_serial;
        }
    }
    if (s) {
        s->n = k;
        s->pid = pid;
        s->describe = describe;
        s->hold = hold;
        __atomic_store_n(&s->state, REDISLOCK_TERM_ARMED, __ATOMIC_RELEASE);
        ref->armed = ref->last = s;
    }
}

bool redislock_term_watched(int fd, bool plain)
{
    return plain && fd >= 0 && fd < REDISLOCK_TERM_FDS;
}

uint32_t *redislock_term_mark(int fd, bool plain)
{
    static uint32_t nowhere;

    return redislock_term_watched(fd, plain) ? &fds[fd] : &nowhere;
}

void redislock_term_long(redislock_term_release *r, zend_long v)
{
    char *end, *p;
    zend_ulong u = v < 0 ? (zend_ulong) 0 - (zend_ulong) v : (zend_ulong) v;

    ZEND_ASSERT(r->nums < REDISLOCK_TERM_NUMS);
    end = p = r->num[r->nums] + sizeof(r->num[0]);
    do {
        *--p = (char) ('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) {
        *--p = '-';
    }
    r->nums++;
    redislock_term_add(r, p, (size_t) (end - p), NULL, 0);
}

/* }}} */

#else /* PHP_WIN32: no signals to act on */

uint32_t redislock_term_serial(void)
{
    return 0;
}

void redislock_term_dying(void)
{
    abort();
}

void redislock_term_arm_any(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds, size_t n,
                            redislock_term_describe describe, const void *hold)
{
    (void) ref;
    (void) pid;
    (void) cmds;
    (void) n;
    (void) describe;
    (void) hold;
}

bool redislock_term_watched(int fd, bool plain)
{
    (void) fd;
    (void) plain;
    return false;
}

uint32_t *redislock_term_mark(int fd, bool plain)
{
    static uint32_t nowhere;

    (void) fd;
    (void) plain;
    return &nowhere;
}

void redislock_term_long(redislock_term_release *r, zend_long v)
{
    (void) r;
    (void) v;
}

#endif
