--TEST--
Quorum of 5: with every subset of servers held by another token, acquire() succeeds exactly when a quorum is free, and leaves or removes exactly its own token
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
[$checked, $acquired, $bad] = rl_quorum_subsets(5, 'rltest:quorum_subsets_5:');
echo "subsets checked: $checked\n";
/* Subsets of at most two servers leave a quorum free: 1 + 5 + 10. */
echo "acquired: $acquired\n";
echo "mismatches: ", count($bad), "\n";
foreach ($bad as $b) {
    echo $b, "\n";
}
?>
--EXPECT--
subsets checked: 32
acquired: 16
mismatches: 0
