@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// Every screen rendered at 80x24 and 120x40, compared with what a player should see.
/// To update after an intended change: QIKTIONARY_RECORD=/tmp/screens swift test --filter GameUITests,
/// review the files, and paste them here.
@Suite struct ScreenViewTests {
    @Test func gameAt80x24() {
        expectScreen(Fixtures.state(.guess), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Guesses ────────────────────────────────────┐┌─ Notepad ────────────────────┐
│  1  CRANE  ●●···  2 common                   ││  A·  B·  C✗  D·  E✓  F·  G·  │
│  2  MOIST  ●●···  2 common                   ││  H·  I· [J✗] K·  L· [M✗] N·  │
│  3  JUMPY  ·····  0 common                   ││  O· [P✗] Q·  R·  S·  T· [U✗] │
│  4  TRIBE  ●●●●·  4 common                   ││  V·  W·  X· [Y✗] Z·          │
│                                              ││                              │
│                                              ││ ✓ in  ✗ out  · unknown       │
│                                              ││ [A✓] the coach's words left  │
│                                              ││ Tab here to mark letters     │
│                                              │└──────────────────────────────┘
│                                              │┌─ Rules ──────────────────────┐
│                                              ││ Classic: a guess scores the  │
│                                              ││ letters it shares with the   │
│                                              ││ word, wherever they stand.   │
│                                              ││ No repeated letters.         │
│                                              ││ … F1: all the rules          ↓
└──────────────────────────────────────────────┘└──────────────────────────────┘
┌─ Guess 5 of 15 ──────────────────────────────────────────────────────────────┐
│ > _ _ _ _ _                                                    11 of 15 left │
└──────────────────────────────────────────────────────────────────────────────┘

 Enter guess  Tab notepad  F2 hint  F1 help  ^G give up  ^N new  ^D daily
""", "game")
    }

    @Test func gameAt120x40() {
        expectScreen(Fixtures.state(.guess), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Guesses ────────────────────────────────────────────────────────────────────────────┐┌─ Notepad ────────────────────┐
│  1  CRANE  ●●···  2 common                                                           ││  A·  B·  C✗  D·  E✓  F·  G·  │
│  2  MOIST  ●●···  2 common                                                           ││  H·  I· [J✗] K·  L· [M✗] N·  │
│  3  JUMPY  ·····  0 common                                                           ││  O· [P✗] Q·  R·  S·  T· [U✗] │
│  4  TRIBE  ●●●●·  4 common                                                           ││  V·  W·  X· [Y✗] Z·          │
│                                                                                      ││                              │
│                                                                                      ││ ✓ in  ✗ out  · unknown       │
│                                                                                      ││ [A✓] the coach's words left  │
│                                                                                      ││ Tab here to mark letters     │
│                                                                                      │└──────────────────────────────┘
│                                                                                      │┌─ Rules ──────────────────────┐
│                                                                                      ││ Classic: a guess scores the  │
│                                                                                      ││ letters it shares with the   │
│                                                                                      ││ word, wherever they stand.   │
│                                                                                      ││ No repeated letters.         │
│                                                                                      ││                              │
│                                                                                      ││ Win in 15 guesses or fewer.  │
│                                                                                      ││ Started on desktop.          │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
└──────────────────────────────────────────────────────────────────────────────────────┘└──────────────────────────────┘
┌─ Guess 5 of 15 ──────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ > _ _ _ _ _                                                                                            11 of 15 left │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Enter guess  Tab notepad  F2 hint  F1 help  ^G give up  ^N new  ^D daily  ^C quit
""", "game")
    }

