/*
 * Fuzz target for the reply path (client/reply.c): arbitrary bytes, fed
 * in chunks of sizes drawn from the input, into a hiredis reader with the
 * extension's limits, the way the connection pool feeds what recv() returns.
 * Built and run by scripts/check/fuzz.sh; any broken invariant is an abort().
 *
 * Input: the first byte chooses how to feed the rest:
 *   bits 0-2  largest chunk, 1 << n bytes (1..128, times 256 when the rest
 *             is fed more than once); chunk sizes are drawn from a small
 *             generator seeded by the input
 *   bits 3-4  how many times the rest is fed in a row (1, 1, 4 or 20), so an
 *             input of -max_len 4096 can go past REDISLOCK_REPLY_MAX_BUFFER
 *   bit  5    take replies out after every fourth chunk only, so that
 *             several whole replies wait in the reader at once
 *
 * Invariants:
 *  - feed answers MORE or TOO_LARGE (never PROTOCOL: the reader is never fed
 *    after an error); TOO_LARGE only when more than REDISLOCK_REPLY_MAX_BUFFER
 *    bytes (the limit given) would wait, and then the reader's buffer is as
 *    it was; after MORE at most REDISLOCK_REPLY_MAX_BUFFER bytes wait. next
 *    answers TOO_LARGE, too, for a string announced longer than the limit.
 *  - every reply, nested ones included, has a known type; strings, statuses
 *    and errors have their bytes followed by a NUL; no array has more than
 *    REDISLOCK_REPLY_MAX_ELEMENTS elements, and none is NULL.
 *  - for every error reply and every outlen tried (0 to 1024, see
 *    check_error_text),
 *    redislock_reply_error_text writes at most outlen bytes (the buffer is
 *    allocated at exactly that size, so ASan sees any write past it) and
 *    returns n < outlen, n <= 200, with out[n] the first NUL and only
 *    printable ASCII before it; with outlen 0 it writes nothing and
 *    returns 0. Nothing that Redis echoes after "with args beginning with"
 *    reaches the text (checked for every run of 8 or more plain characters
 *    there that does not also occur before it).
 *  - redislock_reply_bad_byte shows one byte ("H" or "\xNN", printable
 *    ASCII), asked after PROTOCOL only as client/reply.h says, within the
 *    outlen given (check_bad_byte).
 *  - reading stops at the first PROTOCOL or TOO_LARGE; every reply is freed
 *    with freeReplyObject and the reader with redisReaderFree, so
 *    LeakSanitizer sees a reply the reader loses.
 */
#define _GNU_SOURCE /* memmem */
#include "client/reply.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) do { fprintf(stderr, "fuzz_reply: " __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

#define ERROR_TEXT_MAX 200
static const char echo_marker[] = "with args beginning with";

/* Whether c may be part of a run checked by check_echo: printable, and none
 * of the characters redislock_reply_error_text puts in its text of its own
 * ('?' for an unprintable byte, quotes, "..." for a quoted argument). */
static int plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '?' && c != '.' && c != '\'' && c != '"';
}

/* Nothing after the echo marker reaches the text: a run of plain characters
 * of the echoed part that does not occur before the marker cannot be in it,
 * since every plain run of the text is copied from before the marker. */
static void check_echo(const redisReply *r, const char *out, size_t n)
{
    const char *m = memmem(r->str, r->len, echo_marker, sizeof(echo_marker) - 1);
    const char *p, *end = r->str + r->len;

    if (!m) {
        return;
    }
    for (p = m + sizeof(echo_marker) - 1; p < end;) {
        const char *q = p;
        while (q < end && plain((unsigned char) *q)) q++;
        if (q - p >= 8 && !memmem(r->str, (size_t) (m - r->str), p, (size_t) (q - p))
            && memmem(out, n, p, (size_t) (q - p))) {
            FAIL("error text repeats what follows \"%s\": %.*s", echo_marker, (int) (q - p), p);
        }
        p = q < end ? q + 1 : end;
    }
}

