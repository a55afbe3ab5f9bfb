#!/bin/sh
# lua2c.sh OUT.h SCRIPT.lua...
# Embeds each Lua script as a C string literal named redislock_lua_<basename>,
# byte for byte, so the lua directory stays the only copy of the scripts, and
# lists them all in the X-macro REDISLOCK_LUA_SCRIPTS(X): adding a script is
# adding a file to lua/. The literals are compiled only where
# REDISLOCK_LUA_BODIES is defined (engine/scripts.c); everywhere else the
# header gives the list alone. config.w32 writes the same format.
set -e
out=$1
shift
{
    echo "/* Generated from the lua directory by scripts/build/lua2c.sh: do not edit. */"
    echo "#define REDISLOCK_LUA_SCRIPTS(X) \\"
    for f in "$@"; do
        echo "    X($(basename "$f" .lua)) \\"
    done
    echo "    /* end */"
    echo "#ifdef REDISLOCK_LUA_BODIES"
    for f in "$@"; do
        name=$(basename "$f" .lua)
        echo "static const char redislock_lua_${name}[] ="
        sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$f"
        echo "    ;"
    done
    echo "#endif"
} > "$out.tmp"
mv "$out.tmp" "$out"
