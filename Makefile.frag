# The Lua scripts are embedded from lua/*.lua, their only copy: every file
# there becomes a script (scripts/build/lua2c.sh), and every object may use the
# generated list.
REDISLOCK_LUA = $(sort $(wildcard $(srcdir)/lua/*.lua))

$(builddir)/redislock_lua.h: $(REDISLOCK_LUA) $(srcdir)/scripts/build/lua2c.sh
	$(SHELL) $(srcdir)/scripts/build/lua2c.sh $@ $(REDISLOCK_LUA)

$(shared_objects_redislock): $(builddir)/redislock_lua.h
