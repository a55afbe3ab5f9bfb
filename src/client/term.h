/*
 * Releases written when the process is terminated (SIGTERM): php-fpm's
 * master sends it to a worker at request_terminate_timeout, and a worker's
 * SIGTERM is left at its default (the process dies). The holder of a lock
 * arms, when the lock is granted, a release command encoded in advance
 * and the connections that granted it; a signal handler of our own, set
 * only where SIGTERM would kill the process anyway (no handler of PHP
 * code, pcntl, nor of the SAPI), writes the armed commands to their
 * connections, then lets the process die as it would have.
 *
 * The handler is async-signal-safe: it never allocates, never blocks (a
 * send that would block writes nothing, or less than all: the server drops
 * the command unfinished), never reads, never touches PHP's engine, and
 * writes only to plain TCP and unix connections whose last command went
 * out whole: a TLS session cannot be written from a signal handler, and
 * bytes after half a command would make another command of it. What it
 * reads (the armed holds, which connections may take a write) is published
 * atomically, so that it is consistent whenever the signal comes. A child
 * made by fork() never writes what its parent armed. Windows: nothing.
 */
#ifndef REDISLOCK_TERM_H
#define REDISLOCK_TERM_H

#include "client/cmd.h"

/* An armed release (opaque). */
typedef struct redislock_term_hold redislock_term_hold;

/* The release to write: EVAL of body (not copied: it lives as long as the
 * process, a script's text) with the argc arguments argv (lens) after it
 * (the number of keys, the keys, the script's arguments). */
typedef struct redislock_term_release {
    const char *body;
    size_t body_len;
    int argc;
    const char *const *argv;
    const size_t *lens;
} redislock_term_release;

/* Whether a release armed now would be written on SIGTERM: the handler is
 * set, or SIGTERM would kill the process and the handler is set now. false
 * when a handler of PHP code or of the SAPI has the signal (or it is
 * ignored): then there is nothing to arm. */
bool redislock_term_ready(void);

/* Arms the release r (replacing what *h had armed, if anything; *h NULL
 * the first time) for the connections of the n commands that answered
 * (cmds[i].status OK). Nothing is armed when none of them is a plain
 * connection, or all slots are taken. */
void redislock_term_arm(redislock_term_hold **h, const redislock_term_release *r, const redislock_cmd *cmds,
                        size_t n);

/* Arms again the release *h armed last, its last argument replaced by last
 * (the same length: a new token), for the connections of cmds, without
 * encoding it again. false when *h has none of that length: then arm it. */
bool redislock_term_rearm(redislock_term_hold **h, const char *last, size_t len, const redislock_cmd *cmds, size_t n);

/* Disarms *h: the hold ended, or is no longer due a release on SIGTERM.
 * What it was stays for redislock_term_rearm(). */
void redislock_term_disarm(redislock_term_hold **h);

/* Disarms and frees *h, and sets it to NULL. */
void redislock_term_free(redislock_term_hold **h);

/* The connection whose descriptor is fd and serial number serial may take
 * a write from the handler now (its last command went out whole), or not
 * (writable false: a command is being written, or it is closing). Called
 * by the I/O around every write, and when a connection closes. */
void redislock_term_writable(int fd, uint32_t serial, bool writable);

/* A new serial number for a connection (never 0). */
uint32_t redislock_term_serial(void);

#endif /* REDISLOCK_TERM_H */
