/*
 * Leftover tokens: owner tokens that may sit on a server although no lock
 * object holds them any more (an attempt or its cleanup timed out, a release
 * could not be answered, a request ended). Each is kept, per process and up
 * to REDISLOCK_LEFTOVERS_MAX of them, as the compare-and-delete command
 * that removes it, and sent ahead of the next command of this process to
 * its server (in the same write), and at the end of every request.
 */
#ifndef REDISLOCK_LEFTOVERS_H
#define REDISLOCK_LEFTOVERS_H

#include "config/config.h"
#include "client/exec.h"

#define REDISLOCK_LEFTOVERS_MAX 64 /* the oldest is forgotten past this (its lease ends on its own) */

/* Counts the releases of one lock that went out as leftovers: when quorum of
 * its commands deleted the token, the lock counts as auto-released. */
typedef struct redislock_leftover_group {
    uint32_t refs;   /* leftovers still pointing here */
    uint32_t yes;    /* commands that deleted the token */
    uint32_t quorum; /* deletions that make the lock released */
} redislock_leftover_group;

/* Keeps the command cmd (RESP, len bytes; copied) that removes a token from
 * server index of list, to be sent with the given network options. group
 * (may be NULL) is counted when the command deletes the token. */
void redislock_leftovers_add(const redislock_servers *list, uint32_t index, const char *cmd, size_t len,
                             const redislock_netopts *o, redislock_leftover_group *group);

/* Puts the leftovers of cmd->srv (at most max, oldest first; with all
 * unset, not those of a server that did not answer lately) ahead of cmd:
 * appends their commands to buf and remembers which of cmd's replies answer
 * them. Returns how many. The caller sends buf followed by its own command
 * (count = that many + its own), then calls redislock_leftovers_settle(). */
int redislock_leftovers_ahead(redislock_cmd *cmd, int max, bool all, smart_str *buf);

/* After an exchange: reads the answers to the leftovers sent ahead of
 * commands, and forgets those the servers answered. Returns how many. */
uint32_t redislock_leftovers_settle(void);

/* Sends the leftovers, each server's in one pipeline and every server at
 * once, and forgets those the servers answered; a server that did not answer
 * lately is left out (it is tried again after a backoff, or as soon as an
 * operation reaches it). Nothing runs past deadline (monotonic us). */
void redislock_leftovers_flush(uint64_t deadline);

/* A deadline for sending every leftover: now plus the longest read timeout
 * among them. */
uint64_t redislock_leftovers_deadline(void);

/* A new group for the leftovers of one lock of quorum servers (freed when
 * its last leftover goes). */
redislock_leftover_group *redislock_leftovers_group_new(uint32_t quorum);

/* Process end: forgets them all. */
void redislock_leftovers_shutdown(void);

#endif /* REDISLOCK_LEFTOVERS_H */
