/*
 * The registry of request-scoped holds (see holds.h): one list of the
 * request's entries, newest first, in the module's globals.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_redislock.h"
#include "php/exceptions.h"
#include "php/holds.h"

/* The classes that take part, in MINIT order (set once, read only after). */
#define HOLDS_CLASSES_MAX 8
static const redislock_holds_ops *classes[HOLDS_CLASSES_MAX];
static uint32_t nclasses;

void redislock_holds_add_class(const redislock_holds_ops *ops)
{
    ZEND_ASSERT(nclasses < HOLDS_CLASSES_MAX);
    classes[nclasses++] = ops;
}

void redislock_holds_register(redislock_holds_entry *h, const redislock_holds_ops *ops)
{
    h->ops = ops;
    h->prev = NULL;
    h->next = REDISLOCK_G(holds);
    if (h->next) {
        h->next->prev = h;
    }
    REDISLOCK_G(holds) = h;
}

/* Takes h out of the list (registered or not). */
static void unregister(redislock_holds_entry *h)
{
    if (!h->ops) {
        return;
    }
    if (h->prev) {
        h->prev->next = h->next;
    } else {
        REDISLOCK_G(holds) = h->next;
    }
    if (h->next) {
        h->next->prev = h->prev;
    }
    h->prev = h->next = NULL;
    h->ops = NULL;
}

void redislock_holds_end(redislock_holds_entry *h)
{
    if (h->ops) {
        /* Still inside the request: the object's end is the hold's end. */
        h->ops->end(h);
        unregister(h);
    }
}

bool redislock_holds_run_allowed(const redislock_holds_entry *h, const zend_object *obj)
{
    if (h->in_run) {
        zend_throw_error(NULL, "%s::run() is already running on this object", ZSTR_VAL(obj->ce->name));
        return false;
    }
    return true;
}

void redislock_holds_run(redislock_holds_entry *h, zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *ret)
{
    const redislock_error *err;

    h->in_run = true;
    fci->retval = ret;
    zend_call_function(fci, fcc);
    h->in_run = false;
    err = h->ops->release(h);
    if (!err) {
        return;
    }
    if (EG(exception)) {
        /* fn's exception wins; what remains is removed later. */
        REDISLOCK_G(stats).errors++;
    } else {
        redislock_exceptions_throw_release(err->msg, ret);
    }
}

bool redislock_holds_any(const redislock_holds_ops *ops, bool (*pred)(redislock_holds_entry *h, void *arg),
                         void *arg)
{
    for (redislock_holds_entry *h = REDISLOCK_G(holds); h; h = h->next) {
        if (h->ops == ops && pred(h, arg)) {
            return true;
        }
    }
    return false;
}

void redislock_holds_request_start(void)
{
    REDISLOCK_G(holds) = NULL;
}

void redislock_holds_request_end(void)
{
    redislock_holds_entry *h, *next;

    for (uint32_t i = 0; i < nclasses; i++) {
        for (h = REDISLOCK_G(holds); h; h = next) {
            next = h->next;
            if (h->ops == classes[i]) {
                classes[i]->request_end(h);
            }
        }
        if (classes[i]->request_done) {
            classes[i]->request_done();
        }
    }
    while (REDISLOCK_G(holds)) {
        unregister(REDISLOCK_G(holds));
    }
}
