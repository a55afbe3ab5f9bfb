/*
 * Running one command on every seed server of a Sentinel or Cluster DSN at
 * once, each taken as one server (client/seeds.h).
 */
#include "php_redislock.h"
#include "client/seeds.h"
#include "client/pool.h"
#include "config/topology.h"
#include "base/resp.h"

#include <string.h>

uint32_t redislock_seeds_exec(const redislock_server *srv, int argc, const char **argv, redislock_cmd *cmds,
                              smart_str *buf, const redislock_netopts *o)
{
    const redislock_topology *topo = srv->topo;
    uint32_t n = MIN(topo->nseeds, REDISLOCK_MAX_SERVERS);
    size_t lens[4];

    ZEND_ASSERT(argc <= 4);
    for (int i = 0; i < argc; i++) {
        lens[i] = strlen(argv[i]);
    }
    redislock_resp_encode(buf, argc, argv, lens);
    memset(cmds, 0, sizeof(redislock_cmd) * n);
    for (uint32_t k = 0; k < n; k++) {
        cmds[k].srv = &topo->seeds[k];
        cmds[k].buf = ZSTR_VAL(buf->s);
        cmds[k].len = ZSTR_LEN(buf->s);
        cmds[k].count = 1;
        cmds[k].idx = k;
    }
    redislock_pool_exec(cmds, n, o);
    return n;
}
