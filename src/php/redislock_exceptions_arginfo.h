/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 5d114845ea2edfeb05621203094c72de18921bf9 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Lock_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Lock_release, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Lock_extend, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_Lock_isAcquired arginfo_class_RedisLock_Lock_release

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Lock_remaining, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Lock_token, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Lock_fence, 0, 0, IS_LONG, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_Lock_run, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ReleaseException_result, 0, 0, IS_MIXED, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(RedisLock_ReleaseException, result);


static const zend_function_entry class_RedisLockException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLock_Lock_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, acquire, arginfo_class_RedisLock_Lock_acquire, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, release, arginfo_class_RedisLock_Lock_release, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, extend, arginfo_class_RedisLock_Lock_extend, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, isAcquired, arginfo_class_RedisLock_Lock_isAcquired, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, remaining, arginfo_class_RedisLock_Lock_remaining, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, token, arginfo_class_RedisLock_Lock_token, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, fence, arginfo_class_RedisLock_Lock_fence, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RedisLock_Lock, run, arginfo_class_RedisLock_Lock_run, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_RedisLock_ConflictException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLock_ConnectionException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLock_ReleaseException_methods[] = {
	ZEND_ME(RedisLock_ReleaseException, result, arginfo_class_RedisLock_ReleaseException_result, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLockException(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockException", class_RedisLockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	zval const_CONFIG_value;
	ZVAL_LONG(&const_CONFIG_value, REDISLOCK_E_CONFIG);
	zend_string *const_CONFIG_name = zend_string_init_interned("CONFIG", sizeof("CONFIG") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_CONFIG_name, &const_CONFIG_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_CONFIG_name);

	zval const_CONNECTION_value;
	ZVAL_LONG(&const_CONNECTION_value, REDISLOCK_E_CONNECTION);
	zend_string *const_CONNECTION_name = zend_string_init_interned("CONNECTION", sizeof("CONNECTION") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_CONNECTION_name, &const_CONNECTION_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_CONNECTION_name);

	zval const_SERVER_value;
	ZVAL_LONG(&const_SERVER_value, REDISLOCK_E_SERVER);
	zend_string *const_SERVER_name = zend_string_init_interned("SERVER", sizeof("SERVER") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_SERVER_name, &const_SERVER_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_SERVER_name);

	zval const_CONFLICT_value;
	ZVAL_LONG(&const_CONFLICT_value, REDISLOCK_E_CONFLICT);
	zend_string *const_CONFLICT_name = zend_string_init_interned("CONFLICT", sizeof("CONFLICT") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_CONFLICT_name, &const_CONFLICT_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_CONFLICT_name);

	zval const_RELEASE_value;
	ZVAL_LONG(&const_RELEASE_value, REDISLOCK_E_RELEASE);
	zend_string *const_RELEASE_name = zend_string_init_interned("RELEASE", sizeof("RELEASE") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_RELEASE_name, &const_RELEASE_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_RELEASE_name);

	return class_entry;
}

static zend_class_entry *register_class_RedisLock_Lock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "Lock", class_RedisLock_Lock_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_RedisLock_ConflictException(zend_class_entry *class_entry_RedisLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "ConflictException", class_RedisLock_ConflictException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLock_ConnectionException(zend_class_entry *class_entry_RedisLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "ConnectionException", class_RedisLock_ConnectionException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLock_ReleaseException(zend_class_entry *class_entry_RedisLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "ReleaseException", class_RedisLock_ReleaseException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockException);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES;

	zval property_result_default_value;
	ZVAL_NULL(&property_result_default_value);
	zend_string *property_result_name = zend_string_init("result", sizeof("result") - 1, 1);
	zend_declare_typed_property(class_entry, property_result_name, &property_result_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ANY));
	zend_string_release(property_result_name);

	return class_entry;
}