/* Checks the text of one error reply with outlen 0, the 256 bytes the
 * extension gives it, the longest text's 1024, and two more drawn from the
 * reply's length (every outlen gets its turn, few calls a reply: finding
 * the echo marker costs a memcmp a byte, and ASan intercepts each one). */
static void check_error_text(const redisReply *r)
{
    static const size_t small[] = {1, 2, 3, 4, 5, 6, 8, 13, 16, 33, 64, 128, 199, 200, 201, 202};
    const size_t nsmall = sizeof(small) / sizeof(small[0]);
    const size_t outlens[] = {256, 1024, small[r->len % nsmall], small[(r->len / nsmall + 1) % nsmall]};
    char *out;
    size_t n;

    out = malloc(1);
    out[0] = 0x5a;
    if ((n = redislock_reply_error_text(r, out, 0)) != 0 || out[0] != 0x5a) {
        FAIL("outlen 0: returned %zu, wrote %s", n, out[0] != 0x5a ? "a byte" : "nothing");
    }
    free(out);

    for (size_t k = 0; k < sizeof(outlens) / sizeof(outlens[0]); k++) {
        size_t outlen = outlens[k];

        out = malloc(outlen); /* exact size: ASan sees any write past it */
        memset(out, 0x5a, outlen);
        n = redislock_reply_error_text(r, out, outlen);
        if (n >= outlen || n > ERROR_TEXT_MAX) {
            FAIL("outlen %zu: returned %zu", outlen, n);
        }
        if (out[n] != '\0' || strlen(out) != n) {
            FAIL("outlen %zu: out[%zu] is not the first NUL", outlen, n);
        }
        for (size_t i = 0; i < n; i++) {
            if ((unsigned char) out[i] < 0x20 || (unsigned char) out[i] >= 0x7f) {
                FAIL("outlen %zu: byte 0x%02x at %zu is not printable ASCII", outlen, (unsigned char) out[i], i);
            }
        }
        if (outlen == 1024) {
            check_echo(r, out, n); /* the longest text holds the shorter ones */
        }
        free(out);
    }
}

static void check_reply(const redisReply *r)
{
    switch (r->type) {
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
        if (!r->str || r->str[r->len] != '\0') {
            FAIL("type %d: no NUL after the string", r->type);
        }
        if (r->type == REDIS_REPLY_ERROR) {
            check_error_text(r);
        }
        break;
    case REDIS_REPLY_ARRAY:
        if (r->elements > REDISLOCK_REPLY_MAX_ELEMENTS) {
            FAIL("an array of %zu elements", (size_t) r->elements);
        }
        if (r->elements && !r->element) {
            FAIL("an array of %zu elements without them", (size_t) r->elements);
        }
        for (size_t i = 0; i < r->elements; i++) {
            if (!r->element[i]) {
                FAIL("element %zu of an array is NULL", i);
            }
            check_reply(r->element[i]);
        }
        break;
    case REDIS_REPLY_INTEGER:
    case REDIS_REPLY_NIL:
        break;
    default:
        FAIL("reply of unknown type %d", r->type);
    }
}

/* After PROTOCOL: the byte shown is one quoted byte ("H" or "\xNN"),
 * printable ASCII only, within every outlen (0 to 8). Only PROTOCOL is
 * asked about (client/reply.h): the byte is what the last parse that failed
 * stopped at, kept per thread and written on the failure paths only. */
static void check_bad_byte(void)
{
    for (size_t outlen = 0; outlen <= 8; outlen++) {
        char *out = malloc(outlen ? outlen : 1);
        size_t n;
        if (!out) {
            abort();
        }
        n = redislock_reply_bad_byte(out, outlen);
        if (outlen && (n >= outlen || out[n] != '\0' || strlen(out) != n)) {
            FAIL("bad byte: %zu bytes for outlen %zu", n, outlen);
        }
        if (n && outlen > 6 && n != 3 && n != 6) { /* "H" or "\xNN", when not cut short */
            FAIL("bad byte: %zu bytes", n);
        }
        for (size_t i = 0; i < n; i++) {
            if (out[i] < 0x20 || out[i] > 0x7e) {
                FAIL("bad byte: not printable");
            }
        }
        free(out);
    }
}

