/*
 * The INI entries, made from the settings' lists (config/settings.h for
 * redislock.<name>, zookeeper/zk_config.h for redislock.zookeeper_<name>),
 * bound to the module globals and checked when they change.
 *
 * A value of a redislock.<name> entry that cannot be parsed never falls
 * back to the default: at run time (ini_set()) it is refused as PHP refuses
 * any bad value; set by php.ini, -d or an FPM pool it is recorded as broken,
 * logged once, and every lock that would use it throws a RedisLockException
 * (code CONFIG) naming the entry, until it is fixed. A bad value of a
 * redislock.zookeeper_<name> entry is refused with a warning.
 */
#ifndef REDISLOCK_INI_H
#define REDISLOCK_INI_H

#include "php.h"
#include "php_ini.h"
#include "config/settings.h"

ZEND_INI_MH(OnUpdateRedislockLong);    /* LONG: decimal digits in the setting's range */
ZEND_INI_MH(OnUpdateRedislockBool);    /* BOOL: on/off/yes/no/true/false/1/0 (and empty: off), nothing else */
ZEND_INI_MH(OnUpdateRedislockServers); /* DSN: a DSN list, parsed once, here */
ZEND_INI_DISP(redislock_ini_servers_displayer);

/* The INI entry of a setting of the list (X of REDISLOCK_SETTINGS), bound to
 * REDISLOCK_G(defaults).<name>: the module's INI block is
 *     PHP_INI_BEGIN() REDISLOCK_SETTINGS(REDISLOCK_INI_ENTRY) PHP_INI_END() */
#define REDISLOCK_INI_ENTRY(n, t, lo, hi, def) REDISLOCK_INI_##t(n, def)
#define REDISLOCK_INI_LONG(n, def) \
    STD_PHP_INI_ENTRY("redislock." #n, def, PHP_INI_ALL, OnUpdateRedislockLong, defaults.n, zend_redislock_globals, \
                      redislock_globals)
#define REDISLOCK_INI_BOOL(n, def) \
    STD_PHP_INI_BOOLEAN("redislock." #n, def, PHP_INI_ALL, OnUpdateRedislockBool, defaults.n, zend_redislock_globals, \
                        redislock_globals)
#define REDISLOCK_INI_PATH(n, def) \
    STD_PHP_INI_ENTRY("redislock." #n, def, PHP_INI_ALL, OnUpdateStr, defaults.n, zend_redislock_globals, \
                      redislock_globals)
#define REDISLOCK_INI_STRING(n, def) REDISLOCK_INI_PATH(n, def)
#define REDISLOCK_INI_DSN(n, def) \
    STD_PHP_INI_ENTRY_EX("redislock." #n, def, PHP_INI_ALL, OnUpdateRedislockServers, defaults.n, \
                         zend_redislock_globals, redislock_globals, redislock_ini_servers_displayer)

/* Throws RedisLockException (code CONFIG) and returns REDISLOCK_ERR when an
 * INI entry a lock would use is broken: one whose option (the entry's
 * name without "redislock.") is not in options. */
int redislock_ini_check(HashTable *options);

/* The text the entry redislock.<name> holds (the entry's own string), or
 * NULL when there is no such entry. */
zend_string *redislock_ini_text(const char *name);

/* Warns (E_WARNING, at module startup: once per process) of each name
 * under "redislock." that php.ini, its scan directory or -d gave and that
 * is no INI entry of this build: a typo, with the known name nearest to it
 * when one is near, or a ZooKeeperLock entry in a build without it. */
void redislock_ini_report_unknown(void);

/* Forgets the broken entries and the parsed server list (module shutdown,
 * after UNREGISTER_INI_ENTRIES()). */
void redislock_ini_forget(void);

#ifdef HAVE_REDISLOCK_ZOOKEEPER
#include "zookeeper/zk_config.h"

/* Registers the redislock.zookeeper_<name> entries (MINIT). */
void redislock_ini_zk_register(int module_number);

/* The settings of a ZooKeeperLock when its $options give none: the INI
 * values, REDISLOCK_ZK_DEFAULT_ROOT as NULL. */
void redislock_ini_zk_defaults(redislock_zk_config *c);
#endif

#endif /* REDISLOCK_INI_H */
