#!/bin/sh
# Lints the OpenAPI document the app serves with Spectral (ruleset spectral:oas) and Redocly
# (its recommended rules): both must report 0 errors and 0 warnings.
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
node --import tsx scripts/openapi-document.ts "$dir/openapi.json"
printf 'extends: ["spectral:oas"]\n' > "$dir/.spectral.yaml"
npx --no-install spectral lint --fail-severity=warn --ruleset "$dir/.spectral.yaml" "$dir/openapi.json"
npx --no-install redocly lint --max-problems=50 "$dir/openapi.json" 2>&1 | tee "$dir/redocly.txt"
if grep -qE 'You have [0-9]+ warning' "$dir/redocly.txt"; then
  echo 'openapi-lint: Redocly reported warnings' >&2
  exit 1
fi
echo 'openapi-lint: ok (Spectral and Redocly: 0 errors, 0 warnings)'
