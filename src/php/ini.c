/*
 * The INI entries' checks (see php/ini.h): each value is read by the
 * checks of config/settings.h; this file records a broken entry, or refuses
 * the value, binds the ZooKeeperLock entries, and reports the names under
 * "redislock." that are no entry at all.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "php_main.h"
#include "zend_smart_str.h"

#include "php_redislock.h"
#include "config/settings.h"
#include "base/error.h"
#include "php/exceptions.h"
#include "php/ini.h"
#include "zookeeper/zk_config.h"

#define PREFIX_LEN (sizeof("redislock.") - 1)

/* The broken entries: name and what is wrong. */
#define broken REDISLOCK_G(ini_broken)
#define nbroken REDISLOCK_G(nini_broken)
typedef redislock_ini_broken ini_broken_entry;

static ini_broken_entry *ini_find(const zend_string *name)
{
    for (uint32_t i = 0; i < nbroken; i++) {
        if (zend_string_equals(broken[i].name, name)) {
            return &broken[i];
        }
    }
    return NULL;
}

/* The entry holds a good value now. */
static void ini_clear(const zend_ini_entry *entry)
{
    ini_broken_entry *b = ini_find(entry->name);

    if (b) {
        zend_string_release(b->name);
        *b = broken[--nbroken];
    }
}

/* The entry was given a value that cannot be parsed (what is wrong: fmt).
 * At run time the value is refused (ini_set() returns false, with a
 * warning). Otherwise it is taken, so that nothing falls back to the
 * default: the entry is recorded as broken, and logged the first time. */
static int ini_broken(zend_ini_entry *entry, int stage, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);

static int ini_broken(zend_ini_entry *entry, int stage, const char *fmt, ...)
{
    char what[256];
    ini_broken_entry *b;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (stage == ZEND_INI_STAGE_RUNTIME) {
        php_error_docref(NULL, E_WARNING, "%s %s", ZSTR_VAL(entry->name), what);
        return FAILURE;
    }
    b = ini_find(entry->name);
    if (b && strcmp(b->what, what) == 0) {
        return SUCCESS; /* known, and logged */
    }
    if (!b) {
        if (nbroken == REDISLOCK_INI_BROKEN_MAX) {
            return FAILURE;
        }
        b = &broken[nbroken++];
        b->name = zend_string_init(ZSTR_VAL(entry->name), ZSTR_LEN(entry->name), 1);
    }
    snprintf(b->what, sizeof(b->what), "%s", what);
    if (stage == ZEND_INI_STAGE_DEACTIVATE || stage == ZEND_INI_STAGE_SHUTDOWN) {
        return SUCCESS; /* the startup value coming back: logged when it was set */
    }

    char line[400];
    snprintf(line, sizeof(line), "redislock: INI entry %s %s; every lock that uses it throws until it is fixed",
             ZSTR_VAL(entry->name), what);
    php_log_err(line);
    return SUCCESS;
}

/* Orders broken entries by name. */
static int broken_cmp(const void *a, const void *b)
{
    return zend_binary_strcmp(ZSTR_VAL((*(ini_broken_entry *const *) a)->name),
                              ZSTR_LEN((*(ini_broken_entry *const *) a)->name),
                              ZSTR_VAL((*(ini_broken_entry *const *) b)->name),
                              ZSTR_LEN((*(ini_broken_entry *const *) b)->name));
}

int redislock_ini_check(HashTable *options)
{
    ini_broken_entry *used[REDISLOCK_INI_BROKEN_MAX];
    uint32_t n = 0;
    smart_str msg = { 0 };

    for (uint32_t i = 0; i < nbroken; i++) {
        const char *option = ZSTR_VAL(broken[i].name) + PREFIX_LEN;
        if (!options || !zend_hash_str_exists(options, option, strlen(option))) {
            used[n++] = &broken[i]; /* unless this lock gives its own value */
        }
    }
    if (n == 0) {
        return REDISLOCK_OK;
    }
    qsort(used, n, sizeof(used[0]), broken_cmp);
    for (uint32_t i = 0; i < n; i++) {
        smart_str_appends(&msg, i ? "; INI entry " : "INI entry ");
        smart_str_append(&msg, used[i]->name);
        smart_str_appendc(&msg, ' ');
        smart_str_appends(&msg, used[i]->what);
    }
    smart_str_0(&msg);
    redislock_exceptions_throwf(REDISLOCK_E_CONFIG, "%s", ZSTR_VAL(msg.s));
    smart_str_free(&msg);
    return REDISLOCK_ERR;
}

