/*
 * The round layer: one command or script sent to a set of servers at once,
 * NOSCRIPT recovered, the replies gathered and counted, and the verdict of
 * a quorum. The lock (and every primitive after it) is a thin caller: it
 * builds its command, reads what each server answered into a tally, and
 * asks the tally for the verdict.
 */
#ifndef REDISLOCK_ROUND_H
#define REDISLOCK_ROUND_H

#include "config/config.h"
#include "base/error.h"
#include "client/exec.h"
#include "engine/scripts.h"

/* How the servers answered one round. Bit i of a mask is server i of the
 * caller's list (redislock_cmd.idx). */
typedef struct redislock_tally {
    uint32_t yes;      /* did it: set the key, still had our token, ... */
    uint32_t no;       /* answered, and did not */
    uint32_t failed;   /* no usable answer */
    uint32_t mayhold;  /* said yes, or failed once the command was sent (it may have run) */
    uint32_t definite; /* answered yes or no */
    uint32_t replied;  /* a reply came (maybe an error) */
} redislock_tally;

/* What a quorum of the servers said about "did it". */
typedef enum {
    REDISLOCK_VERDICT_NO,      /* a quorum cannot have done it */
    REDISLOCK_VERDICT_YES,     /* a quorum did it */
    REDISLOCK_VERDICT_UNKNOWN, /* the failures decide it: the answer is not known */
} redislock_verdict;

/* A script call being put together: its keys (KEYS), then its arguments
 * (ARGV). argv[0] and argv[1] (EVALSHA and the SHA, or EVAL and the body)
 * are the sender's. The arrays point into the struct, which therefore stays
 * where it was set up. */
#define REDISLOCK_CALL_MAX 32
#define REDISLOCK_CALL_NUMS 4

typedef struct redislock_call {
    const char *argv[REDISLOCK_CALL_MAX];
    size_t lens[REDISLOCK_CALL_MAX];
    int argc;
    int nkeys;
    int nums;
    char numkeys[3];
    char num[REDISLOCK_CALL_NUMS][24];
} redislock_call;

void redislock_call_init(redislock_call *c);
/* Adds a key; every key comes before the first argument. At most 99. */
void redislock_call_key(redislock_call *c, const zend_string *key);
void redislock_call_keyl(redislock_call *c, const char *key, size_t len);
void redislock_call_arg(redislock_call *c, const char *arg, size_t len);
/* Adds a number argument, written in decimal (at most REDISLOCK_CALL_NUMS a call). */
void redislock_call_long(redislock_call *c, zend_long v);
/* Adds "1" or "0". */
void redislock_call_bool(redislock_call *c, bool v);

/* Sends one command (argv) to the servers of list in mask, at once, with
 * options o. cmds[0..n) get them in server order, each with its server's
 * index in idx; returns n. The leftover tokens of a server (see
 * redislock_leftovers.h) go first, in the same write. */
uint32_t redislock_round_send(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                              redislock_cmd *cmds, int argc, const char **argv, const size_t *lens);

/* Runs a script on the servers of list in mask by EVALSHA: argv[0] and
 * argv[1] are filled in here; the caller gives numkeys, the keys and the
 * arguments from argv[2] on. Servers that lost the script (restart, SCRIPT
 * FLUSH) get it again by EVAL, which runs and caches it in one round trip.
 * Returns the number of commands in cmds, as redislock_round_send(). */
uint32_t redislock_round_script(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                const redislock_script *script, redislock_cmd *cmds, int argc, const char **argv,
                                size_t *lens);

/* redislock_round_script() with the call c. */
uint32_t redislock_round_call(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                              const redislock_script *script, redislock_cmd *cmds, redislock_call *c);

/* One command's words, for a pipeline. */
typedef struct redislock_words {
    int argc;
    const char **argv;
    const size_t *lens;
} redislock_words;

/* Sends n commands to one server in one write: the server runs each right
 * after the one before, with nothing of other clients' in between (a
 * blocking command holds back the rest until it returns).
 * redislock_cmd_reply(cmd, k) is the k-th reply; cmd->reply (and status)
 * the last one's. */
void redislock_round_pipeline(const redislock_server *srv, redislock_cmd *cmd, const redislock_netopts *o,
                              const redislock_words *cmds, int n);

/* redislock_round_send() of count commands in one write to each server
 * (see redislock_round_pipeline()). */
uint32_t redislock_round_send_pipeline(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                       redislock_cmd *cmds, const redislock_words *w, int count);

/* Whether the server answered NOSCRIPT (to the command; or this reply of
 * a pipeline is that answer). */
bool redislock_cmd_noscript(const redislock_cmd *cmd);
bool redislock_reply_noscript(const redisReply *r);
/* Makes cmd carry r, an error reply the server gave to an earlier command
 * of its pipeline: what the pipeline failed on. */
void redislock_cmd_refused_by(redislock_cmd *cmd, const redisReply *r);

/* Counting the answers. A reply of a type the round does not expect is a
 * failure (its errstr then says so). */
void redislock_tally_yes(redislock_tally *t, const redislock_cmd *cmd);
void redislock_tally_no(redislock_tally *t, const redislock_cmd *cmd);
void redislock_tally_failure(redislock_tally *t, redislock_cmd *cmd);
/* An integer reply: 1 is yes, anything else no. */
void redislock_tally_integer(redislock_tally *t, redislock_cmd *cmd);

/* Votes (see redislock_enough): 1 yes, 0 no, -1 failure. An integer
 * reply: 1 yes, another integer no. */
int redislock_vote_integer(const redislock_cmd *cmd);
/* Counts cmd as vote says. */
void redislock_tally_vote(redislock_tally *t, redislock_cmd *cmd, int vote);

/* The verdict on "did a quorum do it": unknown when the servers that failed
 * could turn it either way. */
redislock_verdict redislock_tally_verdict(const redislock_tally *t, uint32_t quorum);

/* Records in e why n servers, of which quorum must agree, gave no answer
 * to what: "WHAT failed: ..." with each failed server's reason; the kind is
 * REDISLOCK_E_CONNECTION when a server could not be reached or did not
 * answer in time, REDISLOCK_E_SERVER when the failures were error replies. */
void redislock_tally_describe(const redislock_tally *t, uint32_t n, uint32_t quorum, const redislock_cmd *cmds,
                              const char *what, redislock_error *e);

#endif /* REDISLOCK_ROUND_H */
