#!/usr/bin/env bash
# check: both cores
# Runs every libFuzzer target for a second (FUZZ_RUN_SECONDS, default 1;
# two at a time), from a copy of its corpus in a temporary directory (the tree's
# corpus stays read only), so that a harness that crashes, hangs, leaks or
# disagrees with its reference on new inputs cannot sit unnoticed until
# someone runs `make fuzz`. A failure leaves its log and the input that failed
# in build/fuzz/run-NAME*.
set -u
cd "$(dirname "$0")/../.."
seconds=${FUZZ_RUN_SECONDS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One target: "PASS ..." or "FAIL ..." into $tmp/NAME.result.
run_target() {
	local name=$1 bin=build/fuzz/fuzz_$1 log=build/fuzz/run-$1.log runs
	if [[ ! -x $bin ]]; then
		echo "FAIL fuzz_$name: $bin not built" > "$tmp/$name.result"
		return
	fi
	mkdir -p "$tmp/corpus-$name"
	[[ -d tests/fuzz/corpus/$name ]] && cp -r "tests/fuzz/corpus/$name/." "$tmp/corpus-$name/"
	rm -f "build/fuzz/run-$name-"*
	# -timeout: one input running this long is a hang; a crash, a leak, an
	# out-of-memory, a sanitizer report or a hang ends the run with a status.
	if UBSAN_OPTIONS=halt_on_error=1 "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="build/fuzz/run-$name-" "$tmp/corpus-$name" > "$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		if [[ ${runs:-0} -gt 0 ]]; then
			echo "PASS fuzz_$name ($runs runs in ${seconds}s)" > "$tmp/$name.result"
		else
			echo "FAIL fuzz_$name: ran no input (see $log)" > "$tmp/$name.result"
		fi
	else
		echo "FAIL fuzz_$name: exit $? (see $log): $(grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|ALARM)' "$log")" \
			> "$tmp/$name.result"
	fi
}

mkdir -p build/fuzz
names=()
for src in tests/fuzz/fuzz_*.c; do
	[[ -e $src ]] || continue
	name=${src##*/fuzz_}; names+=("${name%.c}")
done
for name in "${names[@]}"; do
	while [[ $(jobs -rp | wc -l) -ge 2 ]]; do
		wait -n
	done
	run_target "$name" &
done
wait

pass=0 fail=0
for name in "${names[@]}"; do
	if [[ ! -s $tmp/$name.result ]]; then
		echo "FAIL fuzz_$name: no result"; fail=$((fail + 1)); continue
	fi
	cat "$tmp/$name.result"
	if grep -q '^PASS' "$tmp/$name.result"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); tail -n 15 "build/fuzz/run-$name.log"
	fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 && $pass -gt 0 ]]