zend_string *redislock_ini_text(const char *name)
{
    char key[64];
    int len = snprintf(key, sizeof(key), "redislock.%s", name);
    zend_ini_entry *entry = zend_hash_str_find_ptr(EG(ini_directives), key, (size_t) len);

    return entry ? entry->value : NULL;
}

void redislock_ini_forget(void)
{
    while (nbroken > 0) {
        zend_string_release(broken[--nbroken].name);
    }
    redislock_servers_release(REDISLOCK_G(defaults).servers);
    REDISLOCK_G(defaults).servers = NULL;
}

/* The names of the redislock.<name> entries, and of the
 * redislock.zookeeper_<name> ones (registered in a build --with-zookeeper
 * only). */
#define KNOWN_NAME(n, ...) "redislock." #n,
#define KNOWN_ZK(n, t, lo, hi, src, def) KNOWN_ZK_##src(n)
#define KNOWN_ZK_INI(n) "redislock.zookeeper_" #n,
#define KNOWN_ZK_SHARED(n)
#define KNOWN_ZK_FIXED(n)
static const char *const known_names[] = { REDISLOCK_SETTINGS(KNOWN_NAME) REDISLOCK_ZK_CONFIG(KNOWN_ZK) };
#define NKNOWN (sizeof(known_names) / sizeof(known_names[0]))

/* The ZooKeeperLock settings that take RedisLock's entry: what
 * redislock.zookeeper_<name> would have meant is redislock.<name>. */
#define SHARED_ZK(n, t, lo, hi, src, def) SHARED_ZK_##src(n)
#define SHARED_ZK_SHARED(n) "redislock.zookeeper_" #n, "redislock." #n,
#define SHARED_ZK_INI(n)
#define SHARED_ZK_FIXED(n)
static const char *const shared_names[] = { REDISLOCK_ZK_CONFIG(SHARED_ZK) };

#define NAME_MAX_LEN 64 /* longer unknown names get no suggestion */

/* The edit distance between a and b (a swap of two neighbours counts one),
 * each at most NAME_MAX_LEN bytes. */
static size_t ini_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t rows[3][NAME_MAX_LEN + 1], *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;

    for (size_t j = 0; j <= lb; j++) {
        prev[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            cur[j] = MIN(MIN(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + (a[i - 1] != b[j - 1]));
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                cur[j] = MIN(cur[j], prev2[j - 2] + 1);
            }
        }
        t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

/* The known name nearest to name (without "redislock."), when near enough
 * to be what was meant: at most a third of the longer one's letters differ
 * (or RedisLock's entry that ZooKeeperLock takes, for its name under
 * "zookeeper_"). NULL when none is. */
static const char *ini_nearest(const char *name, size_t len)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;

    for (size_t k = 0; k < sizeof(shared_names) / sizeof(shared_names[0]); k += 2) {
        if (strlen(shared_names[k]) == PREFIX_LEN + len && memcmp(shared_names[k] + PREFIX_LEN, name, len) == 0) {
            return shared_names[k + 1];
        }
    }
    if (len > NAME_MAX_LEN) {
        return NULL;
    }
    for (size_t k = 0; k < NKNOWN; k++) {
        const char *known = known_names[k] + PREFIX_LEN;
        size_t klen = strlen(known), d = ini_distance(name, len, known, klen);
        if (d < best_d && d * 3 <= MAX(len, klen)) {
            best = known_names[k];
            best_d = d;
        }
    }
    return best;
}

/* Whether name is one of the known names (registered or not). */
static bool ini_known(const zend_string *name)
{
    for (size_t k = 0; k < NKNOWN; k++) {
        if (zend_string_equals_cstr(name, known_names[k], strlen(known_names[k]))) {
            return true;
        }
    }
    return false;
}

