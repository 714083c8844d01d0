n = 0
print("busy", flush=True)
while True:
    n += 1
