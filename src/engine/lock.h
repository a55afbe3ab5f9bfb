/*
 * The lock protocol, for one server or a quorum of independent masters
 * (Redlock): the lock's state and keys, its owner token, how its commands
 * go to its servers and how their failures are told, the validity of a
 * hold on the local monotonic clock, and the scripts on a hold: release
 * (which also ends a failed attempt and removes a token whose fate is
 * unknown), extend, check, and the forced release.
 *
 * Above it: one attempt to take the lock (engine/attempt.h), what a caller
 * does with a hold (engine/hold.h, engine/sync.h), the wait strategies
 * (engine/wait.h) and the acquire loop (engine/acquire.h).
 */
#ifndef REDISLOCK_LOCK_H
#define REDISLOCK_LOCK_H

#include "config/config.h"
#include "client/exec.h"
#include "client/term.h"
#include "engine/leftovers.h"
#include "base/error.h"
#include "base/hex.h"
#include "base/process.h"
#include "engine/keys.h"
#include "engine/keepalive.h"
#include "engine/round.h"
#include "base/process.h"

#define REDISLOCK_TOKEN_BYTES 16 /* 128 bits from the CSPRNG */
#define REDISLOCK_TOKEN_LEN (REDISLOCK_TOKEN_BYTES * 2)

#define REDISLOCK_QUEUE_STAY_MS 2000      /* fair mode: a waiter's place lasts this long unless renewed */
/* Fair mode: a release hands the lock to the next waiter with a lease of
 * at most this long, which the waiter renews to its ttl as soon as it
 * wakes; a waiter that died meanwhile holds up the others no longer. */
#define REDISLOCK_HANDOVER_MS REDISLOCK_QUEUE_STAY_MS

/* Room in a lock for its wait strategy's own state, kept from one acquire()
 * to the next: opaque here, read only by the strategy (engine/wait.h). */
#define REDISLOCK_LOCK_WAIT_ROOM 16

typedef struct redislock_lock {
    redislock_settings settings;
    redislock_keys keys;                  /* the lock's key and its bookkeeping keys (engine/keys.h) */
    zend_long fence;                      /* fencing number of the current hold (0 without fencing) */
    char token[REDISLOCK_TOKEN_LEN + 1];  /* hex owner token of the current attempt or hold */
    bool has_token;                       /* the token may sit on a server: clean it up at release */
    bool held;                            /* acquired, and not released nor found lost */
    bool shared;                          /* the hold (or attempt) is a share: engine/shared.h */
    bool maybe_shared;                    /* restored from a token that may be a share's (engine/hold.h) */
    uint32_t placed;                      /* servers our token may be on (a round that left some out) */
    int fair_slot;                        /* fair mode: our wake-up list while queued, -1 before */
    pid_t pid;                            /* process that wrote the token */
    uint64_t valid_until;                 /* end of validity, monotonic microseconds */
    uint64_t marked_until;                /* a native release found the lock waited for until then (monotonic
                                             us): the releases till then wake someone, by the script */
    redislock_term_ref term;              /* its release for SIGTERM (client/term.h) */
    redislock_keepalive_lease *keepalive; /* the hold's renewals in the background (engine/keepalive.h), or NULL */
    redislock_error err;                  /* what went wrong, after REDISLOCK_ERR */
    union {
        uint64_t align;
        unsigned char bytes[REDISLOCK_LOCK_WAIT_ROOM];
    } wait_kept;                          /* the wait strategy's own (zeroed with the object) */
} redislock_lock;

/* Whether this process wrote the lock's current token (a forked child
 * never acts on its parent's hold). */
static inline bool redislock_lock_owned(const redislock_lock *l)
{
    return l->has_token && l->pid == redislock_process_pid();
}

/* Whether this process holds the lock: acquired here, and not released nor
 * found lost. A forked child's inherited object never does (it says so in
 * every accessor); the parent's hold is untouched. */
static inline bool redislock_lock_holding(const redislock_lock *l)
{
    return l->held && redislock_lock_owned(l);
}

/* How many of the lock's servers make a quorum (1 of 1). */
static inline uint32_t redislock_lock_quorum(const redislock_lock *l)
{
    return l->settings.servers->count / 2 + 1;
}