void redislock_ini_report_unknown(void)
{
    HashTable *config = php_ini_get_configuration_hash();
    zend_string *name;

    if (!config) {
        return;
    }
    ZEND_HASH_FOREACH_STR_KEY(config, name) {
        if (!name || ZSTR_LEN(name) <= PREFIX_LEN || strncmp(ZSTR_VAL(name), "redislock.", PREFIX_LEN) != 0
            || zend_hash_exists(EG(ini_directives), name)) {
            continue;
        }
        if (ini_known(name)) {
            /* Known, yet not registered: a ZooKeeperLock entry. */
            zend_error(E_WARNING, "redislock: INI setting \"%s\" is ignored: it needs a build --with-zookeeper",
                       ZSTR_VAL(name));
            continue;
        }
        const char *near = ini_nearest(ZSTR_VAL(name) + PREFIX_LEN, ZSTR_LEN(name) - PREFIX_LEN);
        if (near) {
            zend_error(E_WARNING, "redislock: unknown INI setting \"%s\" (did you mean \"%s\"?)", ZSTR_VAL(name),
                       near);
        } else {
            zend_error(E_WARNING, "redislock: unknown INI setting \"%s\"", ZSTR_VAL(name));
        }
    } ZEND_HASH_FOREACH_END();
}

/* The setting of the list that a redislock.<name> entry is. */
static const redislock_setting *ini_setting(const zend_ini_entry *entry)
{
    const redislock_setting *opt = redislock_settings_find(redislock_settings_table, ZSTR_VAL(entry->name) + PREFIX_LEN,
                                                           ZSTR_LEN(entry->name) - PREFIX_LEN);

    ZEND_ASSERT(opt);
    return opt;
}

/* The LONG entries, in the range the list gives. The one parse that checks
 * a value also gives the value stored: decimal digits only (Zend's own
 * handler would read 030000 as octal and 08 as 0). */
ZEND_INI_MH(OnUpdateRedislockLong)
{
    const redislock_setting *opt = ini_setting(entry);
    char err[128];
    zend_long v;

    ZEND_ASSERT(opt->type == REDISLOCK_SETTING_LONG);
    if (redislock_settings_parse_long(ZSTR_VAL(new_value), ZSTR_LEN(new_value), opt->min, opt->max, false, &v, err,
                                      sizeof(err)) != REDISLOCK_OK) {
        return ini_broken(entry, stage, "%s", err);
    }
    ini_clear(entry);
    *(zend_long *) ZEND_INI_GET_ADDR() = v;
    return SUCCESS;
}

/* The BOOL entries: 1, on, yes, true; 0, off, no, false, or nothing
 * (php.ini turns Off into an empty value), in any case. */
ZEND_INI_MH(OnUpdateRedislockBool)
{
    char err[128];
    bool v;

    if (redislock_settings_parse_bool(ZSTR_VAL(new_value), ZSTR_LEN(new_value), &v, err, sizeof(err)) != REDISLOCK_OK) {
        return ini_broken(entry, stage, "%s", err);
    }
    ini_clear(entry);
    *(bool *) ZEND_INI_GET_ADDR() = v;
    return SUCCESS;
}

/* The DSN entry: the list is parsed once, here, so locks never re-read the
 * string; the entry keeps a reference to it. */
ZEND_INI_MH(OnUpdateRedislockServers)
{
    redislock_servers **at = (redislock_servers **) ZEND_INI_GET_ADDR();
    redislock_servers *list;
    char err[256];

    if (redislock_servers_parse(ZSTR_VAL(new_value), ZSTR_LEN(new_value), &list, err, sizeof(err)) != REDISLOCK_OK) {
        return ini_broken(entry, stage, "is not a valid DSN list: %s", err);
    }
    ini_clear(entry);
    redislock_servers_release(*at);
    *at = list;
    return SUCCESS;
}

/* Shows redislock.servers in phpinfo() with every password replaced by ***,
 * written from the parsed list (never by editing the text, which could miss
 * a password). */
ZEND_INI_DISP(redislock_ini_servers_displayer)
{
    zend_string *value = type == ZEND_INI_DISPLAY_ORIG && ini_entry->modified ? ini_entry->orig_value
                                                                              : ini_entry->value;
    redislock_servers *list;
    smart_str out = { 0 };
    char err[256];

    if (!value || ZSTR_LEN(value) == 0) {
        PUTS("no value");
        return;
    }
    if (redislock_servers_parse(ZSTR_VAL(value), ZSTR_LEN(value), &list, err, sizeof(err)) != REDISLOCK_OK) {
        PUTS("(not a valid DSN list)");
        return;
    }
    redislock_servers_format(list, true, &out);
    redislock_servers_release(list);
    smart_str_0(&out);
    if (out.s) {
        if (sapi_module.phpinfo_as_text) {
            PHPWRITE(ZSTR_VAL(out.s), ZSTR_LEN(out.s));
        } else {
            php_html_puts(ZSTR_VAL(out.s), ZSTR_LEN(out.s));
        }
    }
    smart_str_free(&out);
}


