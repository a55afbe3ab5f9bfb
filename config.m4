dnl config.m4 for the redislock extension

PHP_ARG_ENABLE([redislock],
  [whether to enable redislock support],
  [AS_HELP_STRING([--enable-redislock], [Enable redislock support])],
  [no])

PHP_ARG_WITH([hiredis],
  [for hiredis],
  [AS_HELP_STRING([[--with-hiredis[=DIR]]],
    [redislock: hiredis installation prefix, when pkg-config does not find it])],
  [yes],
  [no])

PHP_ARG_WITH([zookeeper],
  [for ZooKeeper (RedisLock\ZooKeeperLock)],
  [AS_HELP_STRING([[--with-zookeeper[=DIR]]],
    [redislock: build RedisLock\ZooKeeperLock against the multi-threaded ZooKeeper C client
     (libzookeeper_mt, Debian: libzookeeper-mt-dev); DIR: its installation prefix])],
  [no],
  [no])

PHP_ARG_ENABLE([redislock-dev],
  [whether to build redislock with warnings as errors],
  [AS_HELP_STRING([--enable-redislock-dev], [redislock: build with -Wall -Wextra -Werror])],
  [no],
  [no])

if test "$PHP_REDISLOCK" != "no"; then
  found_hiredis=no

  dnl A DIR given explicitly wins over pkg-config.
  if test "$PHP_HIREDIS" != "yes" && test "$PHP_HIREDIS" != "no"; then
    if test -r "$PHP_HIREDIS/include/hiredis/hiredis.h"; then
      PHP_ADD_INCLUDE([$PHP_HIREDIS/include])
      PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$PHP_HIREDIS/$PHP_LIBDIR], [REDISLOCK_SHARED_LIBADD])
      found_hiredis=yes
    else
      AC_MSG_ERROR([hiredis.h not found under $PHP_HIREDIS/include/hiredis])
    fi
  fi

  if test "$found_hiredis" = "no"; then
    PKG_CHECK_MODULES([HIREDIS], [hiredis >= 0.14], [
      PHP_EVAL_INCLINE([$HIREDIS_CFLAGS])
      PHP_EVAL_LIBLINE([$HIREDIS_LIBS], [REDISLOCK_SHARED_LIBADD])
      found_hiredis=yes
    ], [
      for dir in /usr/local /usr; do
        if test -r "$dir/include/hiredis/hiredis.h"; then
          PHP_ADD_INCLUDE([$dir/include])
          PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$dir/$PHP_LIBDIR], [REDISLOCK_SHARED_LIBADD])
          found_hiredis=yes
          break
        fi
      done
    ])
  fi

  if test "$found_hiredis" = "no"; then
    AC_MSG_ERROR([hiredis not found: install libhiredis-dev, or pass --with-hiredis=DIR])
  fi

  dnl TLS (rediss://): OpenSSL, found with pkg-config (Debian: libssl-dev).
  PKG_CHECK_MODULES([OPENSSL], [openssl >= 1.1.1], [
    PHP_EVAL_INCLINE([$OPENSSL_CFLAGS])
    PHP_EVAL_LIBLINE([$OPENSSL_LIBS], [REDISLOCK_SHARED_LIBADD])
  ], [
    AC_MSG_ERROR([OpenSSL not found by pkg-config: install libssl-dev (and pkg-config)])
  ])

  if test "$PHP_REDISLOCK_DEV" = "yes"; then
    REDISLOCK_CFLAGS="-Wall -Wextra -Werror -Wno-unused-parameter"
  else
    REDISLOCK_CFLAGS="-Wall -Wextra -Wno-unused-parameter"
  fi

  dnl RedisLock\ZooKeeperLock: only with --with-zookeeper. The multi-threaded
  dnl client keeps sessions alive from its own thread while PHP runs (see
  dnl docs/zookeeper.md); it needs pthreads. Without it the src/zookeeper/*.c files
  dnl compile to nothing (each is inside #ifdef HAVE_REDISLOCK_ZOOKEEPER).
  if test "$PHP_ZOOKEEPER" != "no"; then
    zk_dir=""
    for dir in $PHP_ZOOKEEPER /usr/local /usr; do
      if test "$dir" != "yes" && test -r "$dir/include/zookeeper/zookeeper.h"; then
        zk_dir=$dir
        break
      fi
    done
    if test -z "$zk_dir"; then
      AC_MSG_ERROR([zookeeper/zookeeper.h not found: install libzookeeper-mt-dev, or pass --with-zookeeper=DIR])
    fi
    PHP_CHECK_LIBRARY([zookeeper_mt], [zoo_aremove_all_watches], [
      PHP_ADD_INCLUDE([$zk_dir/include])
      PHP_ADD_LIBRARY_WITH_PATH([zookeeper_mt], [$zk_dir/$PHP_LIBDIR], [REDISLOCK_SHARED_LIBADD])
      PHP_ADD_LIBRARY([pthread], [1], [REDISLOCK_SHARED_LIBADD])
    ], [
      AC_MSG_ERROR([libzookeeper_mt (3.5 or later) not found under $zk_dir: install libzookeeper-mt-dev])
    ], [-L$zk_dir/$PHP_LIBDIR -lpthread])
    dnl Clients from 3.6 on can be told not to resolve the hosts at every
    dnl poll (see src/zookeeper/zk_session.c).
    PHP_CHECK_LIBRARY([zookeeper_mt], [zoo_set_servers_resolution_delay], [
      AC_DEFINE([HAVE_ZOO_SET_SERVERS_RESOLUTION_DELAY], [1], [zoo_set_servers_resolution_delay() exists])
    ], [], [-L$zk_dir/$PHP_LIBDIR -lpthread])
    AC_DEFINE([HAVE_REDISLOCK_ZOOKEEPER], [1], [Build RedisLock\ZooKeeperLock])
  fi

  dnl The sources, a list per layer (docs/development.md, "Source layout"): each layer calls only
  dnl the layers listed before it.
  redislock_base="src/base/error.c src/base/hex.c src/base/process.c src/base/resp.c src/base/slot.c"
  redislock_config="src/config/dsn.c src/config/servers.c src/config/settings.c"
  redislock_client="src/client/cluster.c src/client/cmd.c src/client/conn.c src/client/exec.c src/client/io.c src/client/keepalive_conn.c src/client/pool.c src/client/reply.c src/client/route.c src/client/route_pin.c src/client/seeds.c src/client/sentinel.c src/client/term.c src/client/tls.c src/client/transport.c"
  redislock_engine="src/engine/acquire.c src/engine/attempt.c src/engine/call.c src/engine/hold.c src/engine/keepalive.c src/engine/keys.c src/engine/leftovers.c src/engine/lock.c src/engine/native.c src/engine/prim.c src/engine/round.c src/engine/scripts.c src/engine/seen.c src/engine/semaphore.c src/engine/semaphore_keepalive.c src/engine/semaphore_term.c src/engine/shared.c src/engine/sync.c src/engine/tally.c src/engine/wait.c src/engine/wait_fair.c src/engine/wait_wakeup.c"
  redislock_zookeeper="src/zookeeper/zk_config.c src/zookeeper/zk_lock.c src/zookeeper/zk_orphans.c src/zookeeper/zk_request.c src/zookeeper/zk_session.c"
  redislock_php="src/php/args.c src/php/class_atomic.c src/php/class_lock.c src/php/class_ratelimiter.c src/php/class_semaphore.c src/php/class_zookeeper_lock.c src/php/exceptions.c src/php/holds.c src/php/ini.c src/php/lock_methods.c src/php/object.c src/php/options.c src/php/primitive.c src/php/stats.c"

  dnl The keepalive thread (engine/keepalive.c).
  PHP_ADD_LIBRARY([pthread], [1], [REDISLOCK_SHARED_LIBADD])

  PHP_SUBST([REDISLOCK_SHARED_LIBADD])
  PHP_NEW_EXTENSION([redislock],
    [redislock.c $redislock_base $redislock_config $redislock_client $redislock_engine $redislock_zookeeper $redislock_php],
    [$ext_shared], , [$REDISLOCK_CFLAGS -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/base], [1])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/config], [1])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/client], [1])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/engine], [1])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/zookeeper], [1])
  PHP_ADD_BUILD_DIR([$ext_builddir/src/php], [1])
  dnl Files include each other by their path below src/ ("client/pool.h").
  PHP_ADD_INCLUDE([$ext_srcdir/src])
  PHP_ADD_INCLUDE([$ext_builddir])
  PHP_ADD_EXTENSION_DEP([redislock], [spl])
  PHP_ADD_MAKEFILE_FRAGMENT
fi
