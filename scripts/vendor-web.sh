#!/usr/bin/env bash
# Reproduces web-client/vendor/ from npm: the web client has no build step, so the one library it
# uses, i18next (translations, plural forms through the browser's Intl.PluralRules), is kept as its
# single-file ES module build. Run from anywhere; needs npm.
#
#   scripts/vendor-web.sh            the pinned version (web-client/vendor/README.md)
#   scripts/vendor-web.sh 26.8.0     another version (then update the README's table)
set -euo pipefail

version="${1:-26.7.2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
npm pack --silent "i18next@${version}" >/dev/null
tar xzf "i18next-${version}.tgz"
cp package/dist/esm/i18next.js "$root/web-client/vendor/i18next.js"
cp package/LICENSE "$root/web-client/vendor/i18next.LICENSE"
echo "web-client/vendor/i18next.js: i18next ${version} ($(grep -m1 '"license"' package/package.json | tr -d ' ,'))"