#ifdef HAVE_REDISLOCK_ZOOKEEPER

/* The redislock.zookeeper_<name> entries (the INI ones of
 * REDISLOCK_ZK_CONFIG), bound to a globals struct of their own: they are
 * registered only in a build --with-zookeeper. */
ZEND_BEGIN_MODULE_GLOBALS(redislock_zk)
    redislock_zk_config defaults;
ZEND_END_MODULE_GLOBALS(redislock_zk)

static ZEND_DECLARE_MODULE_GLOBALS(redislock_zk)
#define ZKG(v) ZEND_MODULE_GLOBALS_ACCESSOR(redislock_zk, v)

#define ZK_PREFIX_LEN (sizeof("redislock.zookeeper_") - 1)

/* A ZooKeeperLock entry: a LONG of digits only, or a string its check
 * accepts; anything else is refused with a warning. */
static ZEND_INI_MH(OnUpdateRedislockZk)
{
    const redislock_setting *opt = redislock_settings_find(redislock_zk_config_table,
                                                           ZSTR_VAL(entry->name) + ZK_PREFIX_LEN,
                                                           ZSTR_LEN(entry->name) - ZK_PREFIX_LEN);
    char err[160];
    zend_long v = 0;
    int rc;

    ZEND_ASSERT(opt && (opt->type == REDISLOCK_SETTING_LONG || opt->type == REDISLOCK_SETTING_STRING));
    rc = opt->type == REDISLOCK_SETTING_LONG
             ? redislock_settings_parse_long(ZSTR_VAL(new_value), ZSTR_LEN(new_value), opt->min, opt->max, true, &v,
                                             err, sizeof(err))
             : redislock_settings_check_string(opt, ZSTR_VAL(new_value), ZSTR_LEN(new_value), err, sizeof(err));
    if (rc != REDISLOCK_OK) {
        php_error_docref(NULL, E_WARNING, "%s %s", ZSTR_VAL(entry->name), err);
        return FAILURE;
    }
    if (opt->type == REDISLOCK_SETTING_LONG) {
        *(zend_long *) ZEND_INI_GET_ADDR() = v;
    } else {
        *(zend_string **) ZEND_INI_GET_ADDR() = new_value;
    }
    return SUCCESS;
}

/* The entry of a setting whose source is INI; none for the others. */
#define ZK_INI_ENTRY(n, t, lo, hi, src, def) ZK_INI_##src(n, def)
#define ZK_INI_INI(n, def) \
    STD_PHP_INI_ENTRY("redislock.zookeeper_" #n, def, PHP_INI_ALL, OnUpdateRedislockZk, defaults.n, \
                      zend_redislock_zk_globals, redislock_zk_globals)
#define ZK_INI_SHARED(n, def)
#define ZK_INI_FIXED(n, def)

PHP_INI_BEGIN()
    REDISLOCK_ZK_CONFIG(ZK_INI_ENTRY)
PHP_INI_END()

void redislock_ini_zk_register(int module_number)
{
#ifdef ZTS
    ts_allocate_id(&redislock_zk_globals_id, sizeof(zend_redislock_zk_globals), NULL, NULL);
#endif
    zend_register_ini_entries(ini_entries, module_number);
}

/* Where a setting's default comes from, by its source. */
#define ZK_DEFAULT(n, t, lo, hi, src, def) ZK_DEFAULT_##src(n)
#define ZK_DEFAULT_INI(n) c->n = ZKG(defaults).n;
#define ZK_DEFAULT_SHARED(n) c->n = REDISLOCK_G(defaults).n;
#define ZK_DEFAULT_FIXED(n)

void redislock_ini_zk_defaults(redislock_zk_config *c)
{
    memset(c, 0, sizeof(*c));
    REDISLOCK_ZK_CONFIG(ZK_DEFAULT)
}

#endif /* HAVE_REDISLOCK_ZOOKEEPER */
