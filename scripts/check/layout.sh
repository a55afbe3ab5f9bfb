#!/usr/bin/env bash
# scripts/check/layout.sh: checks that the C sources keep the layout
# docs/development.md ("Source layout") describes, and prints each breach:
#
#   - calls go down: a file of src/LAYER includes headers of its own layer
#     or of the layers below it only (base < config < client < engine,
#     zookeeper < php; the engine and ZooKeeper do not include each other);
#   - only the PHP binding (src/php/, redislock.c) parses parameters,
#     defines methods or throws;
#   - prefix = file: a public function of src/LAYER/NAME.c is named
#     redislock_NAME or redislock_NAME_*;
#   - files of at most 600 lines, function bodies of at most 60.
#
# Exits 1 when there is a breach. Run by .ci/run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

php -n -d display_errors=stderr -r '
$rank = ["base" => 0, "config" => 1, "client" => 2, "engine" => 3, "zookeeper" => 3, "php" => 4];
$breaches = 0;
$say = function (string $what) use (&$breaches) { echo "layout: $what\n"; $breaches++; };
$throwing = "/\b(zend_throw\w*|zend_argument_\w*error|zend_value_error|zend_type_error|RETURN_THROWS|"
    . "php_error_docref|ZEND_PARSE_PARAMETERS_START|PHP_METHOD)\b/";
foreach (glob("src/*/*.[ch]") as $file) {
    $layer = basename(dirname($file));
    $lines = file($file, FILE_IGNORE_NEW_LINES);
    if (!isset($rank[$layer])) {
        $say("$file: src/$layer is not a layer (" . implode(", ", array_keys($rank)) . ")");
        continue;
    }
    if (str_ends_with($file, "_arginfo.h")) {
        continue; /* generated */
    }
    if (count($lines) > 600) {
        $say("$file: " . count($lines) . " lines (at most 600)");
    }
    $start = null;
    foreach ($lines as $i => $line) {
        $n = $i + 1;
        if (preg_match("#^\s*\#\s*include \"(\w+)/#", $line, $m) && isset($rank[$m[1]]) && $m[1] !== $layer
            && ($rank[$m[1]] > $rank[$layer] || $rank[$m[1]] === $rank[$layer])) {
            $say("$file:$n: includes $m[1]/, which is not below src/$layer");
        }
        if ($layer !== "php" && preg_match($throwing, preg_replace("#/\*.*?\*/|^\s*\*.*#", "", $line), $m)) {
            $say("$file:$n: $m[1] outside the PHP binding");
        }
        if ($line === "{") {
            $start = $n;
        } elseif ($line === "}" && $start !== null) {
            if ($n - $start - 1 > 60) {
                $say("$file:$start: a function body of " . ($n - $start - 1) . " lines (at most 60)");
            }
            $start = null;
        }
    }
    if (str_ends_with($file, ".c")) {
        $prefix = "redislock_" . basename($file, ".c");
        preg_match_all("/^(?!static)[a-z][\w \*]*?\b(redislock_\w+)\(/m", implode("\n", $lines), $m);
        foreach (array_unique($m[1]) as $name) {
            if ($name !== $prefix && !str_starts_with($name, "$prefix" . "_")) {
                $say("$file: $name is public but not named $prefix" . "_*");
            }
        }
    }
}
foreach (glob("*.c") as $file) {
    if ($file !== "redislock.c") {
        $say("$file: a C file of the extension outside src/");
    }
}
echo $breaches ? "layout: $breaches breaches\n" : "layout: OK\n";
exit($breaches ? 1 : 0);
'
