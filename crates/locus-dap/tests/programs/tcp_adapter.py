"""A scripted DAP adapter over TCP, for the transport's tests (not a debugger).

`--listen` picks a port and prints "fake DAP listening at: 127.0.0.1:PORT" as Delve does;
`--port N` listens on the port it is given, as js-debug does. Every request is answered
with success and the body {"echo": command, "connection": n}; it serves connections one
after another, each on its own thread.
"""
import json
import socket
import sys
import threading


def serve(conn, number):
    data = b""
    seq = 1
    while True:
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        header, data = data.split(b"\r\n\r\n", 1)
        length = int(header.split(b":")[1])
        while len(data) < length:
            data += conn.recv(65536)
        body, data = data[:length], data[length:]
        request = json.loads(body)
        reply = {"seq": seq, "type": "response", "request_seq": request["seq"], "success": True,
                 "command": request["command"],
                 "body": {"echo": request["command"], "connection": number}}
        seq += 1
        out = json.dumps(reply).encode()
        conn.sendall(b"Content-Length: %d\r\n\r\n" % len(out) + out)


def main():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    port = int(sys.argv[2]) if sys.argv[1] == "--port" else 0
    server.bind(("127.0.0.1", port))
    server.listen()
    if sys.argv[1] == "--listen":
        print("fake DAP listening at: 127.0.0.1:%d" % server.getsockname()[1], flush=True)
    number = 0
    while True:
        conn, _ = server.accept()
        number += 1
        threading.Thread(target=serve, args=(conn, number), daemon=True).start()


main()
