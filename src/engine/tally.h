/*
 * Counting a round's answers: which servers said yes, no, or failed, and
 * the verdict of a quorum on "did it".
 */
#ifndef REDISLOCK_TALLY_H
#define REDISLOCK_TALLY_H

#include "base/error.h"
#include "client/cmd.h"

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

/* Counting the answers. A reply of a type the round does not expect is a
 * failure (its errstr then says so). */
void redislock_tally_yes(redislock_tally *t, const redislock_cmd *cmd);
void redislock_tally_no(redislock_tally *t, const redislock_cmd *cmd);
void redislock_tally_failure(redislock_tally *t, redislock_cmd *cmd);
/* An integer reply: 1 is yes, anything else no. */
void redislock_tally_integer(redislock_tally *t, redislock_cmd *cmd);

/* Votes (see redislock_enough): 1 yes, 0 no, -1 failure. An integer
 * reply: 1 yes, another integer no. */
int redislock_tally_vote_integer(const redislock_cmd *cmd);
/* Counts cmd as vote says. */
void redislock_tally_vote(redislock_tally *t, redislock_cmd *cmd, int vote);

/* The verdict on "did a quorum do it": unknown when the servers that failed
 * could turn it either way. */
redislock_verdict redislock_tally_verdict(const redislock_tally *t, uint32_t quorum);

/* Records in e why n servers, of which quorum must agree, gave no answer
 * to what: "WHAT failed: ..." with each failed server's reason; the kind is
 * REDISLOCK_E_CONNECTION when a server could not be reached, did not
 * answer in time, or refused because of its state (redislock_cmd_kind():
 * LOADING, READONLY, OOM, NOAUTH...), REDISLOCK_E_SERVER when the failures
 * were all error replies about the request itself; REDISLOCK_E_CONFIG, with
 * the client's words alone, when the list named one server twice
 * (REDISLOCK_CMD_SAME_SERVER). */
void redislock_tally_describe(const redislock_tally *t, uint32_t n, uint32_t quorum, const redislock_cmd *cmds,
                              const char *what, redislock_error *e);

#endif /* REDISLOCK_TALLY_H */
