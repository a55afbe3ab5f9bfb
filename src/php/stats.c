/*
 * The per-process counters by name (see stats.h).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "ext/standard/info.h"

#include "php_redislock.h"
#include "php/stats.h"

/* The counters, by name, in the order stats() and phpinfo() show them. */
static const struct {
    const char *name;
    size_t offset;
} counters[] = {
#define COUNTER(n) { #n, XtOffsetOf(redislock_stats, n) }
    COUNTER(acquired), COUNTER(contended), COUNTER(released), COUNTER(released_lost),
    COUNTER(extended), COUNTER(extend_failed), COUNTER(auto_released), COUNTER(connects),
    COUNTER(reconnects), COUNTER(script_reloads), COUNTER(waits), COUNTER(errors), COUNTER(commands),
    COUNTER(rate_limited), COUNTER(atomic_conflicts), COUNTER(atomic_retries),
    COUNTER(keepalive_renewals), COUNTER(keepalive_lost),
#undef COUNTER
};

#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

/* The value of the i-th counter. */
static zend_ulong counter_value(size_t i)
{
    return *(zend_ulong *) ((char *) &REDISLOCK_G(stats) + counters[i].offset);
}

void redislock_stats_array(zval *out)
{
    array_init_size(out, NCOUNTERS);
    for (size_t i = 0; i < NCOUNTERS; i++) {
        add_assoc_long(out, counters[i].name, (zend_long) counter_value(i));
    }
}

void redislock_stats_minfo(void)
{
    char buf[64];

    php_info_print_table_start();
    php_info_print_table_header(2, "Counter (this process)", "Value");
    for (size_t i = 0; i < NCOUNTERS; i++) {
        snprintf(buf, sizeof(buf), ZEND_ULONG_FMT, counter_value(i));
        php_info_print_table_row(2, counters[i].name, buf);
    }
    php_info_print_table_end();
}
