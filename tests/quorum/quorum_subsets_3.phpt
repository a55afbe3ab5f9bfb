--TEST--
Quorum of 3: with every subset of servers held by another token, acquire() succeeds exactly when a quorum is free, and leaves or removes exactly its own token
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
[$checked, $acquired, $bad] = rl_quorum_subsets(3, 'rltest:quorum_subsets_3:');
echo "subsets checked: $checked\n";
/* The empty set and the three single servers leave a quorum free. */
echo "acquired: $acquired\n";
echo "mismatches: ", count($bad), "\n";
foreach ($bad as $b) {
    echo $b, "\n";
}
?>
--EXPECT--
subsets checked: 8
acquired: 4
mismatches: 0
