"""The service as a Sanic developer writes it from the spec, with Sanic's own defaults and its own
HTTP server: request.json for bodies, a <pet_id:int> route for petId, sanic.response.json for
answers, a request middleware that checks the key, and an error handler that answers every
SanicException (a 500 too) with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import os
import socket
import sys

from sanic import Sanic
from sanic.exceptions import SanicException
from sanic.response import json

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

app = Sanic("petapp")
pets = []

# Port 0, bound here: Sanic serves on it, and the port it got is printed once it listens.
SOCKET = socket.socket()
SOCKET.bind(("127.0.0.1", 0))


def fail(status, code, message, headers=None):
    body = {"code": code, "message": message, "status": status}
    return json(body, status=status, headers=headers)


@app.exception(SanicException)
async def sanic_error(request, error):
    status = error.status_code
    return fail(status, type(error).__name__.lower(), str(error) or "error")


@app.exception(Exception)
async def server_error(request, error):
    return fail(500, "internal", "internal error")


@app.on_request
async def authenticate(request):
    if request.headers.get("Authorization") != f"Bearer {API_KEY}":
        return fail(401, "unauthorized", "send Authorization: Bearer <key>")
    return None


@app.get("/v1/pets")
async def list_pets(request):
    page, problem = listed(pets, request.args)
    if problem is not None:
        return fail(400, *problem)
    return json(page)


@app.post("/v1/pets")
async def create_pet(request):
    problem = new_pet_problem(request.json)
    if problem is not None:
        return fail(400, "validation_failed", problem)
    pet = stored(pets, request.json)
    return json(pet, status=201, headers={"Location": f"/v1/pets/{pet['id']}"})


@app.get("/v1/pets/<pet_id:int>")
async def get_pet(request, pet_id):
    for pet in pets:
        if pet["id"] == pet_id:
            return json(pet, headers=DEPRECATION)
    return fail(404, "not_found", f"no pet {pet_id}", DEPRECATION)


@app.after_server_start
async def ready(app):
    exit_when_stdin_closes()
    print(f"listening on {SOCKET.getsockname()[1]}", flush=True)


if __name__ == "__main__":
    # One process: Sanic's worker manager would serve from a child process of its own.
    app.run(sock=SOCKET, single_process=True, access_log=False, motd=False)
