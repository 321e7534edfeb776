// qiktionary-coach-bench: written with the coach (docs/coach.md).
print("qiktionary-coach-bench: not yet written")
