#!/usr/bin/env bash
# DocReferences.TheCheckFindsAStaleReference: check_doc_references.sh fails on a small tree whose doc and comment cite
# missing files, missing sections, a missing name and a member cited under a type it is nowhere near, names each of
# them with its line, and passes the references that exist; the same tree with those fixed passes. Without this the check could pass by finding nothing.
# usage: check_doc_references_fails.sh CHECK_SCRIPT
set -euo pipefail

check="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs" "$tmp/src"
cat >"$tmp/docs/GUIDE.md" <<'EOF'
# A guide

## Present

**Run-in.** A paragraph named in bold.
EOF
cat >"$tmp/README.md" <<'EOF'
# A project

The code is in `src/` (`src/a.h`, `Widget::kept`), the guide in `docs/GUIDE.md`, "Present" and "Run-in".
The old header `src/gone.h` was removed; the guide says more
(docs/GUIDE.md, "No such
section"). Not paths: `http://example.org/x.h`, `/usr/include/stdio.h`, `build/release/x`, `text/plain`.
EOF
cat >"$tmp/src/a.h" <<'EOF'
// A header (docs/GUIDE.md, "Present"; docs/GUIDE.md, "Missing from a comment").
// Tested by src/gone_test.cpp.
// Replaces Widget::vanished.
struct Widget { int kept; };
int a();
EOF
cat >"$tmp/src/b.h" <<'EOF'
// Not Gadget::kept: kept is Widget's.
struct Gadget { int other; };
EOF

fail=0
expect() {
  if ! grep -qF -- "$1" "$tmp/out"; then
    echo "check_doc_references_fails: expected the check to say: $1" >&2
    fail=1
  fi
}

status=0
bash "$check" "$tmp" >"$tmp/out" 2>&1 || status=$?
cat "$tmp/out"
[ "$status" -eq 1 ] || { echo "check_doc_references_fails: the check exited $status, not 1" >&2; fail=1; }
expect 'README.md:4: `src/gone.h` names no file or folder of the repository'
expect 'README.md:5: docs/GUIDE.md has no section "No such section"'
expect 'src/a.h:1: docs/GUIDE.md has no section "Missing from a comment"'
expect 'src/a.h:2: `src/gone_test.cpp` names no file or folder of the repository'
expect 'src/a.h:3: `Widget::vanished`: no C++ code of the repository has vanished'
expect 'src/b.h:1: `Gadget::kept`: no C++ file of the repository has both Gadget and kept'
if [ "$(grep -c 'names no\|has no\|no C++ code\|no C++ file' "$tmp/out")" -ne 6 ]; then
  echo "check_doc_references_fails: the check reported more than the 6 stale references" >&2
  fail=1
fi

# Fixed, the same tree passes.
sed -i 's|`src/gone.h`|`src/a.h`|; s|"No such|"Present"|; s|^section")|)|' "$tmp/README.md"
sed -i 's|, "Missing from a comment"|, "Run-in"|; s|src/gone_test.cpp|src/a.h|; s|vanished|kept|' "$tmp/src/a.h"
sed -i 's|Not Gadget::kept: kept is Widget.s|Gadget::other is its one member|' "$tmp/src/b.h"
if ! bash "$check" "$tmp" >"$tmp/out" 2>&1; then
  cat "$tmp/out"
  echo "check_doc_references_fails: the check still fails once the references are fixed" >&2
  fail=1
fi

[ "$fail" -eq 0 ] || exit 1
echo "check_doc_references_fails: the check names the missing file, sections and names, and passes them fixed"
