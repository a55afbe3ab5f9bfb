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

/* The release to write: head, then body (not copied: it lives as long as
 * the process, a script's text), then tail. */
typedef struct redislock_term_release {
    const char *head;
    size_t head_len;
    const char *body;
    size_t body_len;
    const char *tail;
    size_t tail_len;
} redislock_term_release;

/* Whether a release armed now would be written on SIGTERM: the handler is
 * set, or SIGTERM would kill the process and the handler is set now. false
 * when a handler of PHP code or of the SAPI has the signal (or it is
 * ignored): then there is nothing to arm. */
bool redislock_term_ready(void);

/* Arms the release r (replacing what *h had armed, if anything) for the
 * connections of the n commands that answered (cmds[i].status OK). *h is
 * NULL afterwards when nothing could be armed (no plain connection among
 * them, all slots taken). */
void redislock_term_arm(redislock_term_hold **h, const redislock_term_release *r, const redislock_cmd *cmds,
                        size_t n);

/* Disarms *h (the hold ended, or it is no longer due a release on
 * SIGTERM) and sets *h to NULL. */
void redislock_term_disarm(redislock_term_hold **h);

/* The connection whose descriptor is fd and serial number serial may take
 * a write from the handler now (its last command went out whole), or not
 * (writable false: a command is being written, or it is closing). Called
 * by the I/O around every write, and when a connection closes. */
void redislock_term_writable(int fd, uint32_t serial, bool writable);

/* A new serial number for a connection (never 0). */
uint32_t redislock_term_serial(void);

#endif /* REDISLOCK_TERM_H */
