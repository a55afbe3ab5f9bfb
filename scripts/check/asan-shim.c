/*
 * scripts/check/asan-shim.c: preloaded before the ASan runtime into php and
 * php-fpm by scripts/test.sh --asan (built by scripts/build/setup.sh --asan).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The ASan runtime's options before ASAN_OPTIONS. A process whose command
 * line names redislock.so (php, php-fpm) unwinds the stack of each malloc()
 * fully, through PHP's frames, which have no frame pointers: the leak check
 * needs the extension's frames. That makes allocations many times slower,
 * which the tests' other PHP processes (a fault-injecting proxy) are spared,
 * with no leak check either. Called as the runtime starts, before libc and
 * the runtime can serve: raw system calls only. */
const char *__asan_default_options(void)
{
    static const char name[] = "redislock.so";
    static char cmdline[65536];
    long fd, n, len = 0, i, j;

    fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/cmdline", O_RDONLY);
    if (fd >= 0) {
        while (len < (long) sizeof(cmdline)
               && (n = syscall(SYS_read, fd, cmdline + len, sizeof(cmdline) - len)) > 0) {
            len += n;
        }
        syscall(SYS_close, fd);
    }
    for (i = 0; i + (long) sizeof(name) - 1 <= len; i++) {
        for (j = 0; name[j] != '\0' && cmdline[i + j] == name[j]; j++) {
        }
        if (name[j] == '\0') {
            return "fast_unwind_on_malloc=0";
        }
    }
    return "detect_leaks=0";
}

/* UBSAN_OPTIONS as the process started with them. */
static char ubsan_options[4096];

static void __attribute__((constructor)) save_ubsan_options(void)
{
    const char *opt = getenv("UBSAN_OPTIONS");

    snprintf(ubsan_options, sizeof(ubsan_options), "%s", opt != NULL ? opt : "");
}

/* libubsan reads its options when it first reports, from /proc/self/environ,
 * which php-fpm has overwritten with its process title by then; it reads
 * these first. */
const char *__ubsan_default_options(void)
{
    return ubsan_options;
}

/* Debian's php and php-fpm dlopen() extensions with RTLD_DEEPBIND, which the
 * ASan runtime refuses: this drops the flag. And libubsan, loaded with the
 * extension, hands its log_path to the ASan runtime's
 * __sanitizer_set_report_path rather than to its own, so would report to
 * stderr, which php-fpm's workers do not have: this gives it to its own. */
void *dlopen(const char *file, int mode)
{
    static void *(*next)(const char *, int);
    static int ubsan_done;
    void *handle, *ubsan;
    void (*set_path)(const char *);
    const char *opt;
    char path[sizeof(ubsan_options)];

    if (next == NULL) {
        next = (void *(*)(const char *, int)) dlsym(RTLD_NEXT, "dlopen");
    }
    handle = next(file, mode & ~RTLD_DEEPBIND);
    /* Only after a success: php reads dlerror() after a failure. */
    if (handle != NULL && !ubsan_done && (ubsan = next("libubsan.so.1", RTLD_LAZY | RTLD_NOLOAD)) != NULL) {
        ubsan_done = 1;
        set_path = (void (*)(const char *)) dlsym(ubsan, "__sanitizer_set_report_path");
        opt = strstr(ubsan_options, "log_path=");
        if (set_path != NULL && opt != NULL) {
            snprintf(path, sizeof(path), "%s", opt + strlen("log_path="));
            path[strcspn(path, ":")] = '\0';
            set_path(path);
        }
        dlclose(ubsan);
    }
    return handle;
}
