/*
 * Releases written when the process is terminated (SIGTERM): php-fpm's
 * master sends it to a worker at request_terminate_timeout, and a worker's
 * SIGTERM is left at its default (the process dies). The holder of a lock
 * arms, when the lock is granted, its release and the connections that
 * granted it; a signal handler of our own, set only where SIGTERM would
 * kill the process anyway (no handler of PHP code, pcntl, nor of the
 * SAPI), writes the armed releases to their connections, then lets the
 * process die as it would have.
 *
 * A release is armed by reference: a slot of a table of the process keeps
 * the connections, the hold (a pointer) and a function that describes its
 * release from it (the script, and the hold's own bytes its arguments are:
 * keys, token). Arming is a few stores. The handler has the release
 * described when the signal comes, into its own stack, puts the RESP
 * headers together there and sends the command with one sendmsg() a
 * connection, its arguments straight from where they are. A hold is
 * disarmed before what its release is made of changes or is freed.
 *
 * The handler is async-signal-safe: it never allocates, never blocks (a
 * send that would block writes nothing, or less than all: the server drops
 * the command unfinished), never reads, never touches PHP's engine, and
 * writes only to plain TCP and unix connections whose last command went
 * out whole: a TLS session cannot be written from a signal handler, and
 * bytes after half a command would make another command of it. What it
 * reads is published with atomic operations, so that it is consistent
 * whenever the signal comes; what it uses, it claims first (a slot, a
 * descriptor), so that another thread of the process (ZTS) neither frees a
 * hold it reads nor writes to a descriptor it writes to: a thread that
 * finds a claim waits for the process to die (see redislock_term_dying()).
 * A child made by fork() never writes what its parent armed. Windows:
 * nothing.
 */
#ifndef REDISLOCK_TERM_H
#define REDISLOCK_TERM_H

#include "client/cmd.h"

#define REDISLOCK_TERM_SLOTS 64   /* holds armed at once; more are not released on SIGTERM */
#define REDISLOCK_TERM_FDS 4096   /* descriptors watched; a connection above is not written to */
#define REDISLOCK_TERM_ARGS 24    /* arguments of a release after EVAL and the script (a fair one: 21) */
#define REDISLOCK_TERM_NUMS 4     /* numbers among them (redislock_term_long()) */
#define REDISLOCK_TERM_TAKEN UINT32_MAX /* a descriptor the handler is writing to: never a serial number */

/* One argument of a release: the bytes p (len), then tail (tail_len, a
 * key's suffix; NULL: none), where they are. */
typedef struct redislock_term_arg {
    const char *p;
    const char *tail;
    uint32_t len;
    uint32_t tail_len;
} redislock_term_arg;

/* A release: EVAL of body (a script's text: it lives as long as the
 * process) with the argc arguments argv after it (the number of keys, the
 * keys, the script's arguments). */
typedef struct redislock_term_release {
    const char *body;
    size_t body_len;
    uint32_t argc;
    uint32_t nums;
    redislock_term_arg argv[REDISLOCK_TERM_ARGS];
    char num[REDISLOCK_TERM_NUMS][24];
} redislock_term_release;

/* Describes into r (argc and nums 0) the release of the hold hold, with
 * redislock_term_add() and redislock_term_long(); false when it cannot
 * (then nothing is written). Called by the handler, when the signal comes:
 * it must be async-signal-safe, reading the hold and writing r, nothing
 * else (no allocation, nothing of PHP's engine). */
typedef bool (*redislock_term_describe)(redislock_term_release *r, const void *hold);

/* A thread found a slot or descriptor claimed by the handler, which runs in
 * another thread: the process is dying, of SIGTERM, as soon as the handler
 * is done. Waits for that (never returns), rather than free what the
 * handler reads or write where it writes. */
ZEND_NORETURN void redislock_term_dying(void);

/* The state of a slot of the table. */
#define REDISLOCK_TERM_FREE 0     /* nobody's */
#define REDISLOCK_TERM_FILLING 1  /* being filled by the thread that took it (compare-and-swap from free) */
#define REDISLOCK_TERM_ARMED 2    /* armed */
#define REDISLOCK_TERM_CLAIMED 3  /* the handler's (from armed) until the process dies: never freed */

/* A slot of the table (client/term.c's: here for the inline part of
 * redislock_term_arm()). */
typedef struct redislock_term_slot {
    uint32_t state;                           /* REDISLOCK_TERM_FREE ... */
    pid_t pid;                                /* the process that armed it */
    uint32_t n;
    struct {
        int fd;
        uint32_t serial;
    } to[REDISLOCK_MAX_SERVERS];              /* the connections that granted */
    redislock_term_describe describe;         /* its release */
    const void *hold;
} redislock_term_slot;

/* A hold's place in the table. Zero-initialised. */
typedef struct redislock_term_ref {
    redislock_term_slot *armed;  /* the slot its release is armed in, or NULL */
    redislock_term_slot *last;   /* the slot it was armed in last: tried first next time */
} redislock_term_ref;

/* redislock_term_arm() but for its most common case, which is inline. */
void redislock_term_arm_any(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds, size_t n,
                            redislock_term_describe describe, const void *hold);

#ifndef PHP_WIN32
/* The handler (called by the system only). */
void redislock_term_handler(int signo);
#endif

