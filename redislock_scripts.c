/*
 * The Lua scripts. Their text comes from the lua directory through the generated
 * redislock_lua.h, so there is never a second copy to drift; their SHA1 is
 * computed here from that same text.
 */
#include "php.h"
#include "ext/standard/sha1.h"
#include "redislock_scripts.h"
#include "redislock_lua.h"

#define SCRIPT(n) { #n, redislock_lua_##n, sizeof(redislock_lua_##n) - 1, { 0 } }

redislock_script redislock_script_release = SCRIPT(release);
redislock_script redislock_script_extend = SCRIPT(extend);
redislock_script redislock_script_acquire = SCRIPT(acquire);
redislock_script redislock_script_acquire_fair = SCRIPT(acquire_fair);
redislock_script redislock_script_release_fair = SCRIPT(release_fair);
redislock_script redislock_script_fence_raise = SCRIPT(fence_raise);

static void script_hash(redislock_script *s)
{
    PHP_SHA1_CTX ctx;
    unsigned char digest[20];

    PHP_SHA1Init(&ctx);
    PHP_SHA1Update(&ctx, (const unsigned char *) s->body, s->len);
    PHP_SHA1Final(digest, &ctx);
    make_sha1_digest(s->sha, digest);
}

redislock_script *const redislock_scripts[] = {
    &redislock_script_acquire, &redislock_script_release, &redislock_script_extend,
    &redislock_script_acquire_fair, &redislock_script_release_fair,
    &redislock_script_fence_raise, NULL,
};

void redislock_scripts_init(void)
{
    for (redislock_script *const *s = redislock_scripts; *s; s++) {
        script_hash(*s);
    }
}
