/*
 * The INI entries' checks. A value that cannot be parsed never falls back
 * to the default: at run time (ini_set()) it is refused as PHP refuses any
 * bad value; set by php.ini, -d or an FPM pool it is recorded as broken,
 * logged once, and every lock that would use it throws a RedisLockException
 * (code CONFIG) naming the entry, until it is fixed.
 */
#ifndef REDISLOCK_INI_H
#define REDISLOCK_INI_H

#include "php.h"
#include "php_ini.h"

ZEND_INI_MH(OnUpdateRedislockLong);    /* the integer entries of redislock_options */
ZEND_INI_MH(OnUpdateRedislockBool);    /* on/off/yes/no/true/false/1/0 (and empty: off), nothing else */
ZEND_INI_MH(OnUpdateRedislockServers); /* a DSN list, parsed once, here */
ZEND_INI_DISP(redislock_servers_displayer);

/* Throws RedisLockException (code CONFIG) and returns REDISLOCK_ERR when an
 * INI entry a lock would use is broken: one whose option (the entry's
 * name without "redislock.") is not in options. */
int redislock_ini_check(HashTable *options);

/* Forgets the broken entries (module shutdown). */
void redislock_ini_forget(void);

#endif /* REDISLOCK_INI_H */