/* A key of the lock (built on first use: the cache is not part of the
 * lock's state, so a const lock may fill it). */
static inline zend_string *redislock_lock_key(const redislock_lock *l, redislock_key_kind kind)
{
    return redislock_keys_get((redislock_keys *) &l->keys, kind);
}

/* The lock's key of a kind named by its last word: REDISLOCK_LKEY(l, FENCE). */
#define REDISLOCK_LKEY(l, kind) redislock_lock_key((l), REDISLOCK_KEY_##kind)

/* Sets up the lock prefix + name (its keys; its settings are set by then). */
void redislock_lock_init(redislock_lock *l, const zend_string *prefix, const zend_string *name);
void redislock_lock_dtor(redislock_lock *l);

/* Milliseconds of validity left on the local monotonic clock, 0 when not held. */
zend_long redislock_lock_remaining(const redislock_lock *l);

/* The mask of all the lock's servers. */
static inline uint32_t redislock_lock_all_servers(const redislock_lock *l)
{
    return ((uint32_t) 1 << l->settings.servers->count) - 1;
}

/* Starts a new series of attempts: a fresh random token (in fair mode also
 * our place in the queue), which may end up on every server, and no wake-up
 * slot yet. REDISLOCK_ERR when the CSPRNG failed (l->err says so). */
static inline int redislock_lock_new_token(redislock_lock *l)
{
    unsigned char raw[REDISLOCK_TOKEN_BYTES];

    if (redislock_process_random(raw, sizeof(raw)) == FAILURE) {
        redislock_error_set(&l->err, REDISLOCK_E_RANDOM, "no random bytes for the token");
        return REDISLOCK_ERR;
    }
    /* Nothing armed may point to the token as it changes: a hold is armed
     * only while held, but a forked child's copy of its parent's still is
     * (for the parent's pid, which the child's handler never writes). */
    redislock_term_disarm(&l->term);
    redislock_hex(l->token, raw, REDISLOCK_TOKEN_BYTES);
    l->placed = redislock_lock_all_servers(l);
    l->fair_slot = -1;
    return REDISLOCK_OK;
}

/* Timeouts for one exchange. With several servers each one gets at most
 * quorum_timeout, small next to the ttl. */
redislock_netopts redislock_lock_netopts(const redislock_lock *l);

/* The deadline of an operation that starts now: one read timeout. */
uint64_t redislock_lock_op_deadline(const redislock_lock *l);

/* End of the validity of a lease of ttl ms whose request left at start
 * (monotonic us): the ttl less the Redlock clock drift allowance. */
uint64_t redislock_lock_validity_end(uint64_t start, zend_long ttl);

/* Starts the script call c with the lock's keys of the n kinds given, in
 * that order (KEYS), then, with owner set, the arguments every lock script
 * takes first: token, ttl, fenced ('1' or '0'). */
void redislock_lock_call_init(redislock_call *c, const redislock_lock *l, const redislock_key_kind *kinds, int n,
                              bool owner);

/* The keys of the fair scripts acquire_fair.lua and release_fair.lua. */
#define REDISLOCK_FAIR_KEYS (6 + REDISLOCK_WAKE_SLOTS)
extern const redislock_key_kind redislock_lock_fair_keys[REDISLOCK_FAIR_KEYS];

/* Readies o for a round over all the lock's servers (cmds). With several
 * servers, new connections check that no two names of the list reach one
 * server (o->identify); with a vote too (1 yes, 0 no, -1 failure), the
 * round ends as soon as its outcome is known: sets o->enough to e. */
void redislock_lock_decide_early(const redislock_lock *l, redislock_netopts *o, redislock_enough *e,
                                 const redislock_cmd *cmds, int (*vote)(const redislock_cmd *cmd));
/* Sends one command to every server of the lock; with a vote, the round
 * ends once the outcome is known (redislock_lock_decide_early()). */
void redislock_lock_send_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens,
                             int (*vote)(const redislock_cmd *cmd));
