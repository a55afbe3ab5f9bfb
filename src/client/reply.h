/*
 * Reading replies: hiredis's RESP reader with limits, and the text of an
 * error reply made safe to show.
 *
 * Each operation reads at most the replies it can get: the lock's and the
 * rate limiter's are small (integers, a token, arrays of a few elements),
 * Atomic::get() a value up to what Redis stores. The caller says how many
 * bytes (max); a reply announcing a larger array or string, or buffering a
 * larger body, is refused before anything is allocated for it, and a
 * connection whose reader holds more than the replies it owed is never
 * reused. No zvals and no Zend allocator here, so the fuzz targets link this
 * file alone.
 */
#ifndef REDISLOCK_REPLY_H
#define REDISLOCK_REPLY_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>

#define REDISLOCK_REPLY_MAX_ELEMENTS 64        /* elements of one array reply */
#define REDISLOCK_REPLY_MAX_BUFFER (64 * 1024) /* bytes of replies buffered before they are parsed, for
                                                  every operation but one that reads a value */
#define REDISLOCK_REPLY_PLAIN_WORD 20          /* longest quoted word kept in an error text (a token is 32) */

/* Outcome of redislock_reply_next(). */
typedef enum {
    REDISLOCK_READ_REPLY,    /* *reply holds a whole reply */
    REDISLOCK_READ_MORE,     /* no whole reply buffered yet */
    REDISLOCK_READ_PROTOCOL, /* the bytes are not RESP */
    REDISLOCK_READ_TOO_LARGE /* a reply larger than the operation reads (max) */
} redislock_read;

/* Makes a hiredis reader refuse arrays of more than
 * REDISLOCK_REPLY_MAX_ELEMENTS elements before allocating them. */
void redislock_reply_limit(redisReader *r);

/* Adds len bytes read from the server. REDISLOCK_READ_TOO_LARGE when more
 * than max bytes would wait in the reader; then nothing is added and the
 * connection must be closed. */
redislock_read redislock_reply_feed(redisReader *r, const char *buf, size_t len, size_t max);

/* Takes the next whole reply out of the reader (free it with
 * freeReplyObject). REDISLOCK_READ_TOO_LARGE as soon as a string is
 * announced longer than max bytes (nothing of it is waited for). After
 * PROTOCOL or TOO_LARGE the reader is unusable. */
redislock_read redislock_reply_next(redisReader *r, redisReply **reply, size_t max);

/* After redislock_reply_next() answered REDISLOCK_READ_PROTOCOL because a
 * reply started with a byte that starts no reply (an HTTP server's "H"),
 * writes that byte into out, safe to show: "H" when printable, else
 * "\xNN" (NUL-terminated when outlen > 0); returns its length, 0 (out
 * empty) for any other protocol error. One byte only: what the server
 * sent may echo what it was sent. */
size_t redislock_reply_bad_byte(char *out, size_t outlen);

/* Replaces *r, which holds nothing (!redislock_reply_pending()), with a new
 * limited reader, so that the buffer a large reply grew is not kept for the
 * connection's life. false, with *r unchanged, when memory ran out. */
bool redislock_reply_renew(redisReader **r);

/* Whether the reader holds anything not yet taken out as a reply: bytes
 * not parsed, or the start of a reply. After the replies a connection owed,
 * anything at all means the server sent what nobody asked for, and the
 * connection is out of step. */
bool redislock_reply_pending(const redisReader *r);

/* Writes the text of an error reply into out (NUL-terminated when outlen >
 * 0), keeping only what cannot carry a caller's argument, since Redis echoes
 * arguments cut short, where a masking of whole secrets cannot find them:
 * nothing from "with args beginning with" on, and each quoted text replaced
 * by '...' unless it is a plain word (letters, digits, _-|.:) of at most
 * REDISLOCK_REPLY_PLAIN_WORD bytes, such as a command name. Printable ASCII
 * only (others become '?'), at most 200 bytes. Returns its length. */
size_t redislock_reply_error_text(const redisReply *r, char *out, size_t outlen);

/* Whether r is an error reply by which the server refuses to serve anyone
 * now, because of its own state (loading, a replica, out of memory, a
 * script running, a failed save, a password it requires...), having done
 * nothing: the same request may succeed later, after an operator or the
 * server itself changed that state. Returns NULL when r is not such a
 * refusal (no error, or one about the request itself: NOPERM, WRONGTYPE,
 * an unknown command, other ERR), else a hint saying what to do, to be
 * shown after the server's text ("" when the text says enough). The one
 * table of these replies; docs/errors.md lists it. */
const char *redislock_reply_refusal(const redisReply *r);

#endif /* REDISLOCK_REPLY_H */
