/*
 * The lock protocol.
 *
 * Every operation sends the same command to all servers of the lock at once
 * and counts the answers: a lock over N servers needs floor(N/2)+1 of them
 * (one, for a single server). Answers are "yes", "no", or a failure; when
 * the failures are enough to change the outcome, the outcome is unknown and
 * the caller gets REDISLOCK_ERR, never a guess.
 */
#include "php_redislock.h"
#include "redislock_lock.h"
#include "redislock_pool.h"
#include "redislock_scripts.h"

#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include <unistd.h>

#define BACKOFF_MIN_US 2000    /* first retry delay ceiling */
#define BACKOFF_MAX_US 50000   /* longest retry delay */

/* How the servers answered one operation. */
typedef struct tally {
    uint32_t yes;     /* did it: set the key, still had our token, ... */
    uint32_t no;      /* answered, and did not */
    uint32_t failed;  /* no usable answer */
    uint32_t unknown; /* failed after the command was sent: it may have run */
} tally;

static uint32_t quorum(const redislock_lock *l)
{
    return l->settings.servers->count / 2 + 1;
}

/* Timeouts for one exchange. With several servers each one gets at most
 * quorum_timeout, small next to the ttl as Redlock wants, so that a slow or
 * frozen minority costs little of the lease. */
static redislock_netopts netopts(const redislock_lock *l)
{
    const redislock_settings *s = &l->settings;
    redislock_netopts o = {
        .connect_timeout = s->connect_timeout,
        .read_timeout = s->read_timeout,
        .persistent = s->persistent,
    };

    if (s->servers->count > 1) {
        o.connect_timeout = MIN(o.connect_timeout, s->quorum_timeout);
        o.read_timeout = MIN(o.read_timeout, s->quorum_timeout);
    }
    return o;
}

/* End of the validity of a lease of ttl ms whose request left at start:
 * the ttl less the Redlock clock drift allowance (1% of the ttl plus 2 ms). */
static uint64_t validity_end(uint64_t start, zend_long ttl)
{
    uint64_t lease = (uint64_t) ttl * 1000, drift = (uint64_t) ttl * 10 + 2000;

    return lease > drift ? start + lease - drift : start;
}

/* Sends one command (argv) to every server of the lock. */
static void exec_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens)
{
    const redislock_servers *servers = l->settings.servers;
    redislock_netopts o = netopts(l);
    char *buf = NULL;
    int len = redisFormatCommandArgv(&buf, argc, argv, lens);

    if (len < 0) {
        zend_error_noreturn(E_ERROR, "redislock: out of memory formatting a command");
    }
    for (uint32_t i = 0; i < servers->count; i++) {
        cmds[i].srv = &servers->server[i];
        cmds[i].buf = buf;
        cmds[i].len = (size_t) len;
    }
    redislock_pool_exec(cmds, servers->count, &o);
    redisFreeCommand(buf);
}

static bool is_noscript(const redislock_cmd *cmd)
{
    return cmd->status == REDISLOCK_CMD_ERROR && cmd->reply->len >= 8 && memcmp(cmd->reply->str, "NOSCRIPT", 8) == 0;
}

/* Runs a script with KEYS[1] = key and ARGV = token, extra... on every
 * server, by EVALSHA; servers that lost the script (restart, SCRIPT FLUSH)
 * get it again with EVAL, which runs and caches it in one round trip. */
static void script_all(redislock_lock *l, const redislock_script *script, redislock_cmd *cmds, const char *extra,
                       size_t extra_len)
{
    const char *argv[6] = { "EVALSHA", script->sha, "1", ZSTR_VAL(l->key), l->token, extra };
    size_t lens[6] = { 7, 40, 1, ZSTR_LEN(l->key), REDISLOCK_TOKEN_LEN, extra_len };
    int argc = extra ? 6 : 5;
    uint32_t n = l->settings.servers->count, reload = 0;
    redislock_cmd again[REDISLOCK_MAX_SERVERS];
    uint32_t where[REDISLOCK_MAX_SERVERS];

    exec_all(l, cmds, argc, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        if (is_noscript(&cmds[i])) {
            freeReplyObject(cmds[i].reply);
            cmds[i].reply = NULL;
            again[reload] = cmds[i];
            where[reload++] = i;
        }
    }
    if (reload == 0) {
        return;
    }

    char *buf = NULL;
    int len;
    argv[0] = "EVAL";
    lens[0] = 4;
    argv[1] = script->body;
    lens[1] = script->len;
    len = redisFormatCommandArgv(&buf, argc, argv, lens);
    if (len < 0) {
        zend_error_noreturn(E_ERROR, "redislock: out of memory formatting a command");
    }
    for (uint32_t k = 0; k < reload; k++) {
        again[k].buf = buf;
        again[k].len = (size_t) len;
    }
    redislock_netopts o = netopts(l);
    redislock_pool_exec(again, reload, &o);
    redisFreeCommand(buf);
    for (uint32_t k = 0; k < reload; k++) {
        cmds[where[k]] = again[k];
    }
    REDISLOCK_G(stats).script_reloads += reload;
}

