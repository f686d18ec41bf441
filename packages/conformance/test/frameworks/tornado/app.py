"""The service as a Tornado developer writes it from the spec, with Tornado's own defaults (its
own HTTP server, not WSGI or ASGI): json.loads of self.request.body, get_argument for the query,
a ([0-9]+) route for petId, prepare() for the key, and write_error answering every HTTP error
with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import asyncio
import json
import os
import sys

import tornado.httpserver
import tornado.netutil
import tornado.web

# The spec's rules the Python apps share (frameworks/pet_rules.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pet_rules import (  # noqa: E402
    DEPRECATION,
    exit_when_stdin_closes,
    listed,
    new_pet_problem,
    stored,
)

API_KEY = os.environ["API_KEY"]

pets = []


class ApiError(tornado.web.HTTPError):
    """An answer that is an Error: its status, code and message."""

    def __init__(self, status, code, message):
        super().__init__(status)
        self.code = code
        self.message = message


class Handler(tornado.web.RequestHandler):
    def prepare(self):
        if self.request.headers.get("Authorization") != f"Bearer {API_KEY}":
            raise ApiError(401, "unauthorized", "send Authorization: Bearer <key>")

    def write_error(self, status_code, **kwargs):
        error = kwargs.get("exc_info", (None, None))[1]
        code = getattr(error, "code", self._reason.lower().replace(" ", "_"))
        message = getattr(error, "message", self._reason)
        self.finish({"code": code, "message": message, "status": status_code})


class NotFound(Handler):
    def prepare(self):
        super().prepare()
        raise ApiError(404, "not_found", "no such resource")


class PetsHandler(Handler):
    def get(self):
        query = {name: self.get_argument(name) for name in self.request.query_arguments}
        page, problem = listed(pets, query)
        if problem is not None:
            raise ApiError(400, *problem)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(page))

    def post(self):
        try:
            body = json.loads(self.request.body)
        except ValueError:
            raise ApiError(400, "malformed_json", "the body is no JSON")
        problem = new_pet_problem(body)
        if problem is not None:
            raise ApiError(400, "validation_failed", problem)
        pet = stored(pets, body)
        self.set_status(201)
        self.set_header("Location", f"/v1/pets/{pet['id']}")
        self.finish(pet)


class PetHandler(Handler):
    def prepare(self):
        super().prepare()
        for name, value in DEPRECATION.items():
            self.set_header(name, value)

    def get(self, pet_id):
        for pet in pets:
            if pet["id"] == int(pet_id):
                return self.finish(pet)
        raise ApiError(404, "not_found", f"no pet {pet_id}")


async def main():
    app = tornado.web.Application(
        [(r"/v1/pets", PetsHandler), (r"/v1/pets/([0-9]+)", PetHandler)],
        default_handler_class=NotFound,
    )
    sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
    tornado.httpserver.HTTPServer(app).add_sockets(sockets)
    port = sockets[0].getsockname()[1]
    exit_when_stdin_closes()
    print(f"listening on {port}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
