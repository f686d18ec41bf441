"""The Flask app of app.py served by gunicorn, as Flask apps go into production, with gunicorn's
defaults: one sync worker process, its own HTTP parser and its limits on a request's head.

Usage: API_KEY=... python on_gunicorn.py  (listens on 127.0.0.1, port 0; prints "listening on
PORT"; stops, its worker with it, when its stdin closes, so that it never outlives the test that
started it)
"""

import os
import signal
import sys
import threading

from gunicorn.app.base import BaseApplication

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from app import app  # noqa: E402


def stop_when_stdin_closes():
    """Has gunicorn's master stop itself and its worker (SIGINT: at once) once stdin closes."""

    def wait_then_stop():
        sys.stdin.read()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=wait_then_stop, daemon=True).start()


def print_port(server):
    for listener in server.LISTENERS:
        print(f"listening on {listener.sock.getsockname()[1]}", flush=True)


class OnGunicorn(BaseApplication):
    def load_config(self):
        self.cfg.set("bind", ["127.0.0.1:0"])
        self.cfg.set("when_ready", print_port)
        self.cfg.set("loglevel", "warning")

    def load(self):
        return app


if __name__ == "__main__":
    stop_when_stdin_closes()
    OnGunicorn().run()