    @Test func gameOverAt80x24() {
        expectScreen(Fixtures.state(.guess, game: Fixtures.won), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Guesses ────────────────────────────────────┐┌─ Notepad ────────────────────┐
│  3  JUMPY  ·····  0 common                   ↑│ [A✗][B✗][C✗] D· [E✓] F· [G✓] │
│  4  TRIBE  ●●●●·  4 common                   ││  H· [I✓][J✗] K·  L· [M✗][N✗] │
│  5  TIGER  ●●●●●  5 common                   ││ [O✗][P✗] Q· [R✓][S✗][T✓][U✗] │
└──────────────────────────────────────────────┘│  V·  W·  X· [Y✗] Z·          │
┌─ TIGER · coach ──────────────────────────────┐│                              │
│ You found TIGER in 5 guesses. Score 11.      ││ ✓ in  ✗ out  · unknown       │
│                                              ││ [A✓] the word, now told      │
│ A tiger's stripes are not only in its fur:   ││ Tab here to mark letters     │
│ the skin underneath is striped too. No two   │└──────────────────────────────┘
│ tigers share the same pattern, so            │┌─ Rules ──────────────────────┐
│ researchers can identify individuals from    ││ Classic: a guess scores the  │
│ camera-trap photos.                          ││ letters it shares with the   │
│                                              ││ word, wherever they stand.   │
│ b bookmark · r review · s share · n next     ││ No repeated letters.         │
│ game                                         ││ … F1: all the rules          ↓
└──────────────────────────────────────────────┘└──────────────────────────────┘
┌─ Game over ──────────────────────────────────────────────────────────────────┐
│ n next game  ·  b bookmark  ·  Tab other screens                             │
└──────────────────────────────────────────────────────────────────────────────┘

 n next game  b bookmark  r review  s share  h hard game  Tab next  F1 help
""", "gameOver")
    }

    @Test func gameOverAt120x40() {
        expectScreen(Fixtures.state(.guess, game: Fixtures.won), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Guesses ────────────────────────────────────────────────────────────────────────────┐┌─ Notepad ────────────────────┐
│  1  CRANE  ●●···  2 common                                                           ││ [A✗][B✗][C✗] D· [E✓] F· [G✓] │
│  2  MOIST  ●●···  2 common                                                           ││  H· [I✓][J✗] K·  L· [M✗][N✗] │
│  3  JUMPY  ·····  0 common                                                           ││ [O✗][P✗] Q· [R✓][S✗][T✓][U✗] │
│  4  TRIBE  ●●●●·  4 common                                                           ││  V·  W·  X· [Y✗] Z·          │
│  5  TIGER  ●●●●●  5 common                                                           ││                              │
│                                                                                      ││ ✓ in  ✗ out  · unknown       │
│                                                                                      ││ [A✓] the word, now told      │
│                                                                                      ││ Tab here to mark letters     │
│                                                                                      │└──────────────────────────────┘
│                                                                                      │┌─ Rules ──────────────────────┐
│                                                                                      ││ Classic: a guess scores the  │
│                                                                                      ││ letters it shares with the   │
│                                                                                      ││ word, wherever they stand.   │
│                                                                                      ││ No repeated letters.         │
│                                                                                      ││                              │
│                                                                                      ││ Win in 15 guesses or fewer.  │
│                                                                                      ││ Started on desktop.          │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
└──────────────────────────────────────────────────────────────────────────────────────┘│                              │
┌─ TIGER · coach ──────────────────────────────────────────────────────────────────────┐│                              │
│ You found TIGER in 5 guesses. Score 11.                                              ││                              │
│                                                                                      ││                              │
│ A tiger's stripes are not only in its fur: the skin underneath is striped too. No    ││                              │
│ two tigers share the same pattern, so researchers can identify individuals from      ││                              │
│ camera-trap photos.                                                                  ││                              │
│                                                                                      ││                              │
│ b bookmark · r review · s share · n next game                                        ││                              │
└──────────────────────────────────────────────────────────────────────────────────────┘└──────────────────────────────┘
┌─ Game over ──────────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ n next game  ·  b bookmark  ·  Tab other screens                                                                     │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 n next game  b bookmark  r review  s share  h hard game  Tab next  F1 help  ^C quit
""", "gameOver")
    }

