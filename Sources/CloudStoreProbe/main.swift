print("cloudstore-probe: not built yet")
