#!/usr/bin/env bash
# Replays every libFuzzer target over its corpus (tests/fuzz/corpus/<name>/):
# the malformed inputs kept there must run clean under ASan/UBSan.
set -u
cd "$(dirname "$0")/../.."
pass=0 fail=0
for src in tests/fuzz/fuzz_*.c; do
	[[ -e $src ]] || continue
	name=${src##*/fuzz_}; name=${name%.c}
	bin=build/fuzz/fuzz_$name
	corpus=tests/fuzz/corpus/$name
	if [[ ! -x $bin ]]; then
		echo "FAIL fuzz_$name: $bin not built"; fail=$((fail + 1)); continue
	fi
	mapfile -t files < <(find "$corpus" -type f 2>/dev/null | sort)
	if [[ ${#files[@]} -eq 0 ]]; then
		echo "FAIL fuzz_$name: empty corpus $corpus"; fail=$((fail + 1)); continue
	fi
	if UBSAN_OPTIONS=halt_on_error=1 "$bin" -runs=1 "${files[@]}" > "build/fuzz/replay-$name.log" 2>&1; then
		echo "PASS fuzz_$name (${#files[@]} inputs)"; pass=$((pass + 1))
	else
		echo "FAIL fuzz_$name: see build/fuzz/replay-$name.log"; tail -n 20 "build/fuzz/replay-$name.log"; fail=$((fail + 1))
	fi
done
# The replay above only means something if undefined behaviour stops a run.
canary=build/fuzz/canary_ubsan
printf '!' > build/fuzz/canary-input
if [[ ! -x $canary ]]; then
	echo "FAIL UBSan stops a run: $canary not built"; fail=$((fail + 1))
elif "$canary" -runs=1 build/fuzz/canary-input > build/fuzz/canary.log 2>&1; then
	echo "FAIL UBSan stops a run: the canary's signed overflow did not fail it"; fail=$((fail + 1))
elif ! grep -q "runtime error: signed integer overflow" build/fuzz/canary.log; then
	echo "FAIL UBSan stops a run: no UBSan report (see build/fuzz/canary.log)"; fail=$((fail + 1))
else
	echo "PASS UBSan stops a run (canary)"; pass=$((pass + 1))
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