/* Counts a command without a usable answer; a reply of a type the
 * operation does not expect is a failure too. */
static void tally_failure(tally *t, redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK) {
        snprintf(cmd->errstr, sizeof(cmd->errstr), "unexpected reply from %s", cmd->srv->label);
        cmd->status = REDISLOCK_CMD_ERROR;
    }
    t->failed++;
    if (cmd->status == REDISLOCK_CMD_LOST || cmd->status == REDISLOCK_CMD_TIMEOUT) {
        t->unknown++;
    }
}

/* Counts an integer reply of 1 as yes and 0 as no. */
static void tally_integer(tally *t, redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_INTEGER) {
        if (cmd->reply->integer == 1) {
            t->yes++;
        } else {
            t->no++;
        }
        return;
    }
    tally_failure(t, cmd);
}

/* Writes why the servers could not answer into l->error. */
static void describe_failure(redislock_lock *l, const redislock_cmd *cmds, const tally *t, const char *what)
{
    uint32_t n = l->settings.servers->count;
    size_t off;

    if (n == 1) {
        snprintf(l->error, sizeof(l->error), "%s failed: %s", what, cmds[0].errstr);
        return;
    }
    off = (size_t) snprintf(l->error, sizeof(l->error), "%s failed: no quorum (%u of %u servers needed, %u failed)",
                            what, quorum(l), n, t->failed);
    for (uint32_t i = 0; i < n && off < sizeof(l->error); i++) {
        if (cmds[i].status != REDISLOCK_CMD_OK) {
            off += (size_t) snprintf(l->error + off, sizeof(l->error) - off, "; %s", cmds[i].errstr);
        }
    }
}

/* Removes our token from every server, ignoring the outcome: used after a
 * failed attempt, where it may sit on some servers. */
static void cleanup(redislock_lock *l)
{
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];

    script_all(l, &redislock_script_release, cmds, NULL, 0);
    redislock_cmds_dtor(cmds, l->settings.servers->count);
    l->has_token = false;
    l->held = false;
}

static int new_token(redislock_lock *l)
{
    unsigned char raw[REDISLOCK_TOKEN_BYTES];
    static const char hex[] = "0123456789abcdef";

    if (php_random_bytes_throw(raw, sizeof(raw)) == FAILURE) {
        return REDISLOCK_ERR;
    }
    for (size_t i = 0; i < sizeof(raw); i++) {
        l->token[2 * i] = hex[raw[i] >> 4];
        l->token[2 * i + 1] = hex[raw[i] & 15];
    }
    l->token[REDISLOCK_TOKEN_LEN] = '\0';
    return REDISLOCK_OK;
}

/* One attempt: SET key token NX PX ttl on every server. */
static int try_acquire(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    tally t = { 0 };
    char ttl[24];
    const char *argv[6] = { "SET", ZSTR_VAL(l->key), l->token, "NX", "PX", ttl };
    size_t lens[6] = { 3, ZSTR_LEN(l->key), REDISLOCK_TOKEN_LEN, 2, 2, 0 };
    uint64_t start, valid_until;

    *result = false;
    if (new_token(l) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    lens[5] = (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, l->settings.ttl);
    l->has_token = true;
    l->pid = getpid();

    start = redislock_now_us();
    exec_all(l, cmds, 6, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        redislock_cmd *cmd = &cmds[i];
        if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_STATUS) {
            t.yes++;
        } else if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_NIL) {
            t.no++;
        } else {
            tally_failure(&t, cmd);
        }
    }
    valid_until = validity_end(start, l->settings.ttl);
    if (t.yes >= quorum(l) && redislock_now_us() < valid_until) {
        l->held = true;
        l->valid_until = valid_until;
        REDISLOCK_G(stats).acquired++;
        *result = true;
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_OK;
    }
    if (t.yes + t.no < quorum(l)) {
        describe_failure(l, cmds, &t, "acquire");
    }
    redislock_cmds_dtor(cmds, n);
    if (t.yes > 0 || t.unknown > 0) {
        cleanup(l);
    }
    l->has_token = false;
    l->held = false;
    if (t.yes + t.no < quorum(l)) {
        return REDISLOCK_ERR;
    }
    REDISLOCK_G(stats).contended++;
    return REDISLOCK_OK;
}

/* A random delay in [cap/2, cap] microseconds. */
static uint64_t jitter(uint64_t cap)
{
    uint32_t r = 0;

    if (php_random_bytes_silent(&r, sizeof(r)) == FAILURE) {
        r = (uint32_t) redislock_now_us();
    }
    return cap / 2 + r % (cap / 2 + 1);
}

