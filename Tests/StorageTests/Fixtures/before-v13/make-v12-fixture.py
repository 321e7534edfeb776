#!/usr/bin/env python3
"""Makes the frozen database of StorageTests' FrozenV12DatabaseTests with a build of schema v12.

It was run once, with the release build of commit 4c67bfb (the last before migration v13 kept
each record's name once), and its output is committed: re-running it with a newer build would
freeze the new schema instead of the old one. The history is the one
EndToEndTests/Fixtures/make-release-fixture.py plays (run here with the same build): games won,
lost, given up and in progress, in hard mode, with hints, a daily game, two players, games
fetched from another machine, marks, bookmarks, a synced game deleted (its deletions queued) and
changes made with --no-sync still waiting to be sent.
Usage: make-v12-fixture.py QIKTIONARY_BINARY OUT_DIR

OUT_DIR/qiktionary.sqlite     the laptop's database, one file (no WAL beside it).
OUT_DIR/export-PLAYER.json    what that build exported for each player (--no-sync).
"""
import os, shutil, subprocess, sys

binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
played = out + ".played"
shutil.rmtree(out, ignore_errors=True)
subprocess.run([sys.executable, os.path.join(here, "../../../EndToEndTests/Fixtures/make-release-fixture.py"), binary, played], check=True)
os.makedirs(out)
shutil.copy(os.path.join(played, "laptop", "qiktionary.sqlite"), os.path.join(out, "qiktionary.sqlite"))
env = dict(os.environ, HOME=played)
for key in ("QIKTIONARY_DATA_DIR", "QIKTIONARY_CLOUD_DIR", "XDG_DATA_HOME"):
    env.pop(key, None)
for player in ("player", "sam"):
    subprocess.run([binary, "--data-dir", os.path.join(played, "laptop"), "--no-sync", "--player", player, "export",
                    os.path.join(out, f"export-{player}.json")], check=True, capture_output=True, env=env)
shutil.rmtree(played)
print("made", out)
