#!/usr/bin/env bash
# Validates the CI report formats of a built binary: `check --format sarif` as SARIF 2.1.0
# (sarif-pydantic's model, plus the checks in check_reports.py) and `test --format junit` as
# XML (Python's xml.etree.ElementTree) with the right counts; on the shipped Rules and on
# temporary rules and tests with errors, warnings, failures and a test that cannot run.
# Usage: Tests/Reports/validate.sh --bin PATH   (builds nothing; exits non-zero on any problem)
set -euo pipefail

bin=
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=${2:?--bin needs a path}; shift 2 ;;
    --bin=*) bin=${1#--bin=}; shift ;;
    *) echo "Tests/Reports/validate.sh: unknown argument \`$1\`; usage: validate.sh --bin PATH" >&2; exit 2 ;;
  esac
done
[ -n "$bin" ] || { echo "Tests/Reports/validate.sh: usage: validate.sh --bin PATH" >&2; exit 2; }
# A relative --bin is taken from the caller's directory.
if [[ "$bin" != /* ]]; then bin="$PWD/$bin"; fi
cd "$(dirname "$0")/../.."
root=$PWD
if [ ! -x "$bin" ]; then
  echo "Tests/Reports/validate.sh: no targeting binary at $bin" >&2
  exit 2
fi

venv=.build/reports-venv
if ! "$venv/bin/python" -c "import sarif_pydantic" >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "sarif-pydantic==0.6.2"
fi
python=$root/$venv/bin/python
checker=$root/Tests/Reports/check_reports.py
export PYTHONDONTWRITEBYTECODE=1
echo "sarif-pydantic $("$python" -c 'from importlib.metadata import version; print(version("sarif-pydantic"))')"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checks=0

# Runs the binary with the remaining arguments, stdout to $out; fails unless it exits $expected.
expect_status() {
  local expected=$1 out=$2
  shift 2
  local status=0
  "$bin" "$@" >"$out" 2>"$tmp/stderr" || status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "Tests/Reports/validate.sh: \`targeting $*\` exited $status, expected $expected" >&2
    cat "$tmp/stderr" >&2
    exit 1
  fi
}

echo "== check --format sarif on the shipped Rules"
expect_status 0 "$tmp/rules.sarif" check Rules --format sarif
"$python" "$checker" sarif "$tmp/rules.sarif" --errors 0 --warnings 0
checks=$((checks + 1))

echo "== check --format sarif on rules with an error and warnings (relative and absolute paths)"
mkdir -p "$tmp/bad"
cat >"$tmp/bad/bad.rules" <<'EOF'
attribute experience: string
segment pros = experience == "prö" or level == "x"
segment unused = experience == "amateur"
audience a = pros and prso
placement p {
  a -> flow "f"
  everyone -> flow "g"
}
EOF
(cd "$tmp" && expect_status 1 "$tmp/bad-relative.sarif" check bad/bad.rules --format sarif)
# level: column 39 after the two-byte ö counts Unicode scalars; prso: line 4, column 23.
"$python" "$checker" sarif "$tmp/bad-relative.sarif" --relative --errors 1 --warnings 2 \
  --result "undeclared-attribute:2:39:2:44" --result "unknown-segment:4:23:4:27" --result "unused:3:9:3:15"
expect_status 1 "$tmp/bad-absolute.sarif" check "$tmp/bad/bad.rules" --format sarif
"$python" "$checker" sarif "$tmp/bad-absolute.sarif" --absolute --errors 1 --warnings 2
checks=$((checks + 2))

echo "== test --format junit on the shipped Rules"
expect_status 0 "$tmp/rules.json" test --rules Rules --format json
passed=$("$python" -c 'import json, sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["passed"])' "$tmp/rules.json")
expect_status 0 "$tmp/rules.xml" test --rules Rules --format junit --coverage
"$python" "$checker" junit "$tmp/rules.xml" --tests "$passed" --failures 0 --errors 0
checks=$((checks + 1))

echo "== test --format junit on tests that fail, cannot run, and need escaping"
mkdir -p "$tmp/suite"
cat >"$tmp/suite/main.rules" <<'EOF'
attribute experience: string one of ["beginner", "pro"]
segment pros = experience == "pro"
segment adults = profile.age >= 18
audience pro_adults = pros and adults
placement onboarding_followup {
  pro_adults -> flow "flow_pro_v2"
  everyone   -> flow "flow_default"
}
EOF
cat >"$tmp/suite/a.tests" <<'EOF'
test "pro adults see the pro flow" {
  now 2026-11-29T12:00:00Z
  given {
    profile.birthday = 1990-06-15
    experience = "pro"
  }
  expect onboarding_followup -> flow "flow_pro_v2"
}
EOF
cat >"$tmp/suite/b.tests" <<'EOF'
test "teens <&\"'> the pro flow" {
  now 2026-11-29T12:00:00Z
  given {
    profile.birthday = 2010-01-01
    experience = "pro"
  }
  expect onboarding_followup -> flow "flow_pro_v2"
  expect pro_adults
}

test "a missing events file" {
  now 2026-11-29T12:00:00Z
  given events "missing.jsonl"
  expect onboarding_followup -> flow "flow_default"
}
EOF
expect_status 1 "$tmp/suite.xml" test --rules "$tmp/suite" --format junit
"$python" "$checker" junit "$tmp/suite.xml" --suites 2 --tests 3 --failures 1 --errors 1 \
  --name "teens <&\"'> the pro flow" --name "a missing events file"
checks=$((checks + 1))

echo "$checks passed, 0 failed"
