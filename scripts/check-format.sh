#!/usr/bin/env bash
# Checks that every C++/CUDA source that git tracks matches .clang-format
# (clang-format --dry-run -Werror), and names the files that differ.
# Usage: scripts/check-format.sh          check; exit 1 when a file differs
#        scripts/check-format.sh --fix    reformat the files that differ (clang-format -i)
# CLANG_FORMAT=path picks the binary (default: clang-format on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
case "${1:-}" in
  --fix) fix=1 ;;
  "") ;;
  *) echo "check-format: unknown argument '$1' (valid: --fix)" >&2; exit 2 ;;
esac

cf="${CLANG_FORMAT:-clang-format}"
if ! command -v "$cf" >/dev/null; then
  echo "check-format: $cf not found: install the Debian package clang-format" \
       "(scripts/setup.sh does), or set ROOFKIT_SKIP_FORMAT=1 to skip this check" >&2
  exit 1
fi

# Sources: what git tracks (never build trees); without git, every source outside build/.
files=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  while IFS= read -r -d '' f; do [ -f "$f" ] && files+=("$f"); done < <(
    git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.cc' '*.cu' '*.cuh')
else
  while IFS= read -r -d '' f; do files+=("$f"); done < <(
    find . -path ./build -prune -o -path ./out -prune -o -type f \
      \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' -o -name '*.cu' \
         -o -name '*.cuh' \) -print0)
fi
if ((${#files[@]} == 0)); then
  echo "check-format: no C++/CUDA sources found" >&2
  exit 1
fi

# The style file must parse, or every file would be reported.
if ! "$cf" --dump-config >/dev/null; then
  echo "check-format: $cf cannot read .clang-format" >&2
  exit 1
fi
# Batches of 32 files, two at a time; each batch prints the names of its files that differ in
# one short write, so the two never interleave.
mapfile -t bad < <(printf '%s\0' "${files[@]}" | xargs -0 -P 2 -n 32 sh -c \
  '"$0" --dry-run -Werror --ferror-limit=1 "$@" 2>&1 >/dev/null |
   grep -oE "^[^ :][^:]*:[0-9]+:[0-9]+: error" | cut -d: -f1 | sort -u' "$cf" | sort -u)

if ((${#bad[@]} == 0)); then
  echo "check-format: ${#files[@]} files match .clang-format ($("$cf" --version | head -n 1))" >&2
  exit 0
fi
if ((fix)); then
  "$cf" -i "${bad[@]}"
  echo "check-format: reformatted ${#bad[@]} files" >&2
  exit 0
fi
echo "check-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format:" >&2
printf '  %s\n' "${bad[@]:0:20}" >&2
((${#bad[@]} > 20)) && echo "  ... and $((${#bad[@]} - 20)) more" >&2
echo "check-format: first difference:" >&2
"$cf" --dry-run -Werror --ferror-limit=1 "${bad[0]}" 2>&1 | head -n 3 >&2 || true
echo "check-format: fix with scripts/check-format.sh --fix (clang-format -i on those files)" >&2
exit 1
