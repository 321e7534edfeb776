#!/usr/bin/env python3
"""Makes the frozen data dir of FrozenDatabaseTests with a *released* build of qiktionary.

It was run once, with the build of commit 830e52c (before times became integer milliseconds,
issue 12), and its output is committed: re-running it with a newer build would freeze the new
format instead of the old one. Usage: make-release-fixture.py QIKTIONARY_BINARY OUT_DIR

OUT_DIR/laptop/qiktionary.sqlite  the database of machine "laptop" (player "player" and "sam"),
                                  with synced games, games fetched from "desktop", and changes
                                  made with --no-sync that are still waiting to be sent.
OUT_DIR/cloud/                    the shared folder as the laptop last saw it.
OUT_DIR/expected/*.json           what that release printed for the database (--no-sync).
"""
import json, os, shutil, sqlite3, subprocess, sys

binary, out = sys.argv[1], os.path.abspath(sys.argv[2])
work = out + ".work"
shutil.rmtree(work, ignore_errors=True)
shutil.rmtree(out, ignore_errors=True)
os.makedirs(work)
cloud = os.path.join(work, "cloud")
env = dict(os.environ)
for key in ("QIKTIONARY_DATA_DIR", "QIKTIONARY_CLOUD_DIR", "XDG_DATA_HOME"):
    env.pop(key, None)
env["HOME"] = work

def q(machine, *args, stdin="", check=True):
    data = os.path.join(work, machine)
    run = subprocess.run([binary, "--data-dir", data, *args], input=stdin, capture_output=True, text=True, env=env)
    if check and run.returncode != 0:
        raise SystemExit(f"{machine} {args}: exit {run.returncode}: {run.stderr}")
    return run.stdout

def events(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]

def secret(pack, seed):
    """The word a seed picks, learnt by giving up in a scratch data dir."""
    got = events(q("scratch", "--no-sync", "play", "--plain", "--json", "--pack", pack, "--seed", str(seed), stdin="give-up\nquit\n"))
    return [e for e in got if e["event"] == "ended"][0]["word"]

def play(machine, start, lines, *extra):
    got = events(q(machine, *extra, "play", "--plain", "--json", *start, stdin="\n".join(lines + ["quit"]) + "\n"))
    refused = [e for e in got if e["event"] in ("rejected", "error")]
    if refused:
        raise SystemExit(f"{machine} {start} {lines}: {refused}")
    return [e for e in got if e["event"] == "started"][-1]["game"]["id"]

# The desktop plays first, so the laptop fetches games it did not play.
lemur = secret("animals", 3)
q("desktop", "--cloud-dir", cloud, "--device", "desktop", "sync")
play("desktop", ["--pack", "animals", "--seed", "3"], ["horse", lemur, "bookmark"])
desktop_open = play("desktop", ["--pack", "nature", "--seed", "5"], ["mark e out", "drum", "mark t in"])
q("desktop", "sync")

q("laptop", "--cloud-dir", cloud, "--device", "laptop", "sync")
# Won, with a hint and a bookmark.
w = secret("weather", 2)
play("laptop", ["--pack", "weather", "--seed", "2"], ["hint", "stormy", w, "bookmark"])
# Lost: every guess wrong in a 12-guess mastermind pack.
g = secret("games", 4)
wrong = [x for x in ["chip", "dart", "golf", "kite", "polo", "race", "ring", "swim", "team", "ball", "card", "dice", "pawn", "goal"] if x != g][:12]
play("laptop", ["--pack", "games", "--seed", "4"], wrong)
# Given up after two guesses, hard mode.
play("laptop", ["--pack", "everyday", "--seed", "7", "--hard"], ["lamp", "give-up"])
# Practice, won; then deleted from history.
practice = play("laptop", ["--word", "plant"], ["crane", "plant"])
# The daily word, given up.
play("laptop", ["--daily"], ["hint", "give-up"])
# Player sam, one finished game.
sw = secret("kitchen", 1)
play("laptop", ["--pack", "kitchen", "--seed", "1"], ["bread", sw, "bookmark"], "--player", "sam")
q("laptop", "--player", "player", "sync")
q("laptop", "sync")  # fetches the desktop's open game
# Changes made offline: still waiting to be sent.
play("laptop", ["--pack", "nature", "--seed", "9", "--hard"], ["hint", "drum", "mark a out", "mark s in"], "--no-sync")
q("laptop", "--no-sync", "history", "delete", practice, "--yes", check=False)
play("laptop", ["--pack", "animals", "--seed", "11"], ["horse", "give-up", "bookmark"], "--no-sync")

os.makedirs(os.path.join(out, "expected"))
shutil.copytree(cloud, os.path.join(out, "cloud"))
os.makedirs(os.path.join(out, "laptop"))
# One file, no WAL beside it.
sqlite3.connect(os.path.join(work, "laptop", "qiktionary.sqlite")).execute(
    "VACUUM INTO ?", (os.path.join(out, "laptop", "qiktionary.sqlite"),))

def expect(name, *args):
    text = q("laptop", "--no-sync", *args)
    with open(os.path.join(out, "expected", name + ".json"), "w") as f:
        f.write(text)
    return text

for player in ("player", "sam"):
    expect(f"{player}-games", "--player", player, "games", "--json")
    history = json.loads(expect(f"{player}-history", "--player", player, "history", "--json"))
    expect(f"{player}-reading-list", "--player", player, "reading-list", "--json")
    expect(f"{player}-stats", "--player", player, "stats", "--json")
    for game in history:
        expect(f"{player}-show-{game['id']}", "--player", player, "history", "show", game["id"], "--json")
shutil.rmtree(work)
print("made", out)
