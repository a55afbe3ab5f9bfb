/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 81ab4f95fcb413e194c4f1ddb5e50fcfdbac0ed2 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock_RateLimiter___construct, 0, 0, 3)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, limit, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, windowMs, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_RateLimiter_consume, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, permits, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_RateLimiter_remaining, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_RateLimiter_retryAfter arginfo_class_RedisLock_RateLimiter_remaining

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_RateLimiter_reset, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(RedisLock_RateLimiter, __construct);
ZEND_METHOD(RedisLock_RateLimiter, consume);
ZEND_METHOD(RedisLock_RateLimiter, remaining);
ZEND_METHOD(RedisLock_RateLimiter, retryAfter);
ZEND_METHOD(RedisLock_RateLimiter, reset);


static const zend_function_entry class_RedisLock_RateLimiter_methods[] = {
	ZEND_ME(RedisLock_RateLimiter, __construct, arginfo_class_RedisLock_RateLimiter___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_RateLimiter, consume, arginfo_class_RedisLock_RateLimiter_consume, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_RateLimiter, remaining, arginfo_class_RedisLock_RateLimiter_remaining, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_RateLimiter, retryAfter, arginfo_class_RedisLock_RateLimiter_retryAfter, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_RateLimiter, reset, arginfo_class_RedisLock_RateLimiter_reset, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLock_RateLimiter(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "RateLimiter", class_RedisLock_RateLimiter_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 3, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}
