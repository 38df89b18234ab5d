# Sourced by launch-cost.sh and launch-parts.sh after timed.sh: two rounds of STEP (an array) and
# of $LONG 100000, alone and under $RC profile with each of `variants` (an array: "default" or
# one VAR=value set for the run), as step.V.R and long.V.R runs in $W (timed).
for round in 1 2; do
  timed step.alone.$round "${STEP[@]}"
  timed long.alone.$round "$LONG" 100000
  for v in "${variants[@]}"; do
    env_=(); [ "$v" = default ] || env_=("$v")
    timed "step.$v.$round" env "${env_[@]}" $RC profile -q -o $W/s.json -- "${STEP[@]}"
    timed "long.$v.$round" env "${env_[@]}" $RC profile -q -o $W/l.json -- "$LONG" 100000
  done
done