    @Test func notepadAt80x24() {
        expectScreen({ var s = Fixtures.state(.notepad); s.board.notepadCursor = 4; return s }(), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Guesses ────────────────────────────────────┐┌─ Notepad ────────────────────┐
│  1  CRANE  ●●···  2 common                   ││  A·  B·  C✗  D·  E✓  F·  G·  │
│  2  MOIST  ●●···  2 common                   ││  H·  I· [J✗] K·  L· [M✗] N·  │
│  3  JUMPY  ·····  0 common                   ││  O· [P✗] Q·  R·  S·  T· [U✗] │
│  4  TRIBE  ●●●●·  4 common                   ││  V·  W·  X· [Y✗] Z·          │
│                                              ││                              │
│                                              ││ ✓ in  ✗ out  · unknown       │
│                                              ││ [A✓] the coach's words left  │
│                                              ││ Space, -, + to mark          │
│                                              │└──────────────────────────────┘
│                                              │┌─ Rules ──────────────────────┐
│                                              ││ Classic: a guess scores the  │
│                                              ││ letters it shares with the   │
│                                              ││ word, wherever they stand.   │
│                                              ││ No repeated letters.         │
│                                              ││ … F1: all the rules          ↓
└──────────────────────────────────────────────┘└──────────────────────────────┘
┌─ Guess 5 of 15 ──────────────────────────────────────────────────────────────┐
│ > _ _ _ _ _                                                    11 of 15 left │
└──────────────────────────────────────────────────────────────────────────────┘

 Space cycle  - out  + in  Enter back  Tab next  F1 help  ^C quit
""", "notepad")
    }

    @Test func notepadAt120x40() {
        expectScreen({ var s = Fixtures.state(.notepad); s.board.notepadCursor = 4; return s }(), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Guesses ────────────────────────────────────────────────────────────────────────────┐┌─ Notepad ────────────────────┐
│  1  CRANE  ●●···  2 common                                                           ││  A·  B·  C✗  D·  E✓  F·  G·  │
│  2  MOIST  ●●···  2 common                                                           ││  H·  I· [J✗] K·  L· [M✗] N·  │
│  3  JUMPY  ·····  0 common                                                           ││  O· [P✗] Q·  R·  S·  T· [U✗] │
│  4  TRIBE  ●●●●·  4 common                                                           ││  V·  W·  X· [Y✗] Z·          │
│                                                                                      ││                              │
│                                                                                      ││ ✓ in  ✗ out  · unknown       │
│                                                                                      ││ [A✓] the coach's words left  │
│                                                                                      ││ Space, -, + to mark          │
│                                                                                      │└──────────────────────────────┘
│                                                                                      │┌─ Rules ──────────────────────┐
│                                                                                      ││ Classic: a guess scores the  │
│                                                                                      ││ letters it shares with the   │
│                                                                                      ││ word, wherever they stand.   │
│                                                                                      ││ No repeated letters.         │
│                                                                                      ││                              │
│                                                                                      ││ Win in 15 guesses or fewer.  │
│                                                                                      ││ Started on desktop.          │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
│                                                                                      ││                              │
└──────────────────────────────────────────────────────────────────────────────────────┘└──────────────────────────────┘
┌─ Guess 5 of 15 ──────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ > _ _ _ _ _                                                                                            11 of 15 left │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Space cycle  - out  + in  Enter back  Tab next  F1 help  ^C quit
""", "notepad")
    }

