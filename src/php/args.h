/*
 * Checks of the arguments that several classes take alike, throwing the
 * ValueError PHP shows for them.
 */
#ifndef REDISLOCK_ARGS_H
#define REDISLOCK_ARGS_H

#include "php.h"

/* A lock or primitive name (argument #1): not empty. false with a
 * ValueError thrown when it is. */
bool redislock_args_name(const zend_string *name);

/* Whether name, after prefix, makes keys Redis takes (see
 * redislock_keys_name_max()); false with a ValueError thrown for argument
 * #1 when not. */
bool redislock_args_name_fits(const zend_string *name, const zend_string *prefix);

/* A wait in ms (argument arg_num): >= 0, a longer one cut to
 * REDISLOCK_WAIT_MAX into *out. false with a ValueError thrown when
 * negative. */
bool redislock_args_wait(zend_long wait, uint32_t arg_num, zend_long *out);

#endif /* REDISLOCK_ARGS_H */
