/*
 * The INI entries' checks (see redislock_ini.h).
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
#include "config/config.h"
#include "base/error.h"
#include "php/exceptions.h"
#include "php/ini.h"

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
        const char *option = ZSTR_VAL(broken[i].name) + sizeof("redislock.") - 1;
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

void redislock_ini_forget(void)
{
    while (nbroken > 0) {
        zend_string_release(broken[--nbroken].name);
    }
}

/* Stores an integer INI value in [min, max]. The one parse that checks it
 * also gives the value stored: decimal digits only (Zend's own handler would
 * read 030000 as octal and 08 as 0). */
static int ini_store_long(zend_ini_entry *entry, zend_string *value, zend_long min, zend_long max, void *mh_arg1,
                          void *mh_arg2, int stage)
{
    const char *s = ZSTR_VAL(value);
    size_t len = ZSTR_LEN(value), i = 0;
    zend_long v = 0;

    while (len > 0 && isspace((unsigned char) s[len - 1])) len--;
    while (i < len && isspace((unsigned char) s[i])) i++;
    if (i == len) {
        goto bad;
    }
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9' || v > (max - (s[i] - '0')) / 10) {
            goto bad;
        }
        v = v * 10 + (s[i] - '0');
    }
    if (v < min) {
        goto bad;
    }
    ini_clear(entry);
    *(zend_long *) ZEND_INI_GET_ADDR() = v;
    return SUCCESS;

bad:
    return ini_broken(entry, stage, "must be an integer between " ZEND_LONG_FMT " and " ZEND_LONG_FMT, min, max);
}

/* The integer entries of redislock_options, in the range the table gives. */
ZEND_INI_MH(OnUpdateRedislockLong)
{
    const redislock_option *opt = redislock_option_find(ZSTR_VAL(entry->name) + sizeof("redislock.") - 1,
                                                         ZSTR_LEN(entry->name) - (sizeof("redislock.") - 1));

    ZEND_ASSERT(opt && opt->type == REDISLOCK_OPT_LONG);
    return ini_store_long(entry, new_value, opt->min, opt->max, mh_arg1, mh_arg2, stage);
}

/* Reads a boolean INI value: 1, on, yes, true; 0, off, no, false, or
 * nothing (php.ini turns Off into an empty value), in any case. */
ZEND_INI_MH(OnUpdateRedislockBool)
{
    static const char *const yes[] = { "1", "on", "yes", "true" }, *const no[] = { "", "0", "off", "no", "false" };
    const char *s = ZSTR_VAL(new_value);
    size_t len = ZSTR_LEN(new_value);

    while (len > 0 && isspace((unsigned char) s[len - 1])) len--;
    while (len > 0 && isspace((unsigned char) *s)) s++, len--;
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]) + sizeof(no) / sizeof(no[0]); i++) {
        bool v = i < sizeof(yes) / sizeof(yes[0]);
        const char *word = v ? yes[i] : no[i - sizeof(yes) / sizeof(yes[0])];
        if (strlen(word) == len && zend_binary_strncasecmp(s, len, word, len, len) == 0) {
            ini_clear(entry);
            *(bool *) ZEND_INI_GET_ADDR() = v;
            return SUCCESS;
        }
    }
    return ini_broken(entry, stage, "must be on or off (1/0, yes/no, true/false)");
}

/* Parses the DSN list once, here, so locks never re-read the string. */
ZEND_INI_MH(OnUpdateRedislockServers)
{
    redislock_servers *list;
    char err[256];

    if (redislock_servers_parse(ZSTR_VAL(new_value), ZSTR_LEN(new_value), &list, err, sizeof(err)) != REDISLOCK_OK) {
        return ini_broken(entry, stage, "is not a valid DSN list: %s", err);
    }
    ini_clear(entry);
    redislock_servers_release(REDISLOCK_G(servers));
    REDISLOCK_G(servers) = list;
    return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* Shows redislock.servers in phpinfo() with every password replaced by ***,
 * written from the parsed list (never by editing the text, which could miss
 * a password). */
ZEND_INI_DISP(redislock_servers_displayer)
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

