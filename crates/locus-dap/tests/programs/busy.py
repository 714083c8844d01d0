import time

n = 0
started = time.monotonic()
print("busy", flush=True)
while time.monotonic() - started < 60:
    n += 1
