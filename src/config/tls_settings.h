/*
 * The TLS settings of a lock (INI redislock.tls_* or options): what a
 * rediss:// server of its list uses unless its DSN says otherwise.
 */
#ifndef REDISLOCK_TLS_SETTINGS_H
#define REDISLOCK_TLS_SETTINGS_H

#include <stdbool.h>

typedef struct redislock_tls_settings {
    const char *ca, *cert, *key; /* NULL or "" when not set */
    bool verify;
} redislock_tls_settings;

#endif /* REDISLOCK_TLS_SETTINGS_H */
