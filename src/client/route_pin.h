/*
 * Pinning an operation to one node (client/route_pin.c).
 */
#ifndef REDISLOCK_ROUTE_PIN_H
#define REDISLOCK_ROUTE_PIN_H

#include "config/config.h"

/* An operation's commands belong together (a grant and the check of its
 * replication, a queue place and its claim): between redislock_route_pin()
 * and redislock_route_pin_end() on a lock's list, every command to one of
 * its Sentinel servers goes to one node. The node is chosen as ever by the
 * first command, and may still change while nothing has run there (the
 * first command found the old master gone, READONLY); once a command may
 * have run on it, a later one that would have to go elsewhere (READONLY,
 * MASTERDOWN, no connection) fails with that answer instead, and the
 * Sentinels are not asked again before the operation ends. Pins nest. A
 * cluster's operations need none (see the file). */
void redislock_route_pin(const redislock_servers *list);
void redislock_route_pin_end(const redislock_servers *list);

/* For the routing layer: the node srv's pinned operation goes to (NULL:
 * none yet, or no pinned operation); the node just found for it, pinned
 * (returns the node to send to: the pin's own copy); a command answered by
 * that node (it may have run there); and a command the node turned away or
 * that reached no node: whether the operation stays on its node (true: a
 * command of it ran there) or may go where the next look says (false; the
 * pin is dropped). */
const redislock_server *redislock_route_pin_active(const redislock_server *srv);
const redislock_server *redislock_route_pin_take(const redislock_server *srv, const redislock_server *node);
void redislock_route_pin_ran(const redislock_server *srv);
bool redislock_route_pin_stays(const redislock_server *srv);

#endif /* REDISLOCK_ROUTE_PIN_H */
