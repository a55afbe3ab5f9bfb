#!/bin/sh
# lua2c.sh OUT.h SCRIPT.lua...
# Embeds each Lua script as a C string literal named redislock_lua_<basename>,
# byte for byte, so the lua directory stay the only copy of the scripts.
set -e
out=$1
shift
{
    echo "/* Generated from the lua directory by scripts/lua2c.sh: do not edit. */"
    for f in "$@"; do
        name=$(basename "$f" .lua)
        echo "static const char redislock_lua_${name}[] ="
        sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$f"
        echo "    ;"
    done
} > "$out.tmp"
mv "$out.tmp" "$out"
