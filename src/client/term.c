/*
 * Releases written when the process is terminated (see client/term.h).
 *
 * Two tables, each read by the signal handler at any moment and written by
 * the process with atomic operations: the slots of the releases, and, per
 * descriptor, the serial number of the connection that may take a write
 * there now (0: none), which the handler claims (REDISLOCK_TERM_TAKEN)
 * while it writes.
 *
 * A slot's state says who has it: free; being filled or changed by one
 * thread (which took it from free or kept, with a compare-and-swap);
 * armed; claimed by the handler (from armed: then it is the handler's until
 * the process dies); or kept: filled for the hold whose reference has the
 * slot's generation, not armed, for that hold to arm again as it is, or for
 * another to take (a new generation) when no slot is free. The handler
 * reads only the slots it claimed; a thread changes a slot only while it
 * has it.
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

typedef struct term_slot {
    uint32_t word;                            /* state and generation (REDISLOCK_TERM_FREE ...) */
    pid_t pid;                                /* the process that armed it */
    uint32_t n;
    struct {
        int fd;
        uint32_t serial;
    } to[REDISLOCK_MAX_SERVERS];              /* the connections that granted */
    redislock_term_release r;
} term_slot;

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
    term_msg m;
    struct msghdr msg;

    msg_build(&m, &s->r);
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
static void term_handler(int signo)
{
    int saved = errno;
    pid_t pid = getpid();
    struct sigaction dfl;
    sigset_t set;

    for (int i = 0; i < REDISLOCK_TERM_SLOTS; i++) {
        uint32_t word = __atomic_load_n(&slots[i].word, __ATOMIC_RELAXED);
        if ((word & REDISLOCK_TERM_STATE) != REDISLOCK_TERM_ARMED
            || !__atomic_compare_exchange_n(&slots[i].word, &word, word + REDISLOCK_TERM_CLAIMED - REDISLOCK_TERM_ARMED,
                                            false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
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

/* term_ready() when the handler is not in place: sets it when SIGTERM would
 * kill the process. */
static zend_never_inline bool term_set(bool dfl)
{
    struct sigaction act;

    if (!dfl) {
        return false;
    }
    memset(&act, 0, sizeof(act));
    act.sa_handler = term_handler;
    sigemptyset(&act.sa_mask);
    zend_sigaction(SIGTERM, &act, NULL);
    return true;
}

/* Whether the handler is in place, setting it when SIGTERM would kill the
 * process: its disposition, as PHP keeps it (zend_sigaction(): PHP code's
 * pcntl_signal(), the SAPI's own handler), is the default. Never replaces a
 * handler, nor SIG_IGN. With PHP's signal handling (ZEND_SIGNALS) the
 * disposition is read from PHP's table, without a system call; PHP resets
 * it each request. */
static zend_always_inline bool term_ready(void)
{
#ifdef ZEND_SIGNALS
    const zend_signal_entry_t *e = &SIGG(handlers)[SIGTERM - 1];

    if (EXPECTED(e->handler == (void *) term_handler && !(e->flags & SA_SIGINFO))) {
        return true;
    }
    return term_set(!(e->flags & SA_SIGINFO) && e->handler == (void *) SIG_DFL);
#else
    struct sigaction old;

    memset(&old, 0, sizeof(old));
    sigaction(SIGTERM, NULL, &old);
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == term_handler) {
        return true;
    }
    return term_set(!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL);
#endif
}

/* Moves a slot's state word from from to to, when it is from. */
static zend_always_inline bool term_move(uint32_t *word, uint32_t from, uint32_t to)
{
    return __atomic_compare_exchange_n(word, &from, to, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* Takes a slot for ref, to fill (a new generation): a free one, else one
 * another hold kept; NULL when all are armed (or being changed). */
static term_slot *term_take(redislock_term_ref *ref)
{
    term_slot *kept = NULL;

    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < REDISLOCK_TERM_SLOTS; i++) {
            uint32_t word = __atomic_load_n(&slots[i].word, __ATOMIC_RELAXED);
            uint32_t state = word & REDISLOCK_TERM_STATE, gen = (word & ~REDISLOCK_TERM_STATE) + REDISLOCK_TERM_GEN;
            if ((state == REDISLOCK_TERM_FREE || (pass && state == REDISLOCK_TERM_KEPT))
                && term_move(&slots[i].word, word, gen | REDISLOCK_TERM_FILLING)) {
                kept = &slots[i];
                ref->word = &kept->word;
                ref->gen = gen;
                return kept;
            }
        }
    }
    return NULL;
}

/* Arms slot s (taken: being changed) for the connections of cmds that
 * answered and may be written to from the handler (a plain one has a
 * serial number), filled first when refill; keeps it unarmed when there is
 * none. */
static zend_always_inline void term_arm_slot(term_slot *s, redislock_term_ref *ref, bool refill, pid_t pid,
                                             const redislock_cmd *cmds, size_t n, redislock_term_fill fill,
                                             void *ctx)
{
    uint32_t k = 0;

    for (size_t i = 0; i < n; i++) {
        if (cmds[i].status == REDISLOCK_CMD_OK && cmds[i].term_serial) {
            s->to[k].fd = cmds[i].term_fd;
            s->to[k++].serial = cmds[i].term_serial;
        }
    }
    if (!k) {
        __atomic_store_n(&s->word, ref->gen | REDISLOCK_TERM_KEPT, __ATOMIC_RELEASE);
        return;
    }
    if (refill) {
        s->r.argc = 0;
        s->r.nums = 0;
        fill(&s->r, ctx);
    }
    s->n = k;
    s->pid = pid;
    __atomic_store_n(&s->word, ref->gen | REDISLOCK_TERM_ARMED, __ATOMIC_RELEASE);
    ref->armed = true;
}

/* The slot of a state word. */
static zend_always_inline term_slot *term_slot_of(uint32_t *word)
{
    return (term_slot *) ((char *) word - XtOffsetOf(term_slot, word));
}

/* redislock_term_arm() but for its most common case. */
static zend_never_inline void term_arm_any(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds, size_t n,
                                           redislock_term_fill fill, void *ctx)
{
    term_slot *s;
    size_t i;

    if (!term_ready()) {
        return;
    }
    if (ref->word && term_move(ref->word, ref->gen | REDISLOCK_TERM_KEPT, ref->gen | REDISLOCK_TERM_FILLING)) {
        term_arm_slot(term_slot_of(ref->word), ref, ref->refill, pid, cmds, n, fill, ctx);
        return;
    }
    /* Without a slot of its own (any more): one is taken if it is to be armed. */
    for (i = 0; i < n && !(cmds[i].status == REDISLOCK_CMD_OK && cmds[i].term_serial); i++) {
    }
    if (i < n && (s = term_take(ref))) {
        term_arm_slot(s, ref, true, pid, cmds, n, fill, ctx);
    }
}

void redislock_term_arm(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds, size_t n,
                        redislock_term_fill fill, void *ctx)
{
    uint32_t k = 0;
    term_slot *s;

    ZEND_ASSERT(!ref->armed);
    /* Most often: the handler in place, and the release of the lock's last
     * hold, still in its slot, to arm as it is. */
    if (!ref->word || ref->refill || !term_ready()
        || !term_move(ref->word, ref->gen | REDISLOCK_TERM_KEPT, ref->gen | REDISLOCK_TERM_FILLING)) {
        term_arm_any(ref, pid, cmds, n, fill, ctx);
        return;
    }
    s = term_slot_of(ref->word);
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].status == REDISLOCK_CMD_OK && cmds[i].term_serial) {
            s->to[k].fd = cmds[i].term_fd;
            s->to[k++].serial = cmds[i].term_serial;
        }
    }
    s->n = k;
    s->pid = pid;
    __atomic_store_n(&s->word, ref->gen | (k ? REDISLOCK_TERM_ARMED : REDISLOCK_TERM_KEPT), __ATOMIC_RELEASE);
    ref->armed = k > 0;
}

void redislock_term_free(redislock_term_ref *ref)
{
    redislock_term_disarm(ref);
    if (ref->word) {
        term_move(ref->word, ref->gen | REDISLOCK_TERM_KEPT, ref->gen | REDISLOCK_TERM_FREE);
        ref->word = NULL;
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

void redislock_term_arm(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds, size_t n,
                        redislock_term_fill fill, void *ctx)
{
    (void) ref;
    (void) pid;
    (void) cmds;
    (void) n;
    (void) fill;
    (void) ctx;
}

void redislock_term_free(redislock_term_ref *ref)
{
    ref->armed = false;
    ref->word = NULL;
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
