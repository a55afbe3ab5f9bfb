/*
 * The thread harness: runs one PHP script on several threads of one
 * process at once, through the embed SAPI of a threaded (ZTS) PHP, as
 * threaded servers (FrankenPHP, Apache's worker MPMs) run requests.
 *
 *   harness THREADS REQUESTS WORK.php CHECK.php
 *
 * Each thread takes its own TSRM globals (ts_resource(0)) and runs
 * WORK.php REQUESTS times, each a whole request (php_request_startup(),
 * php_execute_script(), php_request_shutdown()), all threads started
 * together. Once they are all done the main thread runs CHECK.php in the
 * request php_embed_init() opened. The threads share the process's pid:
 * the scripts name their keys after it (getmypid()).
 *
 * Exit status: 0 when every request and the check exited 0, else 1. The
 * extension and the settings come from the php.ini named by
 * RL_HARNESS_INI.
 */
#include <sapi/embed/php_embed.h>
#include <main/php_main.h>
#include <main/SAPI.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __SANITIZE_THREAD__
# include <dlfcn.h>

/* PHP loads extensions with RTLD_DEEPBIND, which the sanitizers' runtime
 * refuses; in the ThreadSanitizer build this dlopen() (the executable's
 * comes first) loads them without it. Nothing else changes: the extension
 * defines no symbol of PHP's or of a library's. */
void *dlopen(const char *file, int mode)
{
    static void *(*next)(const char *, int);

    if (!next) {
        next = (void *(*)(const char *, int)) dlsym(RTLD_NEXT, "dlopen");
    }
    return next(file, mode & ~RTLD_DEEPBIND);
}
#endif

static const char *work_script;
static int requests;
static pthread_barrier_t start_line;
static int failed; /* requests that did not exit 0 (atomic) */

/* Runs path as one request of this thread; its exit status. */
static int run_request(const char *path)
{
    zend_file_handle fh;
    int status;

    SG(options) |= SAPI_OPTION_NO_CHDIR;
    if (php_request_startup() == FAILURE) {
        return 1;
    }
    SG(headers_sent) = 1;
    SG(request_info).no_headers = 1;
    zend_stream_init_filename(&fh, path);
    zend_first_try {
        php_execute_script(&fh);
    } zend_end_try();
    status = EG(exit_status);
    zend_destroy_file_handle(&fh);
    php_request_shutdown(NULL);
    return status;
}

static void *worker(void *arg)
{
    (void) arg;
    (void) ts_resource(0);
    pthread_barrier_wait(&start_line);
    for (int i = 0; i < requests; i++) {
        int status = run_request(work_script);
        if (status != 0) {
            fprintf(stderr, "harness: a request exited %d\n", status);
            __atomic_add_fetch(&failed, 1, __ATOMIC_RELAXED);
        }
    }
    ts_free_thread();
    return NULL;
}

int main(int argc, char **argv)
{
    static char *embed_argv[] = { "harness", NULL };
    int threads, status;
    pthread_t *tids;
    zend_file_handle fh;

    if (argc != 5 || (threads = atoi(argv[1])) < 1 || (requests = atoi(argv[2])) < 1) {
        fprintf(stderr, "usage: harness THREADS REQUESTS WORK.php CHECK.php\n");
        return 2;
    }
    work_script = argv[3];
    php_embed_module.php_ini_path_override = getenv("RL_HARNESS_INI");
    if (php_embed_init(1, embed_argv) == FAILURE) {
        fprintf(stderr, "harness: the embed SAPI did not start\n");
        return 1;
    }
    tids = calloc((size_t) threads, sizeof(*tids));
    pthread_barrier_init(&start_line, NULL, (unsigned) threads);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&tids[i], NULL, worker, NULL) != 0) {
            fprintf(stderr, "harness: cannot start thread %d\n", i);
            return 1; /* the barrier would never open */
        }
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(tids[i], NULL);
    }
    pthread_barrier_destroy(&start_line);
    free(tids);

    /* The check, in the main thread's request. */
    zend_stream_init_filename(&fh, argv[4]);
    zend_first_try {
        php_execute_script(&fh);
    } zend_end_try();
    status = EG(exit_status);
    zend_destroy_file_handle(&fh);
    php_embed_shutdown();
    if (status != 0) {
        fprintf(stderr, "harness: the check exited %d\n", status);
    }
    return failed || status ? 1 : 0;
}
