#!/usr/bin/python3
"""bench/zookeeper_kazoo.py MODE MS HOSTS [WORKERS]: the baseline of bench/zookeeper.php.

Kazoo's Lock recipe (Debian's python3-kazoo) on the same ZooKeeper server, doing what
bench/zookeeper_worker.php does with RedisLock\\ZooKeeperLock:

  single      one client: acquire + release (no wait) in a loop for MS ms
  contention  WORKERS forked processes, each with its own session, taking one lock in turn
              (acquire waiting, release at once) for MS ms

Prints one number: cycles (critical sections) per second.
"""
import multiprocessing
import os
import sys
import time

from kazoo.client import KazooClient


def client(hosts):
    zk = KazooClient(hosts=hosts, timeout=10.0)
    zk.start()
    return zk


def single(hosts, ms):
    zk = client(hosts)
    lock = zk.Lock("/kazoo-bench/single-%d" % os.getpid())
    for _ in range(20):  # warm-up: the parents exist, the connection is up
        lock.acquire(blocking=False)
        lock.release()
    n = 0
    start = time.monotonic()
    end = start + ms / 1000.0
    while True:
        for _ in range(10):
            if not lock.acquire(blocking=False):
                raise RuntimeError("uncontended acquire failed")
            lock.release()
        n += 10
        now = time.monotonic()
        if now >= end:
            break
    zk.stop()
    return n / (now - start)


def worker(hosts, start, end, out):
    zk = client(hosts)
    lock = zk.Lock("/kazoo-bench/contended")
    lock.acquire(timeout=60)
    lock.release()
    while time.monotonic() < start:
        time.sleep(0.001)
    n = 0
    while time.monotonic() < end:
        if not lock.acquire(timeout=60):
            raise RuntimeError("acquire timed out")
        lock.release()
        n += 1
    out.put(n)
    zk.stop()


def contention(hosts, ms, workers):
    out = multiprocessing.Queue()
    start = time.monotonic() + 2.0
    end = start + ms / 1000.0
    procs = [multiprocessing.Process(target=worker, args=(hosts, start, end, out)) for _ in range(workers)]
    for p in procs:
        p.start()
    total = sum(out.get() for _ in procs)
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise RuntimeError("a worker failed")
    return total / (ms / 1000.0)


def main():
    mode, ms, hosts = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if mode == "single":
        rate = single(hosts, ms)
    else:
        rate = contention(hosts, ms, int(sys.argv[4]))
    print("%.1f" % rate)


if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    main()
