/*
 * The round layer: one command or script sent to a set of servers at once,
 * NOSCRIPT recovered, the replies gathered and counted, and the verdict of
 * a quorum. The lock (and every primitive after it) is a thin caller: it
 * builds its command, reads what each server answered into a tally, and
 * asks the tally for the verdict.
 */
#ifndef REDISLOCK_ROUND_H
#define REDISLOCK_ROUND_H

#include "config/config.h"
#include "base/error.h"
#include "client/exec.h"
#include "engine/scripts.h"
#include "engine/call.h"
#include "engine/tally.h"

/* Sends one command (argv) to the servers of list in mask, at once, with
 * options o. cmds[0..n) get them in server order, each with its server's
 * index in idx; returns n. The leftover tokens of a server (see
 * engine/leftovers.h) go first, in the same write. */
uint32_t redislock_round_send(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                              redislock_cmd *cmds, int argc, const char **argv, const size_t *lens);

/* Runs a script on the servers of list in mask by EVALSHA: argv[0] and
 * argv[1] are filled in here; the caller gives numkeys, the keys and the
 * arguments from argv[2] on. Servers that lost the script (restart, SCRIPT
 * FLUSH) get it again by EVAL, which runs and caches it in one round trip.
 * Returns the number of commands in cmds, as redislock_round_send(). */
uint32_t redislock_round_script(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                const redislock_script *script, redislock_cmd *cmds, int argc, const char **argv,
                                size_t *lens);

/* redislock_round_script() with the call c. */
uint32_t redislock_round_call(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                              const redislock_script *script, redislock_cmd *cmds, redislock_call *c);

/* redislock_round_call(), except that on a server whose connection says
 * it can (client/conn.h), the command sent is the first of natives (n of
 * them) it can run instead of the script: cmd->native says which (0: the
 * script), and the replies are that pipeline's. Not through a Sentinel or
 * Cluster's routing, nor behind leftovers: the script there. */
uint32_t redislock_round_call_natives(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                      const redislock_script *script, redislock_cmd *cmds, redislock_call *c,
                                      const redislock_native *natives, int nnatives);

/* One command's words, for a pipeline. */
typedef struct redislock_words {
    int argc;
    const char **argv;
    const size_t *lens;
} redislock_words;

/* Sends n commands to one server in one write: the server runs each right
 * after the one before, with nothing of other clients' in between (a
 * blocking command holds back the rest until it returns).
 * redislock_cmd_reply(cmd, k) is the k-th reply; cmd->reply (and status)
 * the last one's. */
void redislock_round_pipeline(const redislock_server *srv, redislock_cmd *cmd, const redislock_netopts *o,
                              const redislock_words *cmds, int n);

/* redislock_round_send() of count commands in one write to each server
 * (see redislock_round_pipeline()). */
uint32_t redislock_round_send_pipeline(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                       redislock_cmd *cmds, const redislock_words *w, int count);

/* Whether the server answered NOSCRIPT (to the command; or this reply of
 * a pipeline is that answer). */
bool redislock_round_noscript(const redislock_cmd *cmd);
bool redislock_round_noscript_reply(const redisReply *r);

#endif /* REDISLOCK_ROUND_H */
