#!/bin/bash
# usage: bench.sh BOARD ROUNDS variant...  (sequential, interleaved, pinned to core 3)
B=$1; R=$2; shift 2
for r in $(seq $R); do
  for v in "$@"; do
    t=$( taskset -c 3 ./devbin/$v $B | grep -o '[0-9.]* s' | head -1 ); echo "$v $t"
  done
done | awk '{a[$1]=a[$1]" "$2} END {for (k in a) print k, a[k]}' | sort
