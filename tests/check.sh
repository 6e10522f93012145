#!/usr/bin/env bash
# make check: every suite in turn, then one total line "N passed, N failed".
# Each suite prints its own "N passed, N failed" last; a suite that crashes,
# prints no count or ran no test at all is counted as one failure.
set -u
cd "$(dirname "$0")/.."
total_pass=0
total_fail=0
summary=()

run_suite() {
	local name=$1; shift
	local log=build/check-$name.log start=$SECONDS
	echo "=== $name: $*"
	"$@" 2>&1 | tee "$log"
	local rc=${PIPESTATUS[0]} took=$((SECONDS - start))
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [[ -z $line ]]; then
		echo "suite $name printed no result (exit $rc): counted as failed"
		total_fail=$((total_fail + 1))
		summary+=("$name: no result (exit $rc, $took s)")
		return
	fi
	local p f
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
	summary+=("$name: $p passed, $f failed ($took s)")
}

mkdir -p build
tests/boot/prepare.sh || { echo "prepare failed"; echo "0 passed, 1 failed"; exit 1; }
export HANDOFF_TEST_KERNEL=build/boot-cache/vmlinuz
for s in tests/check.d/*.sh; do
	[[ -e $s ]] || continue
	n=${s##*/}; n=${n%.sh}; n=${n#[0-9][0-9]-}
	run_suite "$n" "$s"
done

echo "=== summary"
printf '  %s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed"
[[ $total_fail -eq 0 ]]