    @Test func packsAt80x24() {
        expectScreen({ var s = Fixtures.state(.packs); s.packs.selection = 1; return s }(), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Packs · help: proven marks (4) ─────────────────────────────────────────────┐
│  Kitchen       4 letters  classic     ███████████████████████████████  40/40 │
│> Animals       5 letters  classic     ██████████░░░░░░░░░░░░░░░░░░░░░  12/36 │
│  Music         5 letters  mastermind  ██░░░░░░░░░░░░░░░░░░░░░░░░░░░░░   3/45 │
│  Word origins  6 letters  classic     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░   0/50 │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
└──────────────────────────────────────────────────────────────────────────────┘
┌─ Animals ────────────────────────────────────────────────────────────────────┐
│ Creatures of land, sea and sky. 15 guesses a game. Enter starts one.         │
└──────────────────────────────────────────────────────────────────────────────┘

 Enter play  h play hard  a help level  c challenge code  m matches
""", "packs")
    }

    @Test func packsAt120x40() {
        expectScreen({ var s = Fixtures.state(.packs); s.packs.selection = 1; return s }(), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Packs · help: proven marks (4) ─────────────────────────────────────────────────────────────────────────────────────┐
│  Kitchen       4 letters  classic     ████████████████████████████████████████  40/40                                │
│> Animals       5 letters  classic     █████████████░░░░░░░░░░░░░░░░░░░░░░░░░░░  12/36                                │
│  Music         5 letters  mastermind  ███░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░   3/45                                │
│  Word origins  6 letters  classic     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░   0/50                                │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘
┌─ Animals ────────────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ Creatures of land, sea and sky. 15 guesses a game. Enter starts one.                                                 │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Enter play  h play hard  a help level  c challenge code  m matches  l leaderboard  F1 help  ^C quit
""", "packs")
    }

    @Test func inProgressAt80x24() {
        expectScreen(Fixtures.state(.inProgress), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Games in progress (2) ──────────────────────────────────────────────────────┐
│> Animals  classic     4/15 guesses   2026-11-18 11:36  on laptop  (current)  │
│  Music    mastermind  2/15 guesses   2026-11-18 11:36  on desktop            │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
└──────────────────────────────────────────────────────────────────────────────┘
┌─ Guesses so far ─────────────────────────────────────────────────────────────┐
│ CRANE 2 common · MOIST 2 common · JUMPY 0 common · TRIBE 4 common            │
└──────────────────────────────────────────────────────────────────────────────┘

 Enter resume  ↑↓ choose  Tab next  F1 help  ^C quit
""", "inProgress")
    }

    @Test func inProgressAt120x40() {
        expectScreen(Fixtures.state(.inProgress), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Games in progress (2) ──────────────────────────────────────────────────────────────────────────────────────────────┐
│> Animals  classic     4/15 guesses   2026-11-18 11:36  on laptop  (current)                                          │
│  Music    mastermind  2/15 guesses   2026-11-18 11:36  on desktop                                                    │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘
┌─ Guesses so far ─────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ CRANE 2 common · MOIST 2 common · JUMPY 0 common · TRIBE 4 common                                                    │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Enter resume  ↑↓ choose  Tab next  F1 help  ^C quit
""", "inProgress")
    }

    @Test func readingListAt80x24() {
        expectScreen(Fixtures.state(.readingList), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Reading list (2) ───────────────────────────────────────────────────────────┐
│> ZEBRA  Animals           added 2026-11-18 12:16                             │
│  FLOUR  Kitchen           added 2026-11-18 11:16                             │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
└──────────────────────────────────────────────────────────────────────────────┘
┌─ ZEBRA ──────────────────────────────────────────────────────────────────────┐
│ Why zebras have stripes is an old puzzle. In experiments, biting horseflies  │
│ struggled to land on horses wearing striped coats.                           │
└──────────────────────────────────────────────────────────────────────────────┘

 Enter open  ↑↓ choose  d remove (asks)  Tab next  F1 help  ^C quit
""", "readingList")
    }

    @Test func readingListAt120x40() {
        expectScreen(Fixtures.state(.readingList), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Reading list (2) ───────────────────────────────────────────────────────────────────────────────────────────────────┐
│> ZEBRA  Animals           added 2026-11-18 12:16                                                                     │
│  FLOUR  Kitchen           added 2026-11-18 11:16                                                                     │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘
┌─ ZEBRA ──────────────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ Why zebras have stripes is an old puzzle. In experiments, biting horseflies struggled to land on horses wearing      │
│ striped coats.                                                                                                       │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Enter open  ↑↓ choose  d remove (asks)  Tab next  F1 help  ^C quit
""", "readingList")
    }

