#!/usr/bin/env bash
# DocReferences: every file and section the repository's docs and comments cite exists.
#
# What it reads: the tracked Markdown files (*.md) and the `//` comments of the tracked C++ files (*.h, *.cpp), from
# `git -C ROOT ls-files` (or, where ROOT is not a git work tree, `find` without .git/ and build/). A Markdown
# paragraph, or a run of consecutive comment lines, is read as one text, so a citation may break across lines.
#
# 1. Files. In Markdown, every `backticked` token that is a repository path; in comments, and in Markdown outside
#    backticks, every word ending in .h, .cpp or .md (a.h/b.h is two words). A backticked token with spaces is a
#    command: its first word is the token. A token is skipped when it cannot be a path of the repository: a URL or
#    absolute path (http:, /usr/..., ~/...), a path under build/ (generated), a hidden path (.config/...), or a
#    placeholder or pattern (it holds < * ... $ { [ : ( " or =), except that a lower-case `dir/name.*` names a file
#    pair, checked as name.h (else name.cpp). What is left is a path when its first part is a top-level entry of
#    ROOT (common/..., README.md), or it ends in "/" (a folder), or it ends in a source extension (.h .cpp .md .sh
#    .cmake .txt .toml .js .mjs .html .css .json .py .yaml); anything else (text/event-stream, LINK.srr) is not
#    checked. A path must name a tracked file, or a folder holding one: from ROOT, else from the citing file's
#    folder, else, for a path whose first part is not a top-level entry (js/engine.js, app/own_race.h, messages.h),
#    as the end of some tracked path (a folder's README naming its files, a doc naming a file of the part it is
#    about). The few cited paths that are rightly not in the repository (a file of the player's machine, a build
#    output, a file of another project) are listed with the reason in tests/docs/doc_references_allowed.txt, as
#    "CITING_FILE TOKEN  why"; an entry no longer cited is an error too.
# 2. Sections. A citation FILE.md, "Section" (the comma and backticks around FILE.md optional; a second section may
#    follow as ... and "Other") must name a section of FILE.md, compared exactly after trimming (runs of blanks as
#    one space): a heading line "#... Section", or a run-in heading, a paragraph or list item that starts with the
#    name in bold ("**Referee.** The server ..."; PROTOCOL.md names its paragraphs so). FILE.md is found from ROOT,
#    else from the citing file's folder, else as the one tracked file of that name (PROTOCOL.md, FORMAT.md).
# 3. Names. Every A::b a doc cites in backticks, or a comment names: each part (A, b) must be a word of the C++ code
#    of the repository, comments left out, and A and b (the last two parts) words of one same C++ file. Weak (any
#    use of the words counts) but it catches a renamed or removed function or member, and one cited under a class
#    or namespace it is nowhere near. std:: names and patterns (kChannel*) are skipped; the allow-list takes names
#    too.
#
# usage: check_doc_references.sh ROOT
#   Prints one line for each missing file, section or name (FILE:LINE: what) and exits 1 if there is any, else
#   prints how many references it checked and exits 0. Needs bash, coreutils, grep, sed, awk and (optionally) git.
set -euo pipefail

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
[ $# -eq 1 ] && [ -d "$1" ] || {
  echo "usage: check_doc_references.sh ROOT (--help says what it checks)" >&2
  exit 2
}
root="$(cd "$1" && pwd -P)"

# The tracked files, relative to ROOT.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
list="$tmp/files"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
  [ "$(git -C "$root" rev-parse --show-toplevel)" = "$root" ]; then
  git -C "$root" ls-files >"$list"
else
  (cd "$root" && find . \( -name .git -o -path ./build \) -prune -o -type f -print | sed 's|^\./||' | sort) >"$list"
fi
# Files deleted from the work tree but still tracked do not count.
while IFS= read -r f; do [ -e "$root/$f" ] && printf '%s\n' "$f"; done <"$list" >"$list.on"
mv "$list.on" "$list"

