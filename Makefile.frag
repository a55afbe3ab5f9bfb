# The Lua scripts are embedded from lua/*.lua, their only copy.
REDISLOCK_LUA = $(srcdir)/lua/acquire.lua $(srcdir)/lua/release.lua $(srcdir)/lua/extend.lua \
	$(srcdir)/lua/acquire_fair.lua $(srcdir)/lua/release_fair.lua \
	$(srcdir)/lua/fence_raise.lua

$(builddir)/redislock_lua.h: $(REDISLOCK_LUA) $(srcdir)/scripts/lua2c.sh
	$(SHELL) $(srcdir)/scripts/lua2c.sh $@ $(REDISLOCK_LUA)

$(builddir)/redislock_scripts.lo: $(builddir)/redislock_lua.h
