/*
 * The keys of a lock (see engine/keys.h).
 */
#include "php.h"
#include "zend_smart_str.h"

#include "engine/keys.h"
#include "base/slot.h"

/* What follows the lock key in each bookkeeping key. */
#define SUFFIX(s) { s, sizeof(s) - 1 }
const redislock_keys_suffix redislock_keys_suffixes[REDISLOCK_KEY_COUNT] = {
    [REDISLOCK_KEY_LOCK] = SUFFIX(""),
    [REDISLOCK_KEY_FENCE] = SUFFIX(":redislock-fence"),
    [REDISLOCK_KEY_WAIT] = SUFFIX(":redislock-wait"),
    [REDISLOCK_KEY_WAKE] = SUFFIX(":redislock-wake"),
    [REDISLOCK_KEY_QUEUE] = SUFFIX(":redislock-queue"),
    [REDISLOCK_KEY_QUEUE_EXP] = SUFFIX(":redislock-queue-exp"),
    [REDISLOCK_KEY_HANDOFF] = SUFFIX(":redislock-handoff"),
    [REDISLOCK_KEY_TICKET] = SUFFIX(":redislock-ticket"),
    [REDISLOCK_KEY_READERS] = SUFFIX(":redislock-readers"),
    [REDISLOCK_KEY_RWAIT] = SUFFIX(":redislock-rwait"),
    [REDISLOCK_KEY_RWAKE] = SUFFIX(":redislock-rwake"),
    [REDISLOCK_KEY_PERMITS] = SUFFIX(":redislock-extra-permits"),
    [REDISLOCK_KEY_HOLDER] = SUFFIX(":redislock-holder"),
    [REDISLOCK_KEY_WAKE_SLOT + 0] = SUFFIX(":redislock-wake-0"),
    [REDISLOCK_KEY_WAKE_SLOT + 1] = SUFFIX(":redislock-wake-1"),
    [REDISLOCK_KEY_WAKE_SLOT + 2] = SUFFIX(":redislock-wake-2"),
    [REDISLOCK_KEY_WAKE_SLOT + 3] = SUFFIX(":redislock-wake-3"),
    [REDISLOCK_KEY_WAKE_SLOT + 4] = SUFFIX(":redislock-wake-4"),
    [REDISLOCK_KEY_WAKE_SLOT + 5] = SUFFIX(":redislock-wake-5"),
    [REDISLOCK_KEY_WAKE_SLOT + 6] = SUFFIX(":redislock-wake-6"),
    [REDISLOCK_KEY_WAKE_SLOT + 7] = SUFFIX(":redislock-wake-7"),
};

/* A short tag, without braces, whose slot is slot: the lock key holds a
 * '}' but no hash tag, so braces around it would not give its slot. */
static void tag_for_slot(uint16_t slot, char *tag, size_t *len)
{
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    /* Four characters of 62 make 14.8 million tags: every slot has about
     * 900 of them, the first found within some 16,000 tries. */
    for (uint32_t n = 0;; n++) {
        uint32_t v = n;
        for (int i = 0; i < 4; i++) {
            tag[i] = alphabet[v % 62];
            v /= 62;
        }
        if ((redislock_slot_crc16((const unsigned char *) tag, 4) & 16383) == slot) {
            *len = 4;
            return;
        }
    }
}

/* The bookkeeping key kind of key, in key's slot when tagged. */
static zend_string *build(const zend_string *key, redislock_key_kind kind, bool tagged)
{
    const char *suffix = redislock_keys_suffixes[kind].s;
    size_t suffix_len = redislock_keys_suffixes[kind].len, start, taglen;
    smart_str out = { 0 };

    if (!tagged || redislock_slot_hash_tag(ZSTR_VAL(key), ZSTR_LEN(key), &start, &taglen)) {
        /* The key's own tag, if any, stays the first in the longer key. */
        return zend_string_concat2(ZSTR_VAL(key), ZSTR_LEN(key), suffix, suffix_len);
    }
    smart_str_appendc(&out, '{');
    if (!memchr(ZSTR_VAL(key), '}', ZSTR_LEN(key))) {
        /* "{key}suffix" hashes the whole key, as the key itself does. */
        smart_str_append(&out, key);
        smart_str_appendc(&out, '}');
    } else {
        char tag[4];
        size_t len;
        tag_for_slot(redislock_slot_of(ZSTR_VAL(key), ZSTR_LEN(key)), tag, &len);
        smart_str_appendl(&out, tag, len);
        smart_str_appendc(&out, '}');
        smart_str_append(&out, key);
    }
    smart_str_appendl(&out, suffix, suffix_len);
    return smart_str_extract(&out);
}

size_t redislock_keys_name_max(size_t prefix_len)
{
    return prefix_len >= REDISLOCK_BULK_MAX - REDISLOCK_KEY_EXTRA
               ? 0 : REDISLOCK_BULK_MAX - REDISLOCK_KEY_EXTRA - prefix_len;
}

void redislock_keys_init(redislock_keys *keys, const zend_string *prefix, const zend_string *name, bool tagged)
{
    memset(keys, 0, sizeof(*keys));
    keys->tagged = tagged;
    keys->k[REDISLOCK_KEY_LOCK] = zend_string_concat2(ZSTR_VAL(prefix), ZSTR_LEN(prefix), ZSTR_VAL(name),
                                                      ZSTR_LEN(name));
}

zend_string *redislock_keys_get(redislock_keys *keys, redislock_key_kind kind)
{
    if (!keys->k[kind]) {
        keys->k[kind] = build(keys->k[REDISLOCK_KEY_LOCK], kind, keys->tagged);
    }
    return keys->k[kind];
}

const char *redislock_keys_name(redislock_keys *keys, redislock_key_kind kind, char *buf, size_t size, size_t *len)
{
    const zend_string *key = keys->k[REDISLOCK_KEY_LOCK];
    size_t suffix;
    zend_string *built = keys->k[kind];

    if (built) {
        *len = ZSTR_LEN(built);
        return ZSTR_VAL(built);
    }
    suffix = redislock_keys_suffixes[kind].len;
    if (!(keys->written & (1u << kind)) && !keys->tagged && ZSTR_LEN(key) + suffix <= size) {
        memcpy(buf, ZSTR_VAL(key), ZSTR_LEN(key));
        memcpy(buf + ZSTR_LEN(key), redislock_keys_suffixes[kind].s, suffix);
        *len = ZSTR_LEN(key) + suffix;
        keys->written |= 1u << kind;
        return buf;
    }
    built = redislock_keys_get(keys, kind);
    *len = ZSTR_LEN(built);
    return ZSTR_VAL(built);
}

void redislock_keys_free(redislock_keys *keys)
{
    for (int i = 0; i < REDISLOCK_KEY_COUNT; i++) {
        if (keys->k[i]) {
            zend_string_release(keys->k[i]);
            keys->k[i] = NULL;
        }
    }
}
