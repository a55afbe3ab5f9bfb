/*
 * The Lua scripts of the lua directory, embedded by the build, with their SHA1
 * computed once at module start-up.
 */
#ifndef REDISLOCK_SCRIPTS_H
#define REDISLOCK_SCRIPTS_H

#include <stddef.h>

typedef struct redislock_script {
    const char *name;
    const char *body;
    size_t len;
    char sha[41]; /* hex SHA1 of body, as EVALSHA wants it */
} redislock_script;

extern redislock_script redislock_script_release;
extern redislock_script redislock_script_extend;
extern redislock_script redislock_script_acquire;
extern redislock_script redislock_script_acquire_fair;
extern redislock_script redislock_script_release_fair;
extern redislock_script redislock_script_fence_raise;

/* All of them, NULL-terminated. */
extern redislock_script *const redislock_scripts[];

/* Computes the SHA1 of every script; called from MINIT. */
void redislock_scripts_init(void);

#endif /* REDISLOCK_SCRIPTS_H */
