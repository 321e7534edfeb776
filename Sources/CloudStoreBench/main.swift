print("cloudstore-bench: not built yet")