/* Runs a script call on every server of the lock, the same way. */
void redislock_lock_call_all(redislock_lock *l, const redislock_script *script, redislock_cmd *cmds, redislock_call *c,
                             int (*vote)(const redislock_cmd *cmd));
/* Records why the servers gave no answer to what in l->err. */
void redislock_lock_describe_failure(redislock_lock *l, const redislock_cmd *cmds, const redislock_tally *t,
                                     const char *what);

/* {{{ The scripts on a hold, each one round over every server of the lock
 * (on whichever node the caller pinned: see engine/hold.h for the
 * operations). Each returns REDISLOCK_OK with the answer in *result, or
 * REDISLOCK_ERR when the answer is unknown (servers unreachable, timed out
 * or replying with errors so that no quorum could answer), the reason in
 * l->err. */

/* Deletes our token everywhere (release.lua, or release_fair.lua, which
 * hands the lock to the next waiter); *result tells whether a quorum still
 * had it. Decided either way, the lock has no token any more (a server
 * that did not answer keeps it as a leftover); undecided, the hold stays. */
int redislock_lock_release_once(redislock_lock *l, bool *result);

/* Resets the lease to ttl ms if still ours (extend.lua; what names the
 * operation in errors). Renewed, the validity counts from the send; lost,
 * the lock is held no more and what may be left of our token goes. */
int redislock_lock_extend_once(redislock_lock *l, zend_long ttl, bool *result, const char *what);

/* Asks whether a quorum still has our token (check.lua); when so, dates the
 * validity from the shortest lease they report; when not, the lock is held
 * no more. */
int redislock_lock_check_once(redislock_lock *l, bool *result);

/* Deletes the lock's key whoever holds it (release.lua, forced), waking
 * its waiters as a release does; *result tells whether a key was deleted. */
int redislock_lock_force_release_once(redislock_lock *l, bool *result);

/* }}} */

/* Removes our token from the servers in mask, where it may sit after a
 * failed attempt or a lost hold, within deadline (monotonic us): a server
 * that does not answer keeps it as a leftover, removed later. The lock is
 * neither held nor has a token afterwards. */
void redislock_lock_cleanup(redislock_lock *l, uint32_t mask, uint64_t deadline);

/* Describes the release of the lock's hold for SIGTERM
 * (redislock_term_describe: called by the signal handler, it only reads
 * the lock): EVAL of the release script, exactly the release a leftover
 * gets, with the lock's keys and token where they are. false when a key it
 * needs is not built (redislock_lock_term_keys() builds them). */
bool redislock_lock_term_describe(redislock_term_release *r, const void *lock);

/* Builds the keys the release describes and that are built only on use:
 * fair mode's, and on a Cluster (tagged) the plain release's too. */
void redislock_lock_term_keys(redislock_lock *l);

/* Arms the release of the hold just granted or renewed, by this process,
 * for SIGTERM (client/term.h): written, should the process be terminated,
 * to the connections of the n commands cmds that answered. Only a hold due
 * a release when its request ends is armed (auto_release): one kept past
 * the request is kept past SIGTERM too. The release is described from the
 * lock when the signal comes: it is disarmed before its keys or token
 * change (a new token is drawn only once the hold ended) or are freed
 * (redislock_lock_dtor()). */
static inline void redislock_lock_term_arm(redislock_lock *l, const redislock_cmd *cmds, uint32_t n)
{
    redislock_term_disarm(&l->term);
    if (l->settings.auto_release) {
        if (UNEXPECTED(l->settings.fair || l->keys.tagged || l->shared)) {
            redislock_lock_term_keys(l);
        }
        redislock_term_arm(&l->term, l->pid, cmds, n, redislock_lock_term_describe, l);
    }
}

/* The hold ended (or its token is given up): nothing to write on SIGTERM. */
static inline void redislock_lock_term_disarm(redislock_lock *l)
{
    redislock_term_disarm(&l->term);
}

/* Keeps our token on the servers in mask as leftovers (group: see
 * engine/leftovers.h), one release command encoded once for all. */
void redislock_lock_keep_leftovers(redislock_lock *l, uint32_t mask, redislock_leftover_group *group);

#endif /* REDISLOCK_LOCK_H */
