/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 0046f67436259910044ca66834b2a451c7448e2a */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock_Semaphore___construct, 0, 0, 2)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, limit, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Semaphore_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Semaphore_release, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Semaphore_extend, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_Semaphore_isAcquired arginfo_class_RedisLock_Semaphore_release

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Semaphore_remaining, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Semaphore_token, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_Semaphore_available arginfo_class_RedisLock_Semaphore_remaining

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Semaphore_run, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Semaphore_forceRelease, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()


ZEND_METHOD(RedisLock_Semaphore, __construct);
ZEND_METHOD(RedisLock_Semaphore, acquire);
ZEND_METHOD(RedisLock_Semaphore, release);
ZEND_METHOD(RedisLock_Semaphore, extend);
ZEND_METHOD(RedisLock_Semaphore, isAcquired);
ZEND_METHOD(RedisLock_Semaphore, remaining);
ZEND_METHOD(RedisLock_Semaphore, token);
ZEND_METHOD(RedisLock_Semaphore, available);
ZEND_METHOD(RedisLock_Semaphore, run);
ZEND_METHOD(RedisLock_Semaphore, forceRelease);


static const zend_function_entry class_RedisLock_Semaphore_methods[] = {
	ZEND_ME(RedisLock_Semaphore, __construct, arginfo_class_RedisLock_Semaphore___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, acquire, arginfo_class_RedisLock_Semaphore_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, release, arginfo_class_RedisLock_Semaphore_release, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, extend, arginfo_class_RedisLock_Semaphore_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, isAcquired, arginfo_class_RedisLock_Semaphore_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, remaining, arginfo_class_RedisLock_Semaphore_remaining, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, token, arginfo_class_RedisLock_Semaphore_token, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, available, arginfo_class_RedisLock_Semaphore_available, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, run, arginfo_class_RedisLock_Semaphore_run, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Semaphore, forceRelease, arginfo_class_RedisLock_Semaphore_forceRelease, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLock_Semaphore(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "Semaphore", class_RedisLock_Semaphore_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "forcerelease", sizeof("forcerelease") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}