allow="$root/tests/docs/doc_references_allowed.txt"
[ -f "$allow" ] || allow=/dev/null
: >"$tmp/symbols"
awk -v root="$root" -v list="$list" -v symfile="$tmp/symbols" -v countfile="$tmp/counts" \
  -v allow="$allow" -v allow_name="tests/docs/doc_references_allowed.txt" '
  function fail(where, what) { print where ": " what; ++failures }

  # Is p a tracked file or a folder holding one?
  function exists(p) { sub(/\/$/, "", p); return (p in files) || (p in dirs) }

  # Where a cited path is, or "" if nowhere: from ROOT, from the citing file`s folder, else (relative) as the end
  # of a tracked path.
  function resolve(p, dir, relative,    q, f) {
    q = p; sub(/\/$/, "", q)
    if (exists(q)) return q
    if (dir != "" && exists(dir "/" q)) return dir "/" q
    if (!relative) return ""
    if (q in by_tail) return by_tail[q]
    return ""
  }

  function is_path(t,    first, ext) {
    if (t == "" || t ~ /^(\/|~|-|\.|https?:|build\/)/) return 0
    if (t ~ /[<*$({"=:]/ || index(t, "[") || index(t, "...")) return 0
    first = t; sub(/\/.*/, "", first)
    if (first in top) return 1
    if (t ~ /\/$/) return 1
    return t ~ /\.(h|cpp|md|sh|cmake|txt|toml|js|mjs|html|css|json|py|yaml)$/
  }

  function check_path(t, file, dir, where,    first, stem) {
    sub(/^\.\//, "", t)
    if (t ~ /^[a-z0-9_\/-]+\.\*$/) {
      # rotation.* names a file pair: one of them must exist (InstallList.*, a test pattern, is not a file).
      stem = substr(t, 1, length(t) - 1)
      if (is_path(stem "h")) {
        t = stem "h"
        first = t; sub(/\/.*/, "", first)
        if (resolve(t, dir, !(first in top)) == "") t = stem "cpp"
      }
    }
    if (!is_path(t)) return
    ++paths
    if ((file SUBSEP t) in allowed) { used[file SUBSEP t] = 1; return }
    first = t; sub(/\/.*/, "", first)
    if (resolve(t, dir, !(first in top)) == "")
      fail(where, "`" t "` names no file or folder of the repository")
  }

  # A cited A::b, for the names check after this awk; next: the character after it.
  function cite_name(name, next_char, where) {
    if (name ~ /^std::/ || next_char == "*") return  # the standard library; a pattern (kChannel*)
    if ((cur_file SUBSEP name) in allowed) { used[cur_file SUBSEP name] = 1; return }
    print where "\t" name > symfile
  }

  # The headings of a Markdown file, read once.
  function load_headings(md,    line, h) {
    if (md in loaded) return
    loaded[md] = 1
    while ((getline line < (root "/" md)) > 0) {
      if (line ~ /^#+ /) {
        h = line; sub(/^#+ +/, "", h); sub(/[ \t]+#*[ \t]*$/, "", h); sub(/[ \t]+$/, "", h)
        heading[md SUBSEP h] = 1
      } else if (line ~ /^([-*] )?\*\*[^*]+\*\*/) {
        # A run-in heading: a paragraph or list item that starts with its name in bold, "**Referee.** The server ...".
        h = line; sub(/^([-*] )?\*\*/, "", h); sub(/\*\*.*/, "", h); sub(/[.:]$/, "", h)
        heading[md SUBSEP h] = 1
      }
    }
    close(root "/" md)
  }

  function check_section(md, name, dir, where,    found, base) {
    ++sections
    found = resolve(md, dir, 0)
    if (found == "") { base = md; sub(/.*\//, "", base); if (base in unique_md) found = unique_md[base] }
    if (found == "") { fail(where, md " (cited with section \"" name "\") names no file of the repository"); return }
    load_headings(found)
    if (!((found SUBSEP name) in heading)) fail(where, found " has no section \"" name "\"")
  }

  # The line of ROOT-relative file `file` that position `pos` of the current text is on.
  function where_at(pos,    i) {
    for (i = nlines; i > 1; --i) if (starts[i] <= pos) break
    return cur_file ":" lines[i]
  }

  # One text: a Markdown paragraph or a run of comment lines.
  function scan(text, is_md,    rest, off, tok, t, cite, md, name, sp, m, at, len, plain) {
    plain = text
    if (is_md) {
      rest = text; off = 0
      while (match(rest, /`[^`]+`/)) {
        tok = substr(rest, RSTART + 1, RLENGTH - 2); at = RSTART; len = RLENGTH
        t = tok; sub(/^ +/, "", t); sub(/ .*/, "", t)
        check_path(t, cur_file, cur_dir, where_at(off + at))
        if (match(tok, /^[A-Za-z_][A-Za-z0-9_]*(::~?[A-Za-z_][A-Za-z0-9_]*)+/))
          cite_name(substr(tok, RSTART, RLENGTH), substr(tok, RSTART + RLENGTH, 1), where_at(off + at))
        RSTART = at; RLENGTH = len
        # Outside backticks, the words ending in .h, .cpp or .md are read as in a comment; blanked, not removed,
        # so that positions still give the line.
        plain = substr(plain, 1, off + RSTART - 1) sprintf("%" RLENGTH "s", "") substr(plain, off + RSTART + RLENGTH)
        off += RSTART + RLENGTH - 1; rest = substr(rest, RSTART + RLENGTH)
      }
    }
    {
      if (!is_md) {
        rest = plain; off = 0
        while (match(rest, /[A-Za-z_][A-Za-z0-9_]*(::~?[A-Za-z_][A-Za-z0-9_]*)+/)) {
          cite_name(substr(rest, RSTART, RLENGTH), substr(rest, RSTART + RLENGTH, 1), where_at(off + RSTART))
          off += RSTART + RLENGTH - 1; rest = substr(rest, RSTART + RLENGTH)
        }
      }
      rest = plain; off = 0
      while (match(rest, /[A-Za-z0-9_.\/-]+\.(h|cpp|md)([^A-Za-z0-9_]|$)/)) {
        tok = substr(rest, RSTART, RLENGTH); sub(/[^A-Za-z0-9_]$/, "", tok); at = RSTART; len = RLENGTH
        # Not part of a URL, an absolute path or an ellipsis.
        sp = substr(rest, at - 1, 1)
        if (at == 1 || sp !~ /[\/:~.*<]/) {
          # a.h/b.h/c.h names three files.
          while (match(tok, /\.(h|cpp|md)\//)) {
            check_path(substr(tok, 1, RSTART + RLENGTH - 2), cur_file, cur_dir, where_at(off + at))
            tok = substr(tok, RSTART + RLENGTH)
          }
          check_path(tok, cur_file, cur_dir, where_at(off + at))
        }
        off += at + len - 1; rest = substr(rest, at + len)
      }
    }
    rest = text; off = 0
    while (match(rest, /[A-Za-z0-9_.\/-]+\.md`?,? +"[^"]+"( and "[^"]+")?/)) {
      cite = substr(rest, RSTART, RLENGTH)
      md = cite; sub(/`?,? +".*/, "", md)
      m = cite; sub(/^[^"]*"/, "", m)
      name = m; sub(/".*/, "", name); gsub(/[ \t]+/, " ", name)
      check_section(md, name, cur_dir, where_at(off + RSTART))
      if (m ~ /" and "/) { name = m; sub(/^[^"]*" and "/, "", name); sub(/".*/, "", name)
                          gsub(/[ \t]+/, " ", name)
                          check_section(md, name, cur_dir, where_at(off + RSTART)) }
      off += RSTART + RLENGTH - 1; rest = substr(rest, RSTART + RLENGTH)
    }
  }

  function flush(is_md) {
    if (nlines > 0) scan(text, is_md)
    text = ""; nlines = 0
  }
  function add(line, n) {
    if (nlines > 0) text = text " "
    starts[++nlines] = length(text) + 1; lines[nlines] = n
    text = text line
  }

  # The comment of a C++ line: after the first // outside a string literal, or "".
  function comment_of(line,    i, c, quotes) {
    quotes = 0
    for (i = 1; i < length(line); ++i) {
      c = substr(line, i, 1)
      if (c == "\"" && substr(line, i - 1, 1) != "\\") quotes = !quotes
      if (!quotes && c == "/" && substr(line, i + 1, 1) == "/") return substr(line, i + 2)
    }
    return ""
  }

  BEGIN {
    while ((getline f < list) > 0) {
      files[f] = 1
      t = f; sub(/\/.*/, "", t); top[t] = 1
      d = f
      while (sub(/\/[^\/]*$/, "", d)) dirs[d] = 1
      # Every tail of the path (b/c.h, c.h), for relative citations; its folders too.
      t = f
      while (1) {
        if (!(t in by_tail)) by_tail[t] = f
        s = t
        while (sub(/\/[^\/]*$/, "", s)) if (!(s in by_tail)) by_tail[s] = s
        if (!sub(/^[^\/]*\//, "", t)) break
      }
      if (f ~ /\.md$/) { b = f; sub(/.*\//, "", b); ++md_count[b]; unique_md[b] = f }
      if (f ~ /\.md$/) mds[++nmd] = f
      else if (f ~ /\.(h|cpp)$/) cpps[++ncpp] = f
    }
    close(list)
    for (b in md_count) if (md_count[b] > 1) delete unique_md[b]
    # The allow-list: "FILE TOKEN  why", a cited token that is rightly not in the repository.
    while ((getline line < allow) > 0) {
      if (line ~ /^[ \t]*(#|$)/) continue
      split(line, w, /[ \t]+/)
      allowed[w[1] SUBSEP w[2]] = 1
    }
    close(allow)

    for (k = 1; k <= nmd; ++k) {
      cur_file = mds[k]; cur_dir = cur_file; if (!sub(/\/[^\/]*$/, "", cur_dir)) cur_dir = ""
      n = 0; fence = 0; nlines = 0; text = ""
      while ((getline line < (root "/" cur_file)) > 0) {
        ++n
        if (line ~ /^[ \t]*(```|~~~)/) { flush(1); fence = !fence; continue }
        if (fence) continue
        if (line ~ /^[ \t]*$/ || line ~ /^#/) { flush(1); if (line ~ /^#/) { add(line, n); flush(1) } continue }
        add(line, n)
      }
      flush(1)
      close(root "/" cur_file)
    }
    for (k = 1; k <= ncpp; ++k) {
      cur_file = cpps[k]; cur_dir = cur_file; if (!sub(/\/[^\/]*$/, "", cur_dir)) cur_dir = ""
      n = 0; nlines = 0; text = ""
      while ((getline line < (root "/" cur_file)) > 0) {
        ++n
        c = comment_of(line)
        if (c == "") { flush(0); continue }
        sub(/^[ \t\/]+/, "", c)
        add(c, n)
      }
      flush(0)
      close(root "/" cur_file)
    }
    for (k in allowed) if (!(k in used)) {
      split(k, w, SUBSEP)
      fail(allow_name, w[1] " no longer cites `" w[2] "`: remove it from the allow-list")
    }
    close(symfile)
    if (failures > 0) exit 1
    printf "%d Markdown files and %d C++ files, %d cited paths, %d cited sections", nmd, ncpp, paths,
      sections > countfile
  }
' || status=$?
[ "${status:-0}" -le 1 ] || { echo "check_doc_references: awk failed (status $status)" >&2; exit 2; }

# 3. Symbols: every name in a cited A::b (each part) is a word of the C++ code, comments left out, and the last two
# parts (A and b of x::A::b) are words of one same file: b is then at least declared or used where A is.
cut -f2 "$tmp/symbols" | sed 's/::~\{0,1\}/\n/g' | sort -u >"$tmp/names"
# One line per C++ file and cited name it holds: "FILE<TAB>NAME".
grep -E '\.(h|cpp)$' "$list" | while IFS= read -r f; do
  sed 's|//.*||' "$root/$f" | grep -owFf "$tmp/names" | sort -u | sed "s|^|$f\t|" || true
done >"$tmp/found"
awk -F '\t' '
  NR == FNR { found[$2] = 1; in_file[$1 SUBSEP $2] = 1; files[$1] = 1; next }
  {
    n = split($2, w, /::~?/)
    for (i = 1; i <= n; ++i) if (!(w[i] in found)) {
      print $1 ": `" $2 "`: no C++ code of the repository has " w[i]; bad = 1; next
    }
    if (n < 2) next
    for (f in files) if ((f SUBSEP w[n - 1]) in in_file && (f SUBSEP w[n]) in in_file) next
    print $1 ": `" $2 "`: no C++ file of the repository has both " w[n - 1] " and " w[n]; bad = 1
  }
  END { exit bad }' "$tmp/found" "$tmp/symbols" || status=1
symbols="$(wc -l <"$tmp/symbols")"

if [ "${status:-0}" -ne 0 ]; then
  echo "check_doc_references: the files, sections and names above are cited but do not exist" >&2
  exit 1
fi
echo "check_doc_references: $(cat "$tmp/counts") and $symbols cited names, all exist"
