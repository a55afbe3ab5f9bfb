<?php

/**
 * @generate-class-entries
 * @generate-legacy-arginfo 80100
 */

namespace RedisLock {

/**
 * A lock on ZooKeeper: an ephemeral sequential node under /<root>/<name>, each waiter watching only
 * the node just before its own (no herd), granted in arrival order. A holder whose process dies
 * loses the lock when its session expires (session_timeout). Built when the extension is configured
 * --with-zookeeper.
 *
 * @strict-properties
 * @not-serializable
 */
final class ZooKeeperLock implements Lock
{
    /**
     * @param string $name lock name: one ZooKeeper path segment (not empty, no "/", no control character)
     * @param array $options hosts (default INI redislock.zookeeper_hosts), root (default "/redislock"),
     *        session_timeout (default INI redislock.zookeeper_session_timeout), connect_timeout
     *        (default INI redislock.connect_timeout), auto_release (default INI redislock.auto_release)
     */
    public function __construct(string $name, array $options = []) {}

    /**
     * Take the lock. $waitMs = 0: one attempt. $waitMs > 0: wait in line until that deadline.
     * true: held by this object now. false: held elsewhere and the wait ran out (our node is gone again).
     * Throws RedisLock\ConnectionException when ZooKeeper cannot be reached or the session is lost.
     * On an object that holds the lock already, true comes from memory only while the session is vouched
     * for: until 90% of its (granted) session timeout after the send time of the last request ZooKeeper
     * answered. Later, ZooKeeper is asked (as isAcquired() does); a hold found gone is taken anew.
     */
    public function acquire(int $waitMs = 0): bool {}

    /**
     * true: it was ours and its node is now deleted. false: not held, or lost with its session.
     * Throws RedisLock\ConnectionException when the outcome is unknown; the node is then deleted later
     * (or goes with the session) and the object no longer holds it.
     */
    public function release(): bool {}

    /**
     * There is no lease to renew: a hold lasts as long as the session that took it (the client keeps
     * the session alive in the background while the process lives). So extend() asks ZooKeeper, as
     * isAcquired() does, whether our node is still there: true while it is (and remaining() counts
     * again from this answer), false once it is gone. $ttlMs is checked as RedisLock checks it
     * (outside 1..2147483647: ValueError) and has no other effect, so code written against
     * RedisLock\Lock runs unchanged. Throws RedisLock\ConnectionException as isAcquired() does.
     */
    public function extend(?int $ttlMs = null): bool {}

    /**
     * Ask ZooKeeper whether our node is still there (false once the node or its session is gone). An answer
     * is waited for at most 90% of the session timeout (it vouches for no longer); none in time throws
     * RedisLock\ConnectionException: the hold may be lost, never say it is not.
     */
    public function isAcquired(): bool {}

    /**
     * Milliseconds for which the hold is known to be ours without asking, by the local monotonic clock:
     * what the session is vouched for, up to 90% of its (granted) session timeout after the send time
     * of the last request ZooKeeper answered; 0 when not held or past that. Each answer renews it
     * (extend(), isAcquired(), and acquire() on a hold past it). The hold itself does not run out while
     * its session lives, but only an answer from ZooKeeper proves that the session does: check
     * remaining() before a long step, and call extend() when it is short, as with RedisLock.
     */
    public function remaining(): int {}

    /**
     * The path of the node this object took, until it is released or known lost, or null. It names the
     * hold; it does not vouch that it is still current (isAcquired() asks).
     */
    public function token(): ?string {}

    /**
     * The sequence number of the node token() names (it grows with every attempt on the lock), or null.
     */
    public function fence(): ?int {}

    /**
     * acquire($waitMs), call $fn(), release in all cases; returns what $fn returned.
     * Throws RedisLock\ConflictException when the lock could not be taken in time, and
     * RedisLock\ReleaseException when $fn completed but the release failed.
     */
    public function run(callable $fn, int $waitMs = 0): mixed {}
}

}