    @Test func historyAt80x24() {
        expectScreen({ var s = Fixtures.state(.history); s.history.selection = 1; return s }(), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ History (3) ────────────────────────────────────────────────────────────────┐
│    TIGER  won      5 guesses   2026-11-18 12:36  laptop  coach               │
│> ★ ZEBRA  lost     15 guesses  2026-11-18 12:06  desktop  coach              │
│    WHALE  gave-up  1 guess     2026-11-18 11:26  laptop  coach               │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
└──────────────────────────────────────────────────────────────────────────────┘
┌─ The fact of ZEBRA ──────────────────────────────────────────────────────────┐
│ Why zebras have stripes is an old puzzle.                                    │
└──────────────────────────────────────────────────────────────────────────────┘

 Enter open  r review  b bookmark  d delete  Tab next  F1 help  ^C quit
""", "history")
    }

    @Test func historyAt120x40() {
        expectScreen({ var s = Fixtures.state(.history); s.history.selection = 1; return s }(), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ History (3) ────────────────────────────────────────────────────────────────────────────────────────────────────────┐
│    TIGER  won      5 guesses   2026-11-18 12:36  laptop  coach                                                       │
│> ★ ZEBRA  lost     15 guesses  2026-11-18 12:06  desktop  coach                                                      │
│    WHALE  gave-up  1 guess     2026-11-18 11:26  laptop  coach                                                       │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘
┌─ The fact of ZEBRA ──────────────────────────────────────────────────────────────────────────────────────────────────┐
│ Why zebras have stripes is an old puzzle.                                                                            │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Enter open  r review  b bookmark  d delete  Tab next  F1 help  ^C quit
""", "history")
    }

    @Test func historyOpenAt80x24() {
        expectScreen({ var s = Fixtures.state(.history); s.history.open = true; return s }(), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Animals · classic · finished 2026-11-18 12:36 on laptop ────────────────────┐
│  1  CRANE  ●●···  2 common                                                   │
│  2  MOIST  ●●···  2 common                                                   │
│  3  JUMPY  ·····  0 common                                                   │
│  4  TRIBE  ●●●●·  4 common                                                   │
│  5  TIGER  ●●●●●  5 common                                                   │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
└──────────────────────────────────────────────────────────────────────────────┘
┌─ TIGER · coach ──────────────────────────────────────────────────────────────┐
│ You found TIGER in 5 guesses. Score 11.                                      │
│                                                                              │
│ A tiger's stripes are not only in its fur: the skin underneath is striped    │
│ too. No two tigers share the same pattern, so researchers can identify       │
│ individuals from camera-trap photos.                                         │
└──────────────────────────────────────────────────────────────────────────────┘

 Enter close  PgDn the card  r review  b bookmark  d delete  Tab next  F1 help
""", "historyOpen")
    }

    @Test func historyOpenAt120x40() {
        expectScreen({ var s = Fixtures.state(.history); s.history.open = true; return s }(), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Animals · classic · finished 2026-11-18 12:36 on laptop ────────────────────────────────────────────────────────────┐
│  1  CRANE  ●●···  2 common                                                                                           │
│  2  MOIST  ●●···  2 common                                                                                           │
│  3  JUMPY  ·····  0 common                                                                                           │
│  4  TRIBE  ●●●●·  4 common                                                                                           │
│  5  TIGER  ●●●●●  5 common                                                                                           │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘
┌─ TIGER · coach ──────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ You found TIGER in 5 guesses. Score 11.                                                                              │
│                                                                                                                      │
│ A tiger's stripes are not only in its fur: the skin underneath is striped too. No two tigers share the same pattern, │
│ so researchers can identify individuals from camera-trap photos.                                                     │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Enter close  PgDn the card  r review  b bookmark  d delete  Tab next  F1 help  ^C quit
""", "historyOpen")
    }

