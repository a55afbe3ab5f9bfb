/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: c3bcb4437fa6819a36e027d2e542241b67f9e000 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock_Atomic___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Atomic_get, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Atomic_compareAndSet, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, expected, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, new, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Atomic_update, 0, 1, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, retries, IS_LONG, 0, "16")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_RedisLock_Atomic_increment, 0, 0, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, by, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, min, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, max, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()


ZEND_METHOD(RedisLock_Atomic, __construct);
ZEND_METHOD(RedisLock_Atomic, get);
ZEND_METHOD(RedisLock_Atomic, compareAndSet);
ZEND_METHOD(RedisLock_Atomic, update);
ZEND_METHOD(RedisLock_Atomic, increment);


static const zend_function_entry class_RedisLock_Atomic_methods[] = {
	ZEND_ME(RedisLock_Atomic, __construct, arginfo_class_RedisLock_Atomic___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Atomic, get, arginfo_class_RedisLock_Atomic_get, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Atomic, compareAndSet, arginfo_class_RedisLock_Atomic_compareAndSet, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Atomic, update, arginfo_class_RedisLock_Atomic_update, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_Atomic, increment, arginfo_class_RedisLock_Atomic_increment, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLock_Atomic(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "Atomic", class_RedisLock_Atomic_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}
