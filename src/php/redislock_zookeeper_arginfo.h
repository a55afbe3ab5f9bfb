/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: be06768e0884737f56aebb4484d2ad65c0d09fa8 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock_release, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock_extend, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_ZooKeeperLock_isAcquired arginfo_class_RedisLock_ZooKeeperLock_release

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock_remaining, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock_token, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock_fence, 0, 0, IS_LONG, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_ZooKeeperLock_run, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()


ZEND_METHOD(RedisLock_ZooKeeperLock, __construct);
ZEND_METHOD(RedisLock_ZooKeeperLock, acquire);
ZEND_METHOD(RedisLock_ZooKeeperLock, release);
ZEND_METHOD(RedisLock_ZooKeeperLock, extend);
ZEND_METHOD(RedisLock_ZooKeeperLock, isAcquired);
ZEND_METHOD(RedisLock_ZooKeeperLock, remaining);
ZEND_METHOD(RedisLock_ZooKeeperLock, token);
ZEND_METHOD(RedisLock_ZooKeeperLock, fence);
ZEND_METHOD(RedisLock_ZooKeeperLock, run);


static const zend_function_entry class_RedisLock_ZooKeeperLock_methods[] = {
	ZEND_ME(RedisLock_ZooKeeperLock, __construct, arginfo_class_RedisLock_ZooKeeperLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, acquire, arginfo_class_RedisLock_ZooKeeperLock_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, release, arginfo_class_RedisLock_ZooKeeperLock_release, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, extend, arginfo_class_RedisLock_ZooKeeperLock_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, isAcquired, arginfo_class_RedisLock_ZooKeeperLock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, remaining, arginfo_class_RedisLock_ZooKeeperLock_remaining, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, token, arginfo_class_RedisLock_ZooKeeperLock_token, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, fence, arginfo_class_RedisLock_ZooKeeperLock_fence, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock_ZooKeeperLock, run, arginfo_class_RedisLock_ZooKeeperLock_run, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLock_ZooKeeperLock(zend_class_entry *class_entry_RedisLock_Lock)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RedisLock", "ZooKeeperLock", class_RedisLock_ZooKeeperLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_RedisLock_Lock);

	return class_entry;
}