    @Test func statsAt80x24() {
        expectScreen(Fixtures.state(.stats), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Statistics ─────────────────────────────────────────────────────────────────┐
│ 7           6           86          4           4           5.3              │
│ Played      Won         Win %       Streak      Max streak  Avg guesses      │
│                                                                              │
│ Guess distribution (games won)                                               │
│   1 │ 0                                                                      │
│   2 │ 0                                                                      │
│   3 │ 0                                                                      │
│   4 │████████████████ 1                                                      │
│   5 │██████████████████████████████████████████████████ 3                    │
│   6 │████████████████ 1                                                      │
│   7 │████████████████ 1                                                      │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
│                                                                              │
└──────────────────────────────────────────────────────────────────────────────┘

 1 back to the game  F5 sync  Tab next  F1 help  ^C quit
""", "stats")
    }

    @Test func statsAt120x40() {
        expectScreen(Fixtures.state(.stats), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
┌─ Statistics ─────────────────────────────────────────────────────────────────────────────────────────────────────────┐
│ 7             6             86            4             4             5.3                                            │
│ Played        Won           Win %         Streak        Max streak    Avg guesses                                    │
│                                                                                                                      │
│ Guess distribution (games won)                                                                                       │
│   1 │ 0                                                                                                              │
│   2 │ 0                                                                                                              │
│   3 │ 0                                                                                                              │
│   4 │████████████████ 1                                                                                              │
│   5 │██████████████████████████████████████████████████ 3                                                            │
│   6 │████████████████ 1                                                                                              │
│   7 │████████████████ 1                                                                                              │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
│                                                                                                                      │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 1 back to the game  F5 sync  Tab next  F1 help  ^C quit
""", "stats")
    }

    @Test func helpAt80x24() {
        expectScreen({ var s = Fixtures.state(.guess); s.helpOpen = true; return s }(), 80, 24, """
 Animals 12/36 solved · classic, 5 letters       sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats  Help
┌─ Help: the rules, every key ─────────────────────────────────────────────────┐
│ This game                                                                    │
│  Classic: a guess scores the letters it shares with the word, wherever they  │
│  stand. No repeated letters.                                                 │
│                                                                              │
│  Win in 15 guesses or fewer.                                                 │
│  Started on desktop.                                                         │
│                                                                              │
│ Everywhere                                                                   │
│  Tab, S-Tab         next / previous pane                                     │
│  1 to 6             go to a screen                                           │
│  F1, ?              this help                                                │
│  F5, Ctrl-R         sync now                                                 │
│  Esc                back to the game                                         │
│  q                  quit when not typing                                     │
│  Ctrl-C             quit                                                     │
│                                                                              │
│ Game                                                                         │
│  a to z             type a guess                                            ↓│
└──────────────────────────────────────────────────────────────────────────────┘

 Esc close  ↑↓ scroll  ^C quit
""", "help")
    }

    @Test func helpAt120x40() {
        expectScreen({ var s = Fixtures.state(.guess); s.helpOpen = true; return s }(), 120, 40, """
 qiktionary · Animals 12/36 solved · classic, 5 letters                                  sync off · last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats  Help
┌─ Help: the rules, every key ─────────────────────────────────────────────────────────────────────────────────────────┐
│ This game                                                                                                            │
│  Classic: a guess scores the letters it shares with the word, wherever they stand. No repeated letters.              │
│                                                                                                                      │
│  Win in 15 guesses or fewer.                                                                                         │
│  Started on desktop.                                                                                                 │
│                                                                                                                      │
│ Everywhere                                                Notepad (Tab from the guess)                               │
│  Tab, S-Tab         next / previous pane                   arrows             move between letters                   │
│  1 to 6             go to a screen                         a to z             jump to a letter                       │
│  F1, ?              this help                              Space              cycle unknown/out/in                   │
│  F5, Ctrl-R         sync now                               - / +              mark out / in                          │
│  Esc                back to the game                       Backspace          clear the mark                         │
│  q                  quit when not typing                   Enter              back to the guess                      │
│  Ctrl-C             quit                                                                                             │
│                                                           Lists                                                      │
│ Game                                                       Up/Down, j/k       choose                                 │
│  a to z             type a guess                           PgUp/PgDn          a page; an open card (history)         │
│  Enter              submit the guess                       Home/End           first / last                           │
│  Backspace, Ctrl-H  delete a letter                        Enter              play, resume, open                     │
│  Ctrl-U             clear the guess                        h                  play hard (packs)                      │
│  F2                 a hint (counted)                       a                  help level (packs)                     │
│  Ctrl-G             give up (asks first)                   c                  challenge code (packs)                 │
│  Ctrl-N             start another game                     r                  review (history)                       │
│  Ctrl-D             today's daily word                     b                  bookmark (history)                     │
│  n, Enter           next game, once over                   m, F3              matches (F3 from the guess too)        │
│  h                  next game, hard mode                   l                  leaderboards                           │
│  b                  bookmark, once over                    d                  delete / remove (asks)                 │
│  r                  review, once over                      y / n              answer a question                      │
│  s                  share, once over                                                                                 │
│  Up/Down            scroll the guesses, or the card       Pairing a new machine                                      │
│  c                  play a challenge code                  F5                 open it (the header: not paired)       │
│                                                            0-9, A-Z           type the code 'devices add' printed    │
│                                                            Enter              join your machines                     │
│                                                            Esc                later: play on this machine alone      │
└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘

 Esc close  ↑↓ scroll  ^C quit
""", "help")
    }

