/*
 * Reading replies with limits, and error texts safe to show.
 */
#include "client/reply.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MIN_SIZE(a, b) ((a) < (b) ? (a) : (b))

/* hiredis 1.x counts array elements in a size_t, 0.14 in an int. */
#if HIREDIS_MAJOR >= 1
typedef size_t redislock_nelem;
#else
typedef int redislock_nelem;
#endif

/* hiredis's constructors with the array one limited: made once per process
 * (whichever thread comes first), read only after. */
static pthread_once_t limited_once = PTHREAD_ONCE_INIT;
static redisReplyObjectFunctions limited;
static void *(*create_array)(const redisReadTask *, redislock_nelem);

/* What the last parse that failed in this thread stopped at; each thread
 * parses its own connections' replies (a threaded PHP runs requests on
 * several). Written on the failure paths only. */
static _Thread_local bool refused; /* a reply over the limits */
static _Thread_local int bad_byte = -1; /* this byte, which starts no reply */

/* hiredis's own array constructor, for arrays within the limit only. */
static void *limited_array(const redisReadTask *task, redislock_nelem elements)
{
    if ((size_t) elements > REDISLOCK_REPLY_MAX_ELEMENTS) {
        refused = true;
        return NULL; /* the reader stops with an error, nothing allocated */
    }
    return create_array(task, elements);
}

/* Fills limited from a new reader's table, which is hiredis's default. */
static void limited_make(void)
{
    redisReader *r = redisReaderCreate();

    if (r) {
        limited = *r->fn;
        create_array = limited.createArray;
        limited.createArray = limited_array;
        redisReaderFree(r);
    }
}

void redislock_reply_limit(redisReader *r)
{
    pthread_once(&limited_once, limited_make);
    if (create_array) {
        r->fn = &limited;
    }
}

redislock_read redislock_reply_feed(redisReader *r, const char *buf, size_t len, size_t max)
{
    if (r->len - r->pos + len > max) {
        return REDISLOCK_READ_TOO_LARGE;
    }
    if (redisReaderFeed(r, buf, len) != REDIS_OK) {
        bad_byte = -1;
        return REDISLOCK_READ_PROTOCOL;
    }
    return REDISLOCK_READ_MORE;
}

/* Whether the reader waits for the bytes of a string announced longer than
 * max. hiredis has then read the '$' (the task's type says a string) and
 * keeps the length line unparsed until the whole string is there. */
static bool bulk_over(const redisReader *r, size_t max)
{
    size_t len = 0;

    if (r->ridx < 0) {
        return false;
    }
#if HIREDIS_MAJOR >= 1
    if (r->task[r->ridx]->type != REDIS_REPLY_STRING) { /* 1.x: a stack that grows */
#else
    if (r->rstack[r->ridx].type != REDIS_REPLY_STRING) {
#endif
        return false;
    }
    for (size_t i = r->pos; i < r->len && r->buf[i] >= '0' && r->buf[i] <= '9'; i++) {
        len = len * 10 + (size_t) (r->buf[i] - '0');
        if (len > max) {
            return true; /* before len can overflow: max < SIZE_MAX / 10 */
        }
    }
    return false;
}

redislock_read redislock_reply_next(redisReader *r, redisReply **reply, size_t max)
{
    void *obj = NULL;

    /* The byte a new reply starts with, kept since hiredis clears its
     * buffer on an error. */
    int first = r->ridx < 0 && r->pos < r->len ? (unsigned char) r->buf[r->pos] : -1;

    *reply = NULL;
    if (redisReaderGetReply(r, &obj) != REDIS_OK) {
        bool over = refused;
        refused = false;
        bad_byte = first >= 0 && !memchr("+-:$*", first, 5) ? first : -1;
        return over ? REDISLOCK_READ_TOO_LARGE : REDISLOCK_READ_PROTOCOL;
    }
    if (!obj) {
        return bulk_over(r, max) ? REDISLOCK_READ_TOO_LARGE : REDISLOCK_READ_MORE;
    }
    *reply = obj;
    return REDISLOCK_READ_REPLY;
}

size_t redislock_reply_bad_byte(char *out, size_t outlen)
{
    int n;

    if (bad_byte < 0 || outlen == 0) {
        if (outlen) {
            out[0] = '\0';
        }
        return 0;
    }
    n = bad_byte > 0x20 && bad_byte < 0x7f && bad_byte != '"' && bad_byte != '\\'
        ? snprintf(out, outlen, "\"%c\"", bad_byte) : snprintf(out, outlen, "\"\\x%02x\"", bad_byte);
    return n < 0 ? 0 : MIN_SIZE((size_t) n, outlen - 1);
}

bool redislock_reply_renew(redisReader **r)
{
    redisReader *fresh = redisReaderCreate();

    if (!fresh) {
        return false;
    }
    redislock_reply_limit(fresh);
    redisReaderFree(*r);
    *r = fresh;
    return true;
}

bool redislock_reply_pending(const redisReader *r)
{
    /* Unparsed bytes, or a reply begun (its start already parsed). */
    return r->len > r->pos || r->ridx >= 0;
}

/* Whether [s, s+len) is a short plain word (a command or subcommand name,
 * a script line reference): the only quoted text kept. */
static bool plain_word(const char *s, size_t len)
{
    if (len == 0 || len > REDISLOCK_REPLY_PLAIN_WORD) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
              || c == '|' || c == '.' || c == ':')) {
            return false;
        }
    }
    return true;
}

