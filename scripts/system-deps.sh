#!/usr/bin/env bash
# System packages the tests need: Debian's Chromium (browser tests) and PostgreSQL (storage tests).
# Idempotent: installs only what is missing. Needs root (CI runs as root) or sudo.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)

if [ ${#need[@]} -eq 0 ]; then
  echo "system-deps: chromium and postgresql are installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "system-deps: need root to install: ${need[*]}" >&2; exit 1
  fi
fi
echo "system-deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# The Debian package starts a cluster service; the tests run their own throwaway server instead.