    @Test func asciiBoxesWhenTheLocaleIsNotUTF8() {
        expectScreen(Fixtures.state(.guess, glyphs: .ascii), 80, 24, """
 Animals 12/36 solved | classic, 5 letters       sync off | last change: laptop
  1 Game  2 Packs  3 In progress  4 Reading list  5 History  6 Stats
+- Guesses ------------------------------------++- Notepad --------------------+
|  1  CRANE  **...  2 common                   ||  A.  B.  C-  D.  E+  F.  G.  |
|  2  MOIST  **...  2 common                   ||  H.  I. [J-] K.  L. [M-] N.  |
|  3  JUMPY  .....  0 common                   ||  O. [P-] Q.  R.  S.  T. [U-] |
|  4  TRIBE  ****.  4 common                   ||  V.  W.  X. [Y-] Z.          |
|                                              ||                              |
|                                              || + in  - out  . unknown       |
|                                              || [A+] the coach's words left  |
|                                              || Tab here to mark letters     |
|                                              |+------------------------------+
|                                              |+- Rules ----------------------+
|                                              || Classic: a guess scores the  |
|                                              || letters it shares with the   |
|                                              || word, wherever they stand.   |
|                                              || No repeated letters.         |
|                                              || ... F1: all the rules        v
+----------------------------------------------++------------------------------+
+- Guess 5 of 15 --------------------------------------------------------------+
| > _ _ _ _ _                                                    11 of 15 left |
+------------------------------------------------------------------------------+

 Enter guess  Tab notepad  F2 hint  F1 help  ^G give up  ^N new  ^D daily
""", "ascii")
    }

    @Test func tooSmallSaysSoAndWhatIsNeeded() {
        expectScreen(Fixtures.state(.guess), 39, 12, """




   terminal too small (needs 40×12)
   now 39×12: enlarge the window, or
            Ctrl-C to quit





""", "tooSmall")
        expectScreen(Fixtures.state(.guess), 80, 11, """




                        terminal too small (needs 40×12)
                now 80×11: enlarge the window, or Ctrl-C to quit





""", "tooSmall")
    }

    @Test func atTheMinimumSizeTheInputLineAndNewestGuessShow() {
        expectScreen(Fixtures.state(.guess), 40, 12, """
 Animals 12/36 solved          sync off
┌─ Guesses ────────────────────────────┐
│  4  TRIBE  ●●●●·  4 common           ↑
└──────────────────────────────────────┘
┌─ Notepad ────────────────────────────┐
│  A·  B·  C✗  D·  E✓  F·  G·  H·  I·  │
│ [J✗] K·  L· [M✗] N·  O· [P✗] Q·  R·  │
│  S·  T· [U✗] V·  W·  X· [Y✗] Z·      │
└──────────────────────────────────────┘
 > _ _ _ _ _              11 of 15 left

 Enter guess  Tab notepad  F2 hint
""", "minimum")
    }
}