/* Takes every whole reply out of the reader. Returns false once reading
 * must stop (PROTOCOL or TOO_LARGE). */
static bool drain(redisReader *reader)
{
    for (;;) {
        redisReply *reply = (redisReply *) 0x1;
        redislock_read rd = redislock_reply_next(reader, &reply, REDISLOCK_REPLY_MAX_BUFFER);

        switch (rd) {
        case REDISLOCK_READ_REPLY:
            if (!reply) {
                FAIL("REPLY without a reply");
            }
            check_reply(reply);
            freeReplyObject(reply);
            break;
        case REDISLOCK_READ_MORE:
        case REDISLOCK_READ_PROTOCOL:
        case REDISLOCK_READ_TOO_LARGE:
            if (reply) {
                FAIL("no reply, but *reply was set");
            }
            (void) redislock_reply_pending(reader);
            if (rd == REDISLOCK_READ_PROTOCOL) {
                check_bad_byte();
            }
            return rd == REDISLOCK_READ_MORE;
        default:
            FAIL("next returned %d", (int) rd);
        }
    }
}

static uint32_t next_random(uint32_t *state)
{
    /* xorshift32 */
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned rounds_of[4] = {1, 1, 4, 20};
    redisReader *reader;
    const char *buf = (const char *) data + 1;
    size_t len, max_chunk, chunks = 0;
    unsigned rounds;
    bool lazy, go = true;
    uint32_t state;

    if (size < 1) {
        return 0;
    }
    len = size - 1;
    max_chunk = (size_t) 1 << (data[0] & 7);
    rounds = rounds_of[(data[0] >> 3) & 3];
    if (rounds > 1) {
        max_chunk <<= 8;
    }
    lazy = data[0] & 0x20;
    state = 0x9e3779b9u ^ ((uint32_t) data[0] << 16) ^ (uint32_t) len;

    reader = redisReaderCreate();
    if (!reader) {
        FAIL("redisReaderCreate failed");
    }
    redislock_reply_limit(reader);
    for (unsigned k = 0; k < rounds && go; k++) {
        for (size_t pos = 0; pos < len && go;) {
            size_t n = 1 + next_random(&state) % max_chunk;
            size_t waiting = reader->len - reader->pos;
            char *was_buf = reader->buf;
            size_t was_len = reader->len, was_pos = reader->pos;
            redislock_read rd;

            if (n > len - pos) {
                n = len - pos;
            }
            rd = redislock_reply_feed(reader, buf + pos, n, REDISLOCK_REPLY_MAX_BUFFER);
            if (rd == REDISLOCK_READ_TOO_LARGE) {
                if (waiting + n <= REDISLOCK_REPLY_MAX_BUFFER) {
                    FAIL("TOO_LARGE with %zu + %zu bytes", waiting, n);
                }
                if (reader->buf != was_buf || reader->len != was_len || reader->pos != was_pos) {
                    FAIL("TOO_LARGE, but the reader's buffer changed");
                }
                go = false;
                break;
            }
            if (rd != REDISLOCK_READ_MORE) {
                FAIL("feed returned %d", (int) rd);
            }
            if (reader->len - reader->pos > REDISLOCK_REPLY_MAX_BUFFER) {
                FAIL("%zu bytes wait in the reader", reader->len - reader->pos);
            }
            pos += n;
            if (!lazy || ++chunks % 4 == 0) {
                go = drain(reader);
            }
        }
    }
    if (go) {
        drain(reader);
    }
    redisReaderFree(reader);
    return 0;
}
