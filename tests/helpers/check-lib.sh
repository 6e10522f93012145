# Shared by the shell suites in tests/check.d: sourced after `cd` to the
# repository and after setting W (the suite's work directory). Every check
# prints PASS or FAIL; `finish` prints "N passed, N failed" and fails the
# suite on any failure or when nothing ran.
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }

# check NAME CMD...: CMD must succeed; its output is shown when it does not.
check() {
	local name=$1; shift
	if "$@" >"$W/last.log" 2>&1; then ok "$name"
	else ko "$name"; sed 's/^/    /' "$W/last.log" | tail -n 15; fi
}

# refuse NAME CODE REGEX CMD...: CMD must fail with exactly exit status CODE and
# say REGEX; a crash (signal, sanitizer report) or another error is no refusal.
refuse() {
	local name=$1 code=$2 want=$3 rc; shift 3
	"$@" >"$W/last.log" 2>&1; rc=$?
	if [[ $rc -ne $code ]]; then
		ko "$name (exit $rc, expected $code)"; sed 's/^/    /' "$W/last.log" | tail -n 5
	elif grep -qE 'Sanitizer|runtime error' "$W/last.log"; then
		ko "$name (sanitizer report)"; tail -n 5 "$W/last.log"
	elif ! grep -qE "$want" "$W/last.log"; then
		ko "$name (no '$want')"; sed 's/^/    /' "$W/last.log" | tail -n 5
	else ok "$name"; fi
}

finish() {
	echo "$pass passed, $fail failed"
	[[ $fail -eq 0 && $pass -gt 0 ]]
}
