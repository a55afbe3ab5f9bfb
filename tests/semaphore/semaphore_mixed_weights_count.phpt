--TEST--
Semaphore: holds of weight 1 and weighted holds together, released in any order, never exceed the limit and available() counts them right
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:sem_mixed:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$limit = 5;
$weights = [1, 1, 1, 2, 3, 1, 2, 1];
$sems = array_map(fn($w) => new RedisLock\Semaphore('pool', $limit, $o + ['weight' => $w]), $weights);
$held = array_fill(0, count($sems), false);
mt_srand(7);
$bad = [];
for ($i = 0; $i < 400; $i++) {
    $k = mt_rand(0, count($sems) - 1);
    $sum = array_sum(array_map(fn($h, $w) => $h ? $w : 0, $held, $weights));
    if ($held[$k]) {
        if (!$sems[$k]->release()) {
            $bad[] = "step $i: release of $k false";
        }
        $held[$k] = false;
    } else {
        $got = $sems[$k]->acquire();
        if ($got !== ($sum + $weights[$k] <= $limit)) {
            $bad[] = "step $i: acquire of weight {$weights[$k]} at $sum held: " . json_encode($got);
        }
        $held[$k] = $got;
    }
    $sum = array_sum(array_map(fn($h, $w) => $h ? $w : 0, $held, $weights));
    if ($sum > $limit || $sems[0]->available() !== $limit - $sum) {
        $bad[] = "step $i: $sum held, available " . $sems[0]->available();
    }
}
echo 'mismatches ', json_encode(array_slice($bad, 0, 5)), "\n";
/* A weighted hold and two of weight 1; the count of the weighted permits
 * beyond one each is 2 while the hold of weight 3 is there. */
foreach ($sems as $k => $s) {
    if ($held[$k]) {
        $s->release();
    }
}
echo json_encode([$sems[4]->acquire(), $sems[0]->acquire(), $sems[1]->acquire(), $sems[2]->acquire()]), ' ';
echo 'extra ', rl_admin()->cmd('GET', $p . 'pool:redislock-semaphore:redislock-extra-permits'), ', available ', $sems[0]->available(), "\n";
echo json_encode([$sems[0]->release(), $sems[4]->release()]), ' extra ', json_encode(rl_admin()->cmd('GET', $p . 'pool:redislock-semaphore:redislock-extra-permits')),
    ', available ', $sems[0]->available(), "\n";
echo json_encode([$sems[3]->acquire(), $sems[6]->acquire(), $sems[5]->acquire(), $sems[0]->available()]), "\n";
foreach ([1, 3, 6, 5] as $k) {
    $sems[$k]->release();
}
echo 'keys ', json_encode(rl_admin()->cmd('KEYS', $p . '*')), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_mixed:');
?>
--EXPECT--
mismatches []
[true,true,true,false] extra 2, available 0
[true,true] extra null, available 4
[true,true,false,0]
keys []
