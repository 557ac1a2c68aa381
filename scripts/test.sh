#!/usr/bin/env bash
# The whole test suite: makes sure the Debian packages the tests drive are present (installing
# them when running as root with apt-get), then runs `bun test` from the npm-installed Bun.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/packages
missing=()
for p in $APT_PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian packages: ${missing[*]}" >&2
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "missing Debian packages (install them as root): ${missing[*]}" >&2
  fi
fi
exec ./node_modules/.bin/bun test --timeout 60000 "$@"
