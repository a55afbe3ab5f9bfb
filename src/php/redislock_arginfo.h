/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 5635350b678f3dfca4fc60a1b349f9ea5ee2cb62 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_acquireRead arginfo_class_RedisLock_acquire

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_isShared, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_release arginfo_class_RedisLock_isShared

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_extend, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_isAcquired arginfo_class_RedisLock_isShared

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_remaining, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_token, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_fence, 0, 0, IS_LONG, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_run, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_RedisLock_restore, 0, 2, RedisLock, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, token, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_forceRelease, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()


ZEND_METHOD(RedisLock, __construct);
ZEND_METHOD(RedisLock, acquire);
ZEND_METHOD(RedisLock, acquireRead);
ZEND_METHOD(RedisLock, isShared);
ZEND_METHOD(RedisLock, release);
ZEND_METHOD(RedisLock, extend);
ZEND_METHOD(RedisLock, isAcquired);
ZEND_METHOD(RedisLock, remaining);
ZEND_METHOD(RedisLock, token);
ZEND_METHOD(RedisLock, fence);
ZEND_METHOD(RedisLock, run);
ZEND_METHOD(RedisLock, stats);
ZEND_METHOD(RedisLock, restore);
ZEND_METHOD(RedisLock, forceRelease);


static const zend_function_entry class_RedisLock_methods[] = {
	ZEND_ME(RedisLock, __construct, arginfo_class_RedisLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, acquire, arginfo_class_RedisLock_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, acquireRead, arginfo_class_RedisLock_acquireRead, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, isShared, arginfo_class_RedisLock_isShared, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, release, arginfo_class_RedisLock_release, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, extend, arginfo_class_RedisLock_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, isAcquired, arginfo_class_RedisLock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, remaining, arginfo_class_RedisLock_remaining, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, token, arginfo_class_RedisLock_token, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, fence, arginfo_class_RedisLock_fence, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, run, arginfo_class_RedisLock_run, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, stats, arginfo_class_RedisLock_stats, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, restore, arginfo_class_RedisLock_restore, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, forceRelease, arginfo_class_RedisLock_forceRelease, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLock(zend_class_entry *class_entry_RedisLock_Lock)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLock", class_RedisLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_RedisLock_Lock);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "restore", sizeof("restore") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "restore", sizeof("restore") - 1), 2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "forcerelease", sizeof("forcerelease") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}
