/*
 * A semaphore hold's release on SIGTERM (see engine/semaphore.h and
 * client/term.h): armed, as a lock's, on the connection that granted or
 * last renewed the hold, and described from the semaphore when the signal
 * comes.
 */
#include "php_redislock.h"
#include "engine/semaphore.h"

/* semaphore_release.lua's keys, in its KEYS order. */
static const redislock_key_kind release_keys[] = { REDISLOCK_KEY_HOLDER, REDISLOCK_KEY_LOCK, REDISLOCK_KEY_PERMITS,
                                                   REDISLOCK_KEY_WAIT, REDISLOCK_KEY_WAKE };
#define RELEASE_KEYS (sizeof(release_keys) / sizeof(release_keys[0]))

/* The release of s's hold on SIGTERM (redislock_term_describe: the signal
 * handler calls it, it only reads s): EVAL of semaphore_release.lua, the
 * one release right wherever the hold is (alone in the holder key or in the
 * holds, weighted or not), with the keys and the member where they are. */
static bool term_describe(redislock_term_release *r, const void *hold)
{
    const redislock_semaphore *s = hold;
    const zend_string *holds = s->keys.k[REDISLOCK_KEY_LOCK];

    r->body = redislock_script_semaphore_release.body;
    r->body_len = redislock_script_semaphore_release.len;
    redislock_term_long(r, (zend_long) RELEASE_KEYS);
    for (size_t i = 0; i < RELEASE_KEYS; i++) {
        const zend_string *key = s->keys.k[release_keys[i]];
        const redislock_keys_suffix *tail = &redislock_keys_suffixes[release_keys[i]];
        if (key) {
            redislock_term_add(r, ZSTR_VAL(key), ZSTR_LEN(key), NULL, 0);
        } else if (!s->keys.tagged) {
            /* Untagged, a key not built is the holds' key then its suffix. */
            redislock_term_add(r, ZSTR_VAL(holds), ZSTR_LEN(holds), tail->s, tail->len);
        } else {
            return false;
        }
    }
    redislock_term_add(r, s->member, s->member_len, NULL, 0);
    redislock_term_add(r, "0", 1, NULL, 0);
    return true;
}

void redislock_semaphore_term_arm(redislock_semaphore *s, const redislock_cmd *cmd)
{
    redislock_term_disarm(&s->term);
    if (!s->prim.settings.auto_release) {
        return;
    }
    for (size_t i = 0; s->keys.tagged && i < RELEASE_KEYS; i++) {
        /* Tagged, a key is described only built. */
        redislock_keys_get(&s->keys, release_keys[i]);
    }
    redislock_term_arm(&s->term, s->pid, cmd, 1, term_describe, s);
}
