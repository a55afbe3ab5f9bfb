#!/usr/bin/env bash
# scripts/package/check-package.sh: checks that package.xml (the PECL release) says
# the truth about the source tree, then runs `pear package-validate`.
#
#   - every file that ships (scripts/package/gen-package-files.sh decides which, from
#     the files git tracks plus new files git does not ignore) is listed in
#     package.xml with the right role, and package.xml lists nothing else;
#   - every listed file exists;
#   - the release version is PHP_REDISLOCK_VERSION of php_redislock.h and has
#     a changelog entry;
#   - config.m4 and config.w32 compile the same C files, and those are all
#     the C files that ship; the files Makefile.frag reads ship;
#   - the configure options package.xml and composer.json offer exist in
#     config.m4;
#   - pear package-validate reports no error and no warning (but that the
#     release date is not today);
#   - composer.json's php-ext section follows PIE's schema and, when composer
#     is installed, composer validate --strict passes (a composer older than
#     2.7.8, which does not know php-ext, may only complain about php-ext);
#   - the framework adapters' own composer.json (bridge/, a Composer library
#     that is not part of the PECL package) passes composer validate --strict.
#
# Prints each problem with what to do about it, and exits 1 if there was any.
# To bring the file list up to date: bash scripts/package/gen-package-files.sh --write
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

problems=0
problem() {
    problems=$((problems + 1))
    echo "check-package: $*"
}

for tool in git php pear; do
    command -v "$tool" >/dev/null || {
        echo "check-package: $tool is not installed (pear: apt-get install php-pear)" >&2
        exit 2
    }
