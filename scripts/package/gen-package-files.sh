#!/usr/bin/env bash
# scripts/package/gen-package-files.sh [--list | --write]
#
# Decides, for every file of the source tree, whether it ships in the PECL
# package and with which role, and prints the <file> entries that belong in
# the <contents> of package.xml.
#
#   (no option)  print the <file .../> lines
#   --list       print "ROLE PATH" for each file that ships
#   --write      rewrite the <dir name="/"> block of package.xml in place
#
# The source tree is what git knows of: tracked files plus new files that are
# not ignored (git ls-files --cached --others --exclude-standard), minus files
# deleted from the work tree. Build products are ignored by .gitignore and so
# never listed. Every file must match a rule below, either a role or
# "exclude"; a file that matches none is reported and the script exits 2
# (after printing the others; --write then writes nothing), so a new kind of
# file gets a deliberate decision instead of a silent default.
# scripts/package/check-package.sh compares the result with package.xml.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
    echo "gen-package-files: not in a git checkout" >&2
    exit 1
}

# Prints the role of one path: src, test, doc, exclude, or nothing when no
# rule matches.
role_of() {
    case "$1" in
        # Not part of the package: the package description itself (pear adds
        # it to the archive on its own), PIE's metadata (PIE builds from the
        # git archive), CI, editor and git settings, the demo and the
        # benchmarks with their helper scripts (they need phpredis and several
        # servers), the maintainer's packaging tools, which need a git
        # checkout, the fuzz targets (they need clang and PHP's embed
        # library) and the ASan pass's shim.
        package.xml | composer.json) echo exclude ;;
        .ci/* | .github/* | .gitignore | .gitattributes | .editorconfig | .clang-format) echo exclude ;;
        bench/* | demo/*) echo exclude ;;
        scripts/demo.sh | scripts/dev/phpredis-flags.sh | scripts/dev/redis-servers.sh) echo exclude ;;
        scripts/package/check-package.sh | scripts/package/gen-package-files.sh) echo exclude ;;
        fuzz/* | scripts/check/fuzz.sh | scripts/check/asan-shim.c | scripts/check/layout.sh) echo exclude ;;
        # The thread harness (it needs a threaded PHP's embed library) and
        # the PHP builds from source it and CI use.
        tests/threads/* | scripts/check/threads.sh) echo exclude ;;
        # The framework adapters: a Composer library of PHP classes with
        # its own composer.json, installed by Composer into an application's
        # vendor/ (pecl would put PHP files in PEAR's php_dir, where no
        # framework's autoloader looks). scripts/test.sh runs its suites
        # when the directory is there; scripts/build/frameworks.sh installs
        # the current frameworks they are also tested against.
        bridge/* | scripts/build/frameworks.sh) echo exclude ;;

        # The phpt suite and everything it includes.
        tests/*) echo test ;;

        # What the build reads: sources, the build system, the stub the
        # arginfo header is generated from, the Lua scripts embedded at build
        # time and the script that embeds them (Makefile.frag runs it); and
        # the scripts that build a source tree and run its test suite (also on
        # a PHP built from source: php-src.sh).
        src/*/*.c | src/*/*.h | src/*/*.stub.php) echo src ;;
        */*.c | */*.h) ;;
        *.c | *.h | config.m4 | config.w32 | Makefile.frag) echo src ;;
        lua/*.lua) echo src ;;
        scripts/build/lua2c.sh | scripts/build/setup.sh | scripts/test.sh | scripts/build/install-packages.sh) echo src ;;
        scripts/build/php-src.sh) echo src ;;
        # What scripts/test.sh runs for REDISLOCK_SERVER=valkey|redis8.
        scripts/build/server-src.sh) echo src ;;

        README.md | LICENSE | CREDITS | NEWS | CHANGELOG.md | docs/*) echo doc ;;
    esac
}

mode=xml
case "${1:-}" in
    "") ;;
    --list) mode=list ;;
    --write) mode=write ;;
    *)
        echo "usage: $0 [--list | --write]" >&2
        exit 64
        ;;
esac

unclassified=()
entries=()
while IFS= read -r -d '' path; do
    [ -e "$path" ] || continue # deleted in the work tree, not yet in git
    role=$(role_of "$path")
    case "$role" in
        "") unclassified+=("$path") ;;
        exclude) ;;
        *) entries+=("$role $path") ;;
    esac
done < <(git ls-files -z --cached --others --exclude-standard | LC_ALL=C sort -zu)

# Reports the files no rule covers; with --write nothing is written then.
check_unclassified() {
    if [ ${#unclassified[@]} -gt 0 ]; then
        echo "gen-package-files: no rule says whether these files ship (edit role_of in scripts/package/gen-package-files.sh):" >&2
        printf '    %s\n' "${unclassified[@]}" >&2
        exit 2
    fi
}

xml_lines() {
    local e role path
    for e in "${entries[@]}"; do
        role=${e%% *}
        path=${e#* }
        path=${path//&/&amp;}
        path=${path//\"/&quot;}
        path=${path//</&lt;}
        printf '            <file name="%s" role="%s"/>\n' "$path" "$role"
    done
}

case "$mode" in
    list)
        [ ${#entries[@]} -eq 0 ] || printf '%s\n' "${entries[@]}"
        check_unclassified
        ;;
    xml)
        [ ${#entries[@]} -eq 0 ] || xml_lines
        check_unclassified
        ;;
    write)
        check_unclassified
        lines=$(xml_lines)
        grep -q '^ *<dir name="/">$' package.xml || {
            echo 'gen-package-files: package.xml has no <dir name="/"> line to fill' >&2
            exit 1
        }
        # Replaces everything between <dir name="/"> and the next </dir>
        # (the file list is flat, so that is the matching one).
        LINES=$lines awk '
            /^ *<dir name="\/">$/ { print; print ENVIRON["LINES"]; skip = 1; next }
            skip && /^ *<\/dir>$/ { skip = 0 }
            !skip { print }
        ' package.xml > package.xml.tmp
        mv package.xml.tmp package.xml
        echo "gen-package-files: package.xml lists ${#entries[@]} files"
        ;;
esac
