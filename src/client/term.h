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
 * the script's text, pointers to the bytes of its arguments (the lock's
 * keys and token, which stay as they are and where they are until the
 * release is disarmed: it is disarmed before they change or are freed) and
 * the connections. Arming is a few stores; the handler puts the command
 * together at signal time, its RESP headers written into its own stack, and
 * sends it with one sendmsg() a connection.
 *
 * The handler is async-signal-safe: it never allocates, never blocks (a
 * send that would block writes nothing, or less than all: the server drops
 * the command unfinished), never reads, never touches PHP's engine, and
 * writes only to plain TCP and unix connections whose last command went
 * out whole: a TLS session cannot be written from a signal handler, and
 * bytes after half a command would make another command of it. What it
 * reads is published with atomic stores, so that it is consistent whenever
 * the signal comes; what it writes from it, it claims first (a slot, a
 * descriptor), so that another thread of the process (ZTS) neither changes
 * a release it reads nor writes to a descriptor it writes to: a thread that
 * finds a claim waits for the process to die (see redislock_term_dying()).
 * A child made by fork() never writes what its parent armed. Windows:
 * nothing.
 */
#ifndef REDISLOCK_TERM_H
#define REDISLOCK_TERM_H

#include "client/cmd.h"

#define REDISLOCK_TERM_SLOTS 64   /* releases armed at once; more are not written on SIGTERM */
#define REDISLOCK_TERM_FDS 4096   /* descriptors watched; a connection above is not written to */
#define REDISLOCK_TERM_ARGS 24    /* arguments of a release after EVAL and the script (a fair one: 21) */
#define REDISLOCK_TERM_NUMS 4     /* numbers among them (redislock_term_long()) */
#define REDISLOCK_TERM_TAKEN UINT32_MAX /* a descriptor the handler is writing to: never a serial number */

/* One argument of a release: the bytes p (len), then tail (tail_len, a
 * key's suffix; NULL: none). Not copied. */
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

/* Fills r (argc 0 when called) with the release of the hold ctx, with
 * redislock_term_add() and redislock_term_long(). */
typedef void (*redislock_term_fill)(redislock_term_release *r, void *ctx);

/* The state of a slot of the table, in the low bits of its state word
 * (the rest: its generation, which changes each time it is taken for
 * another hold). */
#define REDISLOCK_TERM_FREE 0     /* nobody's */
#define REDISLOCK_TERM_FILLING 1  /* being filled or changed by the thread that took it */
#define REDISLOCK_TERM_ARMED 2    /* armed: the handler writes it */
#define REDISLOCK_TERM_CLAIMED 3  /* the handler's, from armed, until the process dies */
#define REDISLOCK_TERM_KEPT 4     /* filled for the hold of its generation, not armed */
#define REDISLOCK_TERM_STATE 7
#define REDISLOCK_TERM_GEN 8      /* one generation */

/* A hold's place in the table: the slot its release was filled in last,
 * which it keeps while nobody needs it, so that the next hold of the same
 * lock arms the same release again without filling it. Zero-initialised. */
typedef struct redislock_term_ref {
    uint32_t *word;  /* the state word of that slot (NULL: none) */
    uint32_t gen;    /* the slot's generation when it was taken (another hold's since: not ours) */
    bool armed;      /* armed now */
    bool refill;     /* filled anew for every hold (the release is not the same from one to the next) */
} redislock_term_ref;

/* Arms the release of the hold that the n commands cmds granted, for their
 * connections that answered (status OK) and may be written to from the
 * handler, written by process pid only. The release filled last for ref is
 * armed again as it is when its slot is still ref's (and ref->refill is
 * false: what it points to is the same, and so are the bytes there but for
 * the token); otherwise a slot is taken (a free one, else one another hold
 * kept) and fill(r, ctx) fills it. Every byte the release points to stays
 * as it is and where it is until it is disarmed. Nothing is armed when the
 * handler is not set and SIGTERM would not kill the process (a handler of
 * PHP code or of the SAPI has it, or it is ignored), none of the
 * connections is plain, or all slots are armed. With PHP's signal handling
 * (ZEND_SIGNALS) telling whether the handler is set makes no system call.
 * ref must be disarmed. */
void redislock_term_arm(redislock_term_ref *ref, pid_t pid, const redislock_cmd *cmds, size_t n,
                        redislock_term_fill fill, void *ctx);

/* A thread found a slot or descriptor claimed by the handler, which runs in
 * another thread: the process is dying, of SIGTERM, as soon as the handler
 * is done. Waits for that (never returns), rather than change or free what
 * the handler reads or writes to. */
ZEND_NORETURN void redislock_term_dying(void);

/* Disarms ref's release, if armed: the hold ended, or is no longer due a
 * release on SIGTERM, or the bytes it points to are about to change. The
 * slot stays ref's (kept) until another hold needs it. */
static zend_always_inline void redislock_term_disarm(redislock_term_ref *ref)
{
    if (ref->armed) {
#ifndef PHP_WIN32
        uint32_t armed = ref->gen | REDISLOCK_TERM_ARMED;
        if (UNEXPECTED(!__atomic_compare_exchange_n(ref->word, &armed, ref->gen | REDISLOCK_TERM_KEPT, false,
                                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))) {
            redislock_term_dying();
        }
#endif
        ref->armed = false;
    }
}

/* Disarms ref's release and gives its slot up: what it points to is about
 * to be freed. */
void redislock_term_free(redislock_term_ref *ref);

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
 * REDISLOCK_TERM_NUMS a release). */
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