size_t redislock_reply_error_text(const redisReply *r, char *out, size_t outlen)
{
    static const char echo[] = "with args beginning with";
    const char *s = r->str ? r->str : "";
    size_t len = r->str ? r->len : 0, n = 0, max = outlen ? outlen - 1 : 0;

    if (max > 200) {
        max = 200;
    }
    /* Redis lists the arguments of a command it does not know after this. */
    for (size_t i = 0; i + sizeof(echo) - 1 <= len; i++) {
        if (memcmp(s + i, echo, sizeof(echo) - 1) == 0) {
            len = i;
            while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == ',')) {
                len--;
            }
            break;
        }
    }
    for (size_t i = 0; i < len && n < max; i++) {
        unsigned char c = (unsigned char) s[i];
        if (c == '\'' || c == '"') {
            const char *close = memchr(s + i + 1, c, len - i - 1);
            size_t qlen = close ? (size_t) (close - s - i - 1) : len - i - 1;
            const char *text = plain_word(s + i + 1, qlen) ? s + i + 1 : "...";
            size_t tlen = text == s + i + 1 ? qlen : 3;
            if (n + tlen + 2 > max) {
                break;
            }
            out[n++] = (char) c;
            memcpy(out + n, text, tlen);
            n += tlen;
            out[n++] = (char) c;
            i += qlen + (close ? 1 : 0);
            continue;
        }
        out[n++] = c >= 0x20 && c < 0x7f ? (char) c : '?';
    }
    if (outlen) {
        out[n] = '\0';
    }
    return n;
}

/* The error replies that are refusals of the server's state (see
 * redislock_reply_refusal()), by their first word, and what to do. */
static const struct {
    const char *code;
    const char *hint;
} refusals[] = {
    { "NOAUTH", "the server requires a password, and none is configured for it" },
    /* What a server requiring a password answers, instead of NOAUTH, to an
     * unauthenticated client's command of many arguments (and closes). */
    { "ERR Protocol error: unauthenticated", "the server requires a password, and none is configured for it" },
    { "WRONGPASS", "" },   /* AUTH of the handshake: a password rotated, a user disabled */
    { "LOADING", "" },     /* a restart: the dataset is being read */
    { "MASTERDOWN", "" },  /* a replica whose link to its master is down */
    { "READONLY", "" },    /* a replica now (a failover), or a server configured as one */
    { "MISCONF", "" },     /* writes stopped after a failed save (a disk) */
    { "OOM", "" },         /* maxmemory reached */
    { "BUSY", "" },        /* a script or function running past its time limit */
    { "NOREPLICAS", "" },  /* min-replicas-to-write not met */
    { "TRYAGAIN", "" },    /* Cluster: a slot being migrated */
    { "CLUSTERDOWN", "" }, /* Cluster: slots not served */
};

const char *redislock_reply_refusal(const redisReply *r)
{
    if (!r || r->type != REDIS_REPLY_ERROR || !r->str) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
        size_t n = strlen(refusals[i].code);
        if (r->len >= n && memcmp(r->str, refusals[i].code, n) == 0 && (r->len == n || r->str[n] == ' ')) {
            return refusals[i].hint;
        }
    }
    return NULL;
}