int redislock_lock_acquire(redislock_lock *l, zend_long wait_ms, bool *result)
{
    uint64_t start = redislock_now_us();
    uint64_t deadline = start + (uint64_t) wait_ms * 1000;
    uint64_t cap = BACKOFF_MIN_US;

    if (l->has_token && l->held && l->pid == getpid()) {
        /* Already ours: renew the lease instead of queueing behind ourselves. */
        if (redislock_lock_extend(l, l->settings.ttl, result) != REDISLOCK_OK || *result) {
            return *result ? REDISLOCK_OK : REDISLOCK_ERR;
        }
    }
    if (l->has_token && l->pid == getpid()) {
        cleanup(l);
    }
    for (;;) {
        uint64_t now;

        if (try_acquire(l, result) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        now = redislock_now_us();
        if (*result || now >= deadline) {
            return REDISLOCK_OK;
        }
        usleep((useconds_t) MIN(jitter(cap), deadline - now));
        cap = MIN(cap * 2, BACKOFF_MAX_US);
    }
}

int redislock_lock_release(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    tally t = { 0 };

    *result = false;
    if (!l->has_token || l->pid != getpid()) {
        return REDISLOCK_OK;
    }
    script_all(l, &redislock_script_release, cmds, NULL, 0);
    for (uint32_t i = 0; i < n; i++) {
        tally_integer(&t, &cmds[i]);
    }
    l->has_token = false;
    l->held = false;
    if (t.yes < quorum(l) && t.yes + t.failed >= quorum(l)) {
        describe_failure(l, cmds, &t, "release");
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmds_dtor(cmds, n);
    *result = t.yes >= quorum(l);
    if (*result) {
        REDISLOCK_G(stats).released++;
    } else {
        REDISLOCK_G(stats).released_lost++;
    }
    return REDISLOCK_OK;
}

int redislock_lock_extend(redislock_lock *l, zend_long ttl, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    tally t = { 0 };
    char arg[24];
    size_t arg_len;
    uint64_t start, valid_until;

    *result = false;
    if (!l->has_token || !l->held || l->pid != getpid()) {
        return REDISLOCK_OK;
    }
    arg_len = (size_t) snprintf(arg, sizeof(arg), ZEND_LONG_FMT, ttl);
    start = redislock_now_us();
    script_all(l, &redislock_script_extend, cmds, arg, arg_len);
    for (uint32_t i = 0; i < n; i++) {
        tally_integer(&t, &cmds[i]);
    }
    valid_until = validity_end(start, ttl);
    if (t.yes >= quorum(l) && redislock_now_us() < valid_until) {
        redislock_cmds_dtor(cmds, n);
        l->valid_until = valid_until;
        REDISLOCK_G(stats).extended++;
        *result = true;
        return REDISLOCK_OK;
    }
    if (t.yes < quorum(l) && t.yes + t.failed >= quorum(l)) {
        describe_failure(l, cmds, &t, "extend");
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmds_dtor(cmds, n);
    /* Lost: what is left of our token on a minority of servers goes too. */
    REDISLOCK_G(stats).extend_failed++;
    if (t.yes > 0) {
        cleanup(l);
    }
    l->held = false;
    return REDISLOCK_OK;
}

int redislock_lock_check(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    tally t = { 0 };
    const char *argv[2] = { "GET", ZSTR_VAL(l->key) };
    size_t lens[2] = { 3, ZSTR_LEN(l->key) };

    *result = false;
    if (!l->has_token || !l->held || l->pid != getpid()) {
        return REDISLOCK_OK;
    }
    exec_all(l, cmds, 2, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        redislock_cmd *cmd = &cmds[i];
        if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_STRING) {
            if (cmd->reply->len == REDISLOCK_TOKEN_LEN && memcmp(cmd->reply->str, l->token, REDISLOCK_TOKEN_LEN) == 0) {
                t.yes++;
            } else {
                t.no++;
            }
        } else if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_NIL) {
            t.no++;
        } else {
            tally_failure(&t, cmd);
        }
    }
    if (t.yes < quorum(l) && t.yes + t.failed >= quorum(l)) {
        describe_failure(l, cmds, &t, "isAcquired");
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmds_dtor(cmds, n);
    *result = t.yes >= quorum(l);
    if (!*result) {
        l->held = false;
    }
    return REDISLOCK_OK;
}

zend_long redislock_lock_remaining(const redislock_lock *l)
{
    uint64_t now;

    if (!l->held) {
        return 0;
    }
    now = redislock_now_us();
    return now >= l->valid_until ? 0 : (zend_long) ((l->valid_until - now) / 1000);
}
