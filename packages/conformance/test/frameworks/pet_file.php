<?php
// The pets of the PHP apps (lumen, symfony), kept in the JSON file $file: PHP's built-in server
// keeps nothing between requests. with_pets runs $change on them under a lock (requests may run
// at once) and writes back what it left; it returns what $change returns.

function with_pets(string $file, callable $change)
{
    $handle = fopen($file, 'c+');
    flock($handle, LOCK_EX);
    $pets = json_decode(stream_get_contents($handle) ?: '[]', true);
    $result = $change($pets);
    ftruncate($handle, 0);
    rewind($handle);
    fwrite($handle, json_encode($pets));
    fclose($handle);
    return $result;
}
