/*
 * The configuration layer at once, for a file that uses all of it: the
 * settings' list and their checks (config/settings.h), the DSN lists
 * (config/servers.h) and the TLS settings (config/tls_settings.h).
 */
#ifndef REDISLOCK_CONFIG_H
#define REDISLOCK_CONFIG_H

#include "base/status.h"
#include "config/tls_settings.h"
#include "config/servers.h"
#include "config/settings.h"

#endif /* REDISLOCK_CONFIG_H */
