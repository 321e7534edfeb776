#!/usr/bin/env bash
# Builds Resources/dictionary/words.txt, the list of allowed guesses, from SCOWL
# as Debian packages it (wamerican-large). Run it again after a SCOWL update and
# commit the result: the game never reads /usr/share/dict at run time.
set -euo pipefail
cd "$(dirname "$0")/.."

source_list=/usr/share/dict/american-english-large
if [ ! -f "$source_list" ]; then
  echo "installing wamerican-large (SCOWL size 70)…" >&2
  apt-get install -y wamerican-large >/dev/null
fi

out=Resources/dictionary
mkdir -p "$out"
# Lowercase a–z only drops proper nouns (capitalised), possessives ('s) and
# accented spellings; the game plays words of 4 to 7 letters.
LC_ALL=C grep -E '^[a-z]{4,7}$' "$source_list" | LC_ALL=C sort -u > "$out/words.txt"
cp /usr/share/doc/wamerican-large/copyright "$out/SCOWL-NOTICE.txt"
echo "wrote $(wc -l < "$out/words.txt") words to $out/words.txt" >&2

# The common tier: the words of words.txt that are also in SCOWL's size-50 list
# (Debian's wamerican, the same SCOWL source and licence). Every secret word of a
# pack is in it (BundledContentTests), and hint words can be drawn from it.
common_list=/usr/share/dict/american-english
if [ ! -f "$common_list" ]; then
  echo "installing wamerican (SCOWL size 50)…" >&2
  apt-get install -y wamerican >/dev/null
fi
LC_ALL=C grep -E '^[a-z]{4,7}$' "$common_list" | LC_ALL=C sort -u | LC_ALL=C comm -12 - "$out/words.txt" > "$out/common.txt"
echo "wrote $(wc -l < "$out/common.txt") words to $out/common.txt" >&2
