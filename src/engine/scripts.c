/*
 * The Lua scripts. Their text comes from the lua directory through the generated
 * redislock_lua.h, so there is never a second copy to drift; their SHA1 is
 * computed here from that same text.
 */
#include "php.h"
#include "ext/standard/sha1.h"
#define REDISLOCK_LUA_BODIES
#include "engine/scripts.h"

#define SCRIPT(n) redislock_script redislock_script_##n = { #n, redislock_lua_##n, sizeof(redislock_lua_##n) - 1, { 0 } };
REDISLOCK_LUA_SCRIPTS(SCRIPT)
#undef SCRIPT

static void script_hash(redislock_script *s)
{
    PHP_SHA1_CTX ctx;
    unsigned char digest[20];

    PHP_SHA1Init(&ctx);
    PHP_SHA1Update(&ctx, (const unsigned char *) s->body, s->len);
    PHP_SHA1Final(digest, &ctx);
    make_sha1_digest(s->sha, digest);
}

#define SCRIPT_REF(n) &redislock_script_##n,
redislock_script *const redislock_scripts[] = { REDISLOCK_LUA_SCRIPTS(SCRIPT_REF) NULL };
#undef SCRIPT_REF

void redislock_scripts_init(void)
{
    for (redislock_script *const *s = redislock_scripts; *s; s++) {
        script_hash(*s);
    }
}