#if defined(ZEND_SIGNALS) && !defined(PHP_WIN32) && !defined(ZTS)
# define REDISLOCK_TERM_INLINE 1
# include "zend_signal.h"
# include <signal.h>
#endif

/* Arms the release of hold, described by describe, for the connections of
 * the n commands cmds that granted it: those that answered (status OK) and
 * may be written to from the handler; written by process pid only. Nothing
 * is armed when the handler is not set and SIGTERM would not kill the
 * process (a handler of PHP code or of the SAPI has it, or it is ignored),
 * none of the connections is plain, or all slots are taken. With PHP's
 * signal handling (ZEND_SIGNALS) telling whether the handler is set makes
 * no system call. ref must be disarmed.
 *
 * Inline, when the handler is in place (read from PHP's table of
 * dispositions: not with ZTS, where it is the thread's) and the slot of the
 * hold's last release is free: a few stores. */
static zend_always_inline void redislock_term_arm(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds,
                                                  size_t n, redislock_term_describe describe, const void *hold)
{
#ifdef REDISLOCK_TERM_INLINE
    const zend_signal_entry_t *e = &SIGG(handlers)[SIGTERM - 1];
    redislock_term_slot *s = ref->last;
    uint32_t free_ = REDISLOCK_TERM_FREE, k = 0;

    if (EXPECTED(s && e->handler == (void *) redislock_term_handler && !(e->flags & SA_SIGINFO)
                 && __atomic_compare_exchange_n(&s->state, &free_, REDISLOCK_TERM_FILLING, false,
                                                __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))) {
        for (size_t i = 0; i < n; i++) {
            if (cmds[i].status == REDISLOCK_CMD_OK && cmds[i].term_serial) {
                s->to[k].fd = cmds[i].term_fd;
                s->to[k++].serial = cmds[i].term_serial;
            }
        }
        s->n = k;
        s->pid = pid;
        s->describe = describe;
        s->hold = hold;
        __atomic_store_n(&s->state, k ? REDISLOCK_TERM_ARMED : REDISLOCK_TERM_FREE, __ATOMIC_RELEASE);
        ref->armed = k ? s : NULL;
        return;
    }
#endif
    redislock_term_arm_any(ref, pid, cmds, n, describe, hold);
}

/* Disarms ref's release, if armed (frees its slot): the hold ended, or is
 * no longer due a release on SIGTERM, or what its release is made of is
 * about to change or be freed. */
static zend_always_inline void redislock_term_disarm(redislock_term_ref *ref)
{
    if (ref->armed) {
#ifndef PHP_WIN32
        uint32_t armed = REDISLOCK_TERM_ARMED;
        if (UNEXPECTED(!__atomic_compare_exchange_n(&ref->armed->state, &armed, REDISLOCK_TERM_FREE, false,
                                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))) {
            /* Claimed by the handler, in another thread. */
            redislock_term_dying();
        }
#endif
        ref->armed = NULL;
    }
}

/* Adds an argument to r: len bytes at p, then tail_len at tail (NULL:
 * none). */
static inline void redislock_term_add(redislock_term_release *r, const char *p, size_t len, const char *tail,
                                      size_t tail_len)
{
    redislock_term_arg *a = &r->argv[r->argc++];

    ZEND_ASSERT(r->argc <= REDISLOCK_TERM_ARGS);
    a->p = p;
    a->len = (uint32_t) len;
    a->tail = tail;
    a->tail_len = (uint32_t) tail_len;
}

/* Adds a number argument to r, written in decimal into r (at most
 * REDISLOCK_TERM_NUMS a release). Async-signal-safe. */
void redislock_term_long(redislock_term_release *r, zend_long v);

/* Whether the handler may ever write to a connection of descriptor fd:
 * plain (not TLS), and fd is one of those watched. */
bool redislock_term_watched(int fd, bool plain);

/* A new serial number for a connection the handler may write to (never 0,
 * nor REDISLOCK_TERM_TAKEN). One it never writes to has 0. */
uint32_t redislock_term_serial(void);

/* Where the handler looks for whether it may write to the connection of
 * descriptor fd (see redislock_term_busy()): its entry in the table of
 * descriptors, or, when the handler never writes to it
 * (redislock_term_watched() false), a place the handler never reads. */
uint32_t *redislock_term_mark(int fd, bool plain);

/* A command is about to be written to the connection whose mark is mark
 * (redislock_term_mark()), or the connection to be closed: no release may
 * go out there until redislock_term_idle(). Atomic, so that a handler in
 * another thread sees it before the first byte goes, or has claimed the
 * descriptor first (then this thread waits for the process to die). */
static zend_always_inline void redislock_term_busy(uint32_t *mark)
{
#ifndef PHP_WIN32
    if (UNEXPECTED(__atomic_exchange_n(mark, 0, __ATOMIC_ACQ_REL) == REDISLOCK_TERM_TAKEN)) {
        redislock_term_dying();
    }
#else
    (void) mark;
#endif
}

/* The last command to the connection of mark went out whole: it may take a
 * release (serial: its serial number; 0 for one the handler never writes
 * to). */
static zend_always_inline void redislock_term_idle(uint32_t *mark, uint32_t serial)
{
#ifndef PHP_WIN32
    __atomic_store_n(mark, serial, __ATOMIC_RELEASE);
#else
    (void) mark;
    (void) serial;
#endif
}

#endif /* REDISLOCK_TERM_H */
