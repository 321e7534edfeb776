# The installed layout of qiktionary, shared by scripts/install and scripts/package-deb (sourced,
# not run): how the installable binary is built, which files go where under a prefix, and how an
# install is recorded and removed. Each function reports its own failure in one line on stderr.

# Relative to the prefix, the list of what an install put there.
layout_manifest=share/qiktionary/installed-files

layout_fail() { # code message
  echo "${layout_name:-install}: $2" >&2
  exit "$1"
}

# Makes a folder if it is missing and checks that files can be written in it, before a long build.
layout_writable_folder() { # folder what
  mkdir -p -- "$1" 2>/dev/null || layout_fail 73 "cannot create $2 $1"
  [ -d "$1" ] || layout_fail 73 "$2 $1 is not a folder"
  local probe="$1/.qiktionary-write-probe.$$"
  ( : > "$probe" ) 2>/dev/null || layout_fail 73 "cannot write in $2 $1 (run as a user who can, or choose another)"
  rm -f -- "$probe"
}

# Builds the binary an install ships: release, with the Swift runtime linked in
# (--static-swift-stdlib), so it needs only the system's C libraries; and swift-argument-parser's
# generate-manual tool, the one its generate-manual plugin runs, to make the manual page.
# Without swift on PATH an earlier build in the same folder is used as it is.
layout_build() { # checkout build
  if command -v swift >/dev/null 2>&1; then
    echo "${layout_name:-install}: building in $2 (a first build takes several minutes)" >&2
    local product
    for product in qiktionary generate-manual; do
      (cd "$1" && swift build -c release --static-swift-stdlib --scratch-path "$2" --product "$product" >&2) ||
        layout_fail 70 "the build of $product failed (see above)"
    done
  fi
  [ -x "$2/release/qiktionary" ] && [ -x "$2/release/generate-manual" ] ||
    layout_fail 69 "swift is not on PATH and there is no earlier build in $2; install Swift 6 or build there first"
}

# The licence notices of everything in the binary and its data: the game, the libraries and the
# Swift runtime linked into it, and the dictionary's SCOWL notice.
layout_copyright() { # checkout build
  local apache="$2/checkouts/swift-argument-parser/LICENSE.txt"
  cat <<'EOF'
qiktionary: a word game of deduction for the terminal.

The game itself (its code, word packs and facts):
  Copyright 2026 the qiktionary maintainers.

The binary links in, besides the system's C libraries:

- The Swift runtime and standard library, Foundation (swift-corelibs-foundation and
  swift-foundation, with its ICU data) and Dispatch:
  Copyright Apple Inc. and the Swift project authors.
- swift-argument-parser: Copyright Apple Inc. and the Swift project authors.

  Both under the Apache License, version 2.0, with the Runtime Library Exception below. On
  Debian systems the full text of the Apache License 2.0 is in
  /usr/share/common-licenses/Apache-2.0.

EOF
  sed -n '/Runtime Library Exception/,$p' "$apache"
  cat <<'EOF'

- GRDB.swift, under the MIT licence:

EOF
  sed 's/^/  /' "$2/checkouts/GRDB.swift/LICENSE" | fold -s -w 96
  cat <<'EOF'

The dictionary of allowed guesses (share/qiktionary/words.txt) is made from SCOWL, as Debian
packages it in wamerican-large; its notice follows in full.

EOF
  cat "$1/Resources/dictionary/SCOWL-NOTICE.txt"
}

