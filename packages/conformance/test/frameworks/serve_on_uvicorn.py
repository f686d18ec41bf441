"""Serves an ASGI app on uvicorn for the Python apps on it (fastapi, litestar): listens on
127.0.0.1, port 0; prints "listening on PORT"; stops when its stdin closes, so that it never
outlives the test that started it."""

import os
import socket
import sys
import threading

import uvicorn


def stop_when_stdin_closes():
    sys.stdin.read()
    os._exit(0)


def serve_on_uvicorn(app):
    # A TCP socket by name (protocol IPPROTO_TCP, as uvicorn's own binding makes it): asyncio turns
    # Nagle's algorithm off only on those, and with it on every answer on a kept-alive connection
    # waits for the client's delayed ACK (40 ms).
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    print(f"listening on {listener.getsockname()[1]}", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[listener])
