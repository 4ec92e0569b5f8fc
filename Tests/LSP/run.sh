#!/usr/bin/env bash
# End-to-end test of `targeting lsp` with a real LSP client (pytest-lsp, on pygls/lsprotocol).
# Usage: Tests/LSP/run.sh [pytest options]   (TARGETING_BIN: the binary, default .build/debug/targeting)
set -euo pipefail

bin=${TARGETING_BIN:-.build/debug/targeting}
# A relative TARGETING_BIN is taken from the caller's directory; the default from the repository root.
if [ -n "${TARGETING_BIN:-}" ] && [[ "$bin" != /* ]]; then bin="$PWD/$bin"; fi
cd "$(dirname "$0")/../.."
if [[ "$bin" != /* ]]; then bin="$PWD/$bin"; fi
if [ ! -x "$bin" ]; then
  echo "Tests/LSP/run.sh: no targeting binary at $bin (build it, or set TARGETING_BIN)" >&2
  exit 2
fi

venv=.build/lsp-venv
if ! "$venv/bin/python" -c "import pytest_lsp" >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "pytest-lsp>=1,<2"
fi

export TARGETING_BIN="$bin"
export PYTHONDONTWRITEBYTECODE=1
"$venv/bin/python" -c "import pytest_lsp; print('pytest-lsp', pytest_lsp.__version__)"
exec "$venv/bin/pytest" -q Tests/LSP/lsp_e2e.py "$@"