done
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
    echo "check-package: not in a git checkout" >&2
    exit 2
}
[ -f package.xml ] || {
    echo "check-package: package.xml not found" >&2
    exit 2
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What ships, as "ROLE PATH" lines.
if ! bash scripts/package/gen-package-files.sh --list > "$tmp/expected" 2> "$tmp/gen.err"; then
    cat "$tmp/gen.err"
    problem "cannot tell which files ship (see above)"
fi

# What package.xml says, as "ROLE PATH" lines, plus a few of its fields.
# The PHP below reads package.xml only.
if ! php -d display_errors=stderr -r '
    $x = @simplexml_load_file("package.xml");
    if ($x === false) {
        fwrite(STDERR, "package.xml is not well-formed XML\n");
        exit(1);
    }
    $x->registerXPathNamespace("p", "http://pear.php.net/dtd/package-2.0");
    $walk = function ($dir, $prefix) use (&$walk) {
        foreach ($dir->children() as $kind => $node) {
            $name = (string) $node["name"];
            $path = ltrim($prefix . "/" . $name, "/");
            if ($kind === "file") {
                echo "file ", (string) $node["role"], " ", $path, "\n";
            } elseif ($kind === "dir") {
                $walk($node, $name === "/" ? "" : $path);
            }
        }
    };
    foreach ($x->contents->children() as $node) {
        $walk($node, (string) $node["name"] === "/" ? "" : (string) $node["name"]);
    }
    echo "version ", (string) $x->version->release, "\n";
    foreach ($x->xpath("//p:changelog/p:release/p:version/p:release") as $v) {
        echo "changelog ", (string) $v, "\n";
    }
    foreach ($x->xpath("//p:extsrcrelease/p:configureoption") as $o) {
        echo "option ", (string) $o["name"], "\n";
    }
' > "$tmp/pkg"; then
    problem "cannot read package.xml"
fi
sed -n 's/^file //p' "$tmp/pkg" | LC_ALL=C sort > "$tmp/listed"
LC_ALL=C sort "$tmp/expected" -o "$tmp/expected"

# Files that ship but are not listed, or are listed with another role.
cut -d' ' -f2- "$tmp/listed" | LC_ALL=C sort > "$tmp/listed.paths"
cut -d' ' -f2- "$tmp/expected" | LC_ALL=C sort > "$tmp/expected.paths"
missing=$(LC_ALL=C comm -23 "$tmp/expected" "$tmp/listed")
if [ -n "$missing" ]; then
    n=$(echo "$missing" | wc -l)
    problem "package.xml does not list $n file(s) that ship; add these lines to <dir name=\"/\">" \
        "(or run: bash scripts/package/gen-package-files.sh --write):"
    while read -r role path; do
        if grep -qxF -- "$path" "$tmp/listed.paths"; then
            had=$(grep -F -- " $path" "$tmp/listed" | awk -v p="$path" 'substr($0, index($0, " ") + 1) == p { print $1 }')
            echo "    <file name=\"$path\" role=\"$role\"/>    (listed with role=\"$had\")"
        else
            echo "    <file name=\"$path\" role=\"$role\"/>"
        fi
    done <<< "$missing"
fi

# Files listed that do not ship (deleted, renamed, ignored or excluded).
extra=$(uniq "$tmp/listed.paths" | LC_ALL=C comm -13 "$tmp/expected.paths" -)
if [ -n "$extra" ]; then
    n=$(echo "$extra" | wc -l)
    problem "package.xml lists $n file(s) that do not ship; remove them" \
        "(or run: bash scripts/package/gen-package-files.sh --write):"
    while read -r path; do
        if [ ! -e "$path" ]; then
            why="no such file"
        elif git check-ignore -q -- "$path"; then
            why="ignored by git: a build product?"
        else
            why="excluded by scripts/package/gen-package-files.sh"
        fi
        echo "    $path    ($why)"
    done <<< "$extra"
fi

# Listed more than once.
dups=$(uniq -d "$tmp/listed.paths")
if [ -n "$dups" ]; then
    problem "package.xml lists these files more than once:"
    echo "$dups" | sed 's/^/    /'
fi

# Every listed file must exist, or pear package fails.
while read -r path; do
    [ -f "$path" ] || problem "package.xml lists $path, which does not exist"
done < <(uniq "$tmp/listed.paths")

# Version: package.xml, the C code and the changelog agree.
pkg_version=$(sed -n 's/^version //p' "$tmp/pkg")
c_version=$(sed -n 's/^#define PHP_REDISLOCK_VERSION "\(.*\)"/\1/p' php_redislock.h)
if [ "$pkg_version" != "$c_version" ]; then
    problem "package.xml releases version '$pkg_version' but php_redislock.h defines PHP_REDISLOCK_VERSION '$c_version'"
fi
if ! grep -qxF "changelog $pkg_version" "$tmp/pkg"; then
    problem "package.xml has no <changelog> entry for version $pkg_version"
fi

# The C files each build system compiles.
# config.m4 names them in PHP_NEW_EXTENSION, directly or through a shell
# variable per folder (redislock_base="src/base/error.c ..."); config.w32 in
# EXTENSION("redislock", ...) and ADD_SOURCES(configure_module_dirname +
# "\\src\\DIR", "...", "redislock").
m4_sources=$(php -r '
    $s = file_get_contents("config.m4");
    if (preg_match("/PHP_NEW_EXTENSION\(\[?redislock\]?,\s*\[([^\]]*)\]/", $s, $m)) {
        $f = [];
        foreach (preg_split("/\s+/", trim($m[1])) as $w) {
            if ($w[0] !== "$") { $f[] = $w; continue; }
            if (preg_match("/^\s*" . preg_quote(substr($w, 1), "/") . "=\"([^\"]*)\"/m", $s, $v)) {
                array_push($f, ...preg_split("/\s+/", trim($v[1])));
            }
        }
        sort($f, SORT_STRING); echo implode("\n", $f), "\n";
    }')
w32_sources=$(php -r '
    $s = file_exists("config.w32") ? file_get_contents("config.w32") : "";
    if (preg_match("/EXTENSION\(\"redislock\",\s*\"([^\"]*)\"/", $s, $m)) {
        $f = preg_split("/\s+/", trim($m[1]));
        preg_match_all("/ADD_SOURCES\(configure_module_dirname \+ \"((?:\\\\\\\\[a-z_]+)+)\",\s*\"([^\"]*)\",\s*\"redislock\"/", $s, $a, PREG_SET_ORDER);
        foreach ($a as $d) {
            $dir = ltrim(str_replace("\\\\", "/", $d[1]), "/");
            foreach (preg_split("/\s+/", trim($d[2])) as $n) { $f[] = "$dir/$n"; }
        }
        sort($f, SORT_STRING); echo implode("\n", $f), "\n";
    }')
shipped_c=$(grep -E '^src ([^/]+|src/[a-z_]+/[^/]+)\.c$' "$tmp/expected" | cut -d' ' -f2 | LC_ALL=C sort)
if [ -z "$m4_sources" ]; then
    problem "cannot find the source list of PHP_NEW_EXTENSION in config.m4"
elif [ "$m4_sources" != "$shipped_c" ]; then
    problem "config.m4 compiles [$(echo $m4_sources)] but the C files that ship are [$(echo $shipped_c)]"
fi
if [ -z "$w32_sources" ]; then
    problem "cannot find the source list of EXTENSION(\"redislock\", ...) in config.w32"
elif [ "$w32_sources" != "$m4_sources" ]; then
    problem "config.w32 compiles [$(echo $w32_sources)] but config.m4 compiles [$(echo $m4_sources)]"
fi

# What Makefile.frag reads from the source tree must ship (a wildcard: every
# file it matches, and it must match one).
for pattern in $(grep -o '\$(srcdir)/[A-Za-z0-9_./*-]*' Makefile.frag | sed 's|^\$(srcdir)/||' | sort -u); do
    matched=0
    for f in $pattern; do
        [ -e "$f" ] || continue
        matched=1
        grep -qxF -- "$f" "$tmp/expected.paths" ||
            problem "Makefile.frag reads $f, which does not ship (is it excluded?)"
    done
    [ $matched -eq 1 ] || problem "Makefile.frag reads $pattern, which matches no file"
done

# Configure options offered by package.xml and composer.json exist in config.m4.
m4_options=$(php -r '
    preg_match_all("/PHP_ARG_(WITH|ENABLE)\(\[?([a-z0-9_-]+)\]?/", file_get_contents("config.m4"), $m, PREG_SET_ORDER);
    foreach ($m as $o) { echo strtolower($o[1]), "-", $o[2], "\n"; }')
for o in $(sed -n 's/^option //p' "$tmp/pkg"); do
    grep -qxF -- "$o" <<< "$m4_options" ||
        problem "package.xml offers configure option --$o, which config.m4 does not define"
done
if [ -f composer.json ]; then
    for o in $(php -r '
        $j = json_decode(file_get_contents("composer.json"), true);
        foreach ($j["php-ext"]["configure-options"] ?? [] as $o) { echo $o["name"], "\n"; }'); do
        grep -qxF -- "$o" <<< "$m4_options" ||
            problem "composer.json offers configure option --$o, which config.m4 does not define"
    done
fi

# And the other way: every --with-* option of config.m4 (a library to build
# with) is offered by both, so that a part built only with it (ZooKeeperLock:
# --with-zookeeper) can be had through pecl and PIE too.
pkg_options=$(sed -n 's/^option //p' "$tmp/pkg")
composer_options=$([ -f composer.json ] && php -r '
    $j = json_decode(file_get_contents("composer.json"), true);
    foreach ($j["php-ext"]["configure-options"] ?? [] as $o) { echo $o["name"], "\n"; }')
for o in $(grep '^with-' <<< "$m4_options"); do
    grep -qxF -- "$o" <<< "$pkg_options" ||
        problem "config.m4 defines --$o, which package.xml does not offer: add" \
            "<configureoption name=\"$o\" .../> to its <extsrcrelease>"
    [ ! -f composer.json ] || grep -qxF -- "$o" <<< "$composer_options" ||
        problem "config.m4 defines --$o, which composer.json does not offer: add it to php-ext.configure-options"
done

# PEAR's own validation of package.xml. Its warning that the release date
# is not today says when the check runs, not what the file holds: it alone
# is let through.
out=$(pear package-validate package.xml 2>&1)
status=$?
echo "$out" | sed 's/^/pear: /'
warnings=$(sed -n 's/^Validation: 0 error(s), \([0-9]*\) warning(s)$/\1/p' <<< "$out")
dated=$(grep -c 'field "date" - Release Date "[0-9-]*" is not today' <<< "$out" || true)
if [ $status -ne 0 ] || [ -z "$warnings" ] || [ "$warnings" -ne "$dated" ]; then
    problem "pear package-validate package.xml found errors or warnings (see above)"
fi

# composer.json (PIE's metadata): the php-ext section by PIE's rules, then
# Composer's own validation when composer is installed.
if [ -f composer.json ]; then
    php -r '
        $j = json_decode(file_get_contents("composer.json"), true);
        if (!is_array($j)) { echo "composer.json is not valid JSON\n"; exit; }
        if (($j["type"] ?? "") !== "php-ext") { echo "composer.json: type must be php-ext\n"; }
        $e = $j["php-ext"] ?? null;
        if (!is_array($e)) { echo "composer.json has no php-ext section\n"; exit; }
        $known = ["extension-name", "priority", "support-zts", "support-nts", "build-path",
                  "download-url-method", "os-families", "os-families-exclude", "configure-options"];
        foreach (array_diff(array_keys($e), $known) as $k) { echo "composer.json: php-ext has unknown key $k\n"; }
        if (($e["extension-name"] ?? "") !== "redislock") { echo "composer.json: php-ext.extension-name must be redislock\n"; }
        if (isset($e["os-families"], $e["os-families-exclude"])) { echo "composer.json: php-ext has both os-families and os-families-exclude\n"; }
        $families = ["windows", "bsd", "darwin", "solaris", "linux", "unknown"];
        foreach (["os-families", "os-families-exclude"] as $k) {
            foreach ((array) ($e[$k] ?? []) as $f) {
                if (!in_array($f, $families, true)) { echo "composer.json: php-ext.$k has unknown OS family $f\n"; }
            }
        }
        foreach ($e["configure-options"] ?? [] as $i => $o) {
            if (!preg_match("/^[a-zA-Z0-9][a-zA-Z0-9-_]*$/", $o["name"] ?? "")) { echo "composer.json: configure-options[$i] has no valid name\n"; }
            if (isset($o["needs-value"]) && !is_bool($o["needs-value"])) { echo "composer.json: configure-options[$i].needs-value must be a boolean\n"; }
            foreach (array_diff(array_keys($o), ["name", "needs-value", "description"]) as $k) { echo "composer.json: configure-options[$i] has unknown key $k\n"; }
        }
    ' > "$tmp/phpext"
    while read -r line; do
        problem "$line"
    done < "$tmp/phpext"

    if command -v composer >/dev/null; then
        export COMPOSER_NO_INTERACTION=1
        out=$(composer validate --strict 2>&1)
        status=$?
        version=$(composer --version 2>/dev/null | sed -n 's/^Composer version \([0-9][0-9.]*\).*/\1/p')
        if [ $status -ne 0 ] && [ -n "$version" ] &&
            php -r 'exit(version_compare($argv[1], "2.7.8", "<") ? 0 : 1);' "$version"; then
            # Composers before 2.7.8 do not know the php-ext section (2.7.3 added
            # it, 2.7.8 its needs-value) and count it as a publish error. Check
            # everything else, and accept that one complaint only.
            out2=$(composer validate --strict --no-check-publish 2>&1)
            status=$?
            others=$(grep '^- ' <<< "$out2" | grep -v '^- The property php-ext is not defined' || true)
            if [ $status -eq 0 ] && [ -z "$others" ]; then
                echo "composer: validate --strict: valid but for php-ext, a section composer $version does not" \
                    "know (2.7.8 and later do)"
            else
                echo "$out" | sed 's/^/composer: /'
                echo "$out2" | sed 's/^/composer: /'
                problem "composer validate found problems in composer.json (see above)"
            fi
        else
            echo "$out" | sed 's/^/composer: /'
            [ $status -eq 0 ] || problem "composer validate --strict found problems in composer.json (see above)"
        fi
    else
        echo "check-package: composer is not installed; only the php-ext section of composer.json was checked"
    fi
fi

# The framework adapters' Composer library.
if [ -f bridge/composer.json ] && command -v composer >/dev/null; then
    out=$(COMPOSER_NO_INTERACTION=1 composer validate --strict bridge/composer.json 2>&1)
    status=$?
    echo "$out" | sed 's/^/composer (bridge): /'
    [ $status -eq 0 ] || problem "composer validate --strict bridge/composer.json found problems (see above)"
fi

if [ "$problems" -gt 0 ]; then
    echo "check-package: FAILED, $problems problem(s)"
    exit 1
fi
echo "check-package: OK, package.xml lists the $(wc -l < "$tmp/listed") files that ship"
