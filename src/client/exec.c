/*
 * The Redis client's entry point (client/exec.h): commands for direct
 * servers go straight to the pool, an exchange with a Sentinel or Cluster
 * server through the routing.
 */
#include "php_redislock.h"
#include "client/exec.h"
#include "client/route.h"
#include "client/pool.h"

/* Whether any command of cmds goes to a Sentinel or Cluster server. */
static zend_always_inline bool routed(const redislock_cmd *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].srv->kind != REDISLOCK_SERVER_DIRECT) {
            return true;
        }
    }
    return false;
}

void redislock_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts)
{
    if (routed(cmds, n)) {
        redislock_route_exec(cmds, n, opts);
    } else {
        redislock_pool_exec(cmds, n, opts);
    }
}
