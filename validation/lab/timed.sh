# Sourced by the lab scripts: `timed NAME command...` runs the command with its stdout and stderr
# in $W/NAME.out and $W/NAME.err, writes its wall time in seconds to $W/NAME.wall and prints its
# exit code and wall time.
timed() {
  local name=$1 s; shift
  s=$(date +%s.%N)
  "$@" >"$W/$name.out" 2>"$W/$name.err"
  local rc=$?
  awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{print b-a}' >"$W/$name.wall"
  echo "$name rc=$rc wall $(cat "$W/$name.wall") s"
}
