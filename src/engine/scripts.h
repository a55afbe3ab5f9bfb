/*
 * The Lua scripts of the lua directory, embedded by the build, with their SHA1
 * computed once at module start-up.
 */
#ifndef REDISLOCK_SCRIPTS_H
#define REDISLOCK_SCRIPTS_H

#include <stddef.h>
#include "redislock_lua.h" /* generated from lua/ by scripts/build/lua2c.sh */

typedef struct redislock_script {
    const char *name;
    const char *body;
    size_t len;
    char sha[41]; /* hex SHA1 of body, as EVALSHA wants it */
} redislock_script;

/* redislock_script_<name> for each lua/<name>.lua (the build lists them). */
#define REDISLOCK_SCRIPT_DECLARE(n) extern redislock_script redislock_script_##n;
REDISLOCK_LUA_SCRIPTS(REDISLOCK_SCRIPT_DECLARE)
#undef REDISLOCK_SCRIPT_DECLARE

/* All of them, NULL-terminated. */
extern redislock_script *const redislock_scripts[];

/* Computes the SHA1 of every script; called from MINIT. */
void redislock_scripts_init(void);

#endif /* REDISLOCK_SCRIPTS_H */
