/*
 * Checks of the arguments that several classes take alike (see args.h).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "config/config.h"
#include "engine/keys.h"
#include "php/args.h"

bool redislock_args_name(const zend_string *name)
{
    if (ZSTR_LEN(name) == 0) {
        zend_argument_value_error(1, "must not be empty");
        return false;
    }
    return true;
}

bool redislock_args_name_fits(const zend_string *name, const zend_string *prefix)
{
    size_t max = redislock_keys_name_max(ZSTR_LEN(prefix));

    if (ZSTR_LEN(name) <= max) {
        return true;
    }
    zend_argument_value_error(1, "must be at most %zu bytes long (with the prefix, a Redis key is at most %d bytes)",
                              max, REDISLOCK_BULK_MAX);
    return false;
}

bool redislock_args_wait(zend_long wait, uint32_t arg_num, zend_long *out)
{
    if (wait < 0) {
        zend_argument_value_error(arg_num, "must be greater than or equal to 0");
        return false;
    }
    *out = MIN(wait, REDISLOCK_WAIT_MAX);
    return true;
}
