#!/usr/bin/env bash
# make check: every suite, then one total line "N passed, N failed".
# Each suite prints its own "N passed, N failed" last; a suite that crashes,
# prints no count or ran no test at all is counted as one failure.
#
# Suites that are one process at a time run two at once (the two cores CI
# has), longest first, each printed whole when it ends. A suite whose script
# says "# check: both cores" (fuzz-run, boot) keeps both to itself: it runs
# alone, after them, printed as it goes.
set -u
cd "$(dirname "$0")/.."
LANES=${CHECK_LANES:-2}
total_pass=0
total_fail=0
declare -A summary=()

# The result of suite $1 from its log: totals and summary line.
count_suite() {
	local name=$1 rc=$2 took=$3 log=build/check-$1.log line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [[ -z $line ]]; then
		echo "suite $name printed no result (exit $rc): counted as failed"
		total_fail=$((total_fail + 1))
		summary[$name]="$name: no result (exit $rc, $took s)"
		return
	fi
	p=${line%% passed*}
	f=${line#*passed, }; f=${f%% failed*}
	if [[ $rc -ne 0 && $f -eq 0 ]]; then
		f=1
	fi
	if [[ $((p + f)) -eq 0 ]]; then
		echo "suite $name ran no test: counted as failed"
		f=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	summary[$name]="$name: $p passed, $f failed ($took s)"
}

# A suite alone, its output shown as it runs.
run_alone() {
	local name=$1 script=$2 start=$SECONDS rc
	echo "=== $name: $script"
	"$script" 2>&1 | tee "build/check-$name.log"
	rc=${PIPESTATUS[0]}
	count_suite "$name" "$rc" $((SECONDS - start))
}

# A suite in the background; its exit status and time go to build/check-NAME.rc.
start_lane() {
	local name=$1 script=$2
	rm -f "build/check-$name.rc"
	(start=$SECONDS; "$script" > "build/check-$name.log" 2>&1; echo "$? $((SECONDS - start))" > "build/check-$name.rc") &
}

# Print and count every background suite that has ended; the number still running in $running.
reap_lanes() {
	local name rc took
	running=0
	for name in "${lane_started[@]}"; do
		[[ -n ${summary[$name]:-} ]] && continue
		if [[ -e build/check-$name.rc ]]; then
			read -r rc took < "build/check-$name.rc"
			echo "=== $name: ${script_of[$name]} ($took s, run beside others)"
			cat "build/check-$name.log"
			count_suite "$name" "$rc" "$took"
		else
			running=$((running + 1))
		fi
	done
}

mkdir -p build
tests/boot/prepare.sh || { echo "prepare failed"; echo "0 passed, 1 failed"; exit 1; }
export HANDOFF_TEST_KERNEL=build/boot-cache/vmlinuz

order=() alone=() lanes=()
declare -A script_of=()
for s in tests/check.d/*.sh; do
	[[ -e $s ]] || continue
	n=${s##*/}; n=${n%.sh}; n=${n#[0-9][0-9]-}
	order+=("$n")
	script_of[$n]=$s
	if grep -q '^# check: both cores' "$s"; then
		alone+=("$n")
	else
		lanes+=("$n")
	fi
done

# Longest first, so that the two lanes end together: by the times of the last
# run, or, in a fresh tree, those of CI's (seconds on two cores).
declare -A ci_time=([cli]=141 [bench-smoke]=84 [unit]=72 [sbsign]=37)
mapfile -t lanes < <(for n in "${lanes[@]}"; do
	t=${ci_time[$n]:-10}
	[[ -r build/check-$n.rc ]] && read -r _ t < "build/check-$n.rc"
	echo "${t:-0} $n"
done | sort -s -rn -k1,1 | cut -d' ' -f2)

lane_started=()
running=0
for n in "${lanes[@]}"; do
	while reap_lanes; ((running >= LANES)); do
		wait -n 2>/dev/null || sleep 1
	done
	start_lane "$n" "${script_of[$n]}"
	lane_started+=("$n")
done
while reap_lanes; ((running > 0)); do
	wait -n 2>/dev/null || sleep 1
done
for n in "${alone[@]}"; do
	run_alone "$n" "${script_of[$n]}"
done

echo "=== summary"
for n in "${order[@]}"; do
	echo "  ${summary[$n]:-$n: not run}"
done
echo "$total_pass passed, $total_fail failed"
[[ $total_fail -eq 0 ]]