# Writes the installed tree, relative to a prefix, into an empty folder.
layout_stage() { # checkout build folder
  local bin="$2/release/qiktionary" out="$3" date
  install -d "$out/bin" "$out/share/qiktionary/packs" "$out/share/qiktionary/daily" "$out/share/man/man1" \
    "$out/share/bash-completion/completions" "$out/share/zsh/site-functions" \
    "$out/share/fish/vendor_completions.d" "$out/share/doc/qiktionary"
  # Symbols stripped as Debian's packages have them; the Swift metadata is kept.
  install -m 0755 "$bin" "$out/bin/qiktionary"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$out/bin/qiktionary"
  install -m 0644 "$1/Resources/dictionary/words.txt" "$out/share/qiktionary/words.txt"
  install -m 0644 "$1/Resources/dictionary/common.txt" "$out/share/qiktionary/common.txt"
  install -m 0644 "$1"/Resources/packs/*.json "$out/share/qiktionary/packs/"
  install -m 0644 "$1/Resources/daily/schedule.txt" "$out/share/qiktionary/daily/schedule.txt"
  # The manual page, from the command definitions (`qiktionary --experimental-dump-help`), dated
  # by the last commit so the same tree makes the same page.
  date=$(git -C "$1" log -1 --format=%cs 2>/dev/null || date -u +%F)
  local pages
  pages=$(mktemp -d)
  "$2/release/generate-manual" "$bin" --date "$date" --output-directory "$pages" >/dev/null ||
    layout_fail 70 "generate-manual could not make the manual page"
  install -m 0644 "$pages/qiktionary.1" "$out/share/man/man1/qiktionary.1"
  rm -rf -- "$pages"
  # bash-completion sources the file: it needs no interpreter line.
  "$bin" --generate-completion-script bash | sed '1{/^#!/d}' > "$out/share/bash-completion/completions/qiktionary"
  "$bin" --generate-completion-script zsh > "$out/share/zsh/site-functions/_qiktionary"
  "$bin" --generate-completion-script fish > "$out/share/fish/vendor_completions.d/qiktionary.fish"
  layout_copyright "$1" "$2" > "$out/share/doc/qiktionary/copyright"
  chmod 0644 "$out"/share/*/completions/* "$out"/share/zsh/site-functions/* "$out"/share/fish/*/* \
    "$out/share/doc/qiktionary/copyright"
}

# Copies a staged tree into the prefix, recording each file and each folder it had to create in
# the manifest (folders top down, so the uninstall removes them deepest first).
layout_copy() { # staged prefix
  local staged=$1 prefix=$2 relative list
  list=$(mktemp)
  # A prefix the install had to make is the install's too.
  [ "${layout_created_prefix:-false}" = true ] && echo "dir ." >> "$list"
  while IFS= read -r relative; do
    relative=${relative#./}
    if [ ! -d "$prefix/$relative" ]; then
      mkdir -- "$prefix/$relative" || { rm -f -- "$list"; return 1; }
      echo "dir $relative" >> "$list"
    fi
  done < <(cd "$staged" && find . -mindepth 1 -type d | LC_ALL=C sort)
  while IFS= read -r relative; do
    relative=${relative#./}
    cp -p -- "$staged/$relative" "$prefix/$relative" || { rm -f -- "$list"; return 1; }
    echo "file $relative" >> "$list"
  done < <(cd "$staged" && find . -type f | LC_ALL=C sort)
  echo "file $layout_manifest" >> "$list"
  cp -- "$list" "$prefix/$layout_manifest" && chmod 0644 "$prefix/$layout_manifest"
  local status=$?
  rm -f -- "$list"
  return $status
}

# Removes what the manifest under the prefix lists: the files, then the folders the install
# created, deepest first and only when empty, so anything else put there stays.
layout_uninstall() { # prefix
  local prefix=$1 kind relative
  local manifest="$prefix/$layout_manifest"
  local -a folders=()
  while read -r kind relative; do
    case "/$relative/" in
      *"/../"*) echo "${layout_name:-install}: ignored '$relative' in $manifest: it leaves the prefix" >&2; continue ;;
    esac
    case "$kind" in
      file) [ "$relative" = "$layout_manifest" ] || rm -f -- "$prefix/$relative" || return 1 ;;
      dir) folders=("$relative" "${folders[@]}") ;;
    esac
  done < "$manifest"
  rm -f -- "$manifest" || return 1
  local path
  for relative in "${folders[@]}"; do
    path="$prefix/$relative"
    [ "$relative" = . ] && path=$prefix
    if [ -d "$path" ] && ! rmdir -- "$path" 2>/dev/null; then
      echo "${layout_name:-install}: kept $path: it holds files the install did not put there" >&2
    fi
  done
}
