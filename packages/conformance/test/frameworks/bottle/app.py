"""The service as a Bottle developer writes it from the spec, with Bottle's own defaults, on
Bottle's default server (wsgiref from the standard library: HTTP/1.0, one request per connection,
one at a time): request.json for bodies, request.query for the list, the <pet_id:int> filter for
petId, a before_request hook that checks the key, and a default error handler that answers every
HTTP error (a 500 too) with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import json
import os
import sys
from wsgiref.simple_server import WSGIServer

from bottle import BaseRequest, Bottle, HTTPResponse, request, response, run

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

# Bodies up to 16 MiB, as apps that take uploads set it (Bottle's default is 100 KiB). With the
# default, the kit's 2 MiB body gets a 413 before it is read, wsgiref closes the connection with
# the body unread, and whether the 413 or the reset reaches a client (the kit's proxy) first is
# timing.
BaseRequest.MEMFILE_MAX = 16 * 1024 * 1024

app = Bottle()
pets = []


def error_json(status, code, message):
    return json.dumps({"code": code, "message": message, "status": status})


def fail(status, code, message, headers=None):
    """An Error answer, raised as Bottle's HTTPResponse."""
    headers = {"Content-Type": "application/json", **(headers or {})}
    return HTTPResponse(error_json(status, code, message), status, headers)


def http_error(error):
    """Every HTTPError Bottle raises (404, 405, 413, the 400 of request.json, a 500) as an Error."""
    response.content_type = "application/json"
    reason = error.status_line.split(" ", 1)[1]
    message = error.body if isinstance(error.body, str) and error.body else reason
    return error_json(error.status_code, reason.lower().replace(" ", "_"), message)


app.default_error_handler = http_error


@app.hook("before_request")
def authenticate():
    if request.get_header("Authorization") != f"Bearer {API_KEY}":
        raise fail(401, "unauthorized", "send Authorization: Bearer <key>")


@app.get("/v1/pets")
def list_pets():
    page, problem = listed(pets, request.query)
    if problem is not None:
        raise fail(400, *problem)
    response.content_type = "application/json"
    return json.dumps(page)


@app.post("/v1/pets")
def create_pet():
    body = request.json
    problem = new_pet_problem(body)
    if problem is not None:
        raise fail(400, "validation_failed", problem)
    pet = stored(pets, body)
    response.status = 201
    response.set_header("Location", f"/v1/pets/{pet['id']}")
    return pet


@app.get("/v1/pets/<pet_id:int>")
def get_pet(pet_id):
    for pet in pets:
        if pet["id"] == pet_id:
            for name, value in DEPRECATION.items():
                response.set_header(name, value)
            return pet
    raise fail(404, "not_found", f"no pet {pet_id}", DEPRECATION)


class PortPrintingServer(WSGIServer):
    """wsgiref's server, as bottle.run makes it, that prints the port it got once it listens."""

    def server_activate(self):
        super().server_activate()
        exit_when_stdin_closes()
        print(f"listening on {self.server_port}", flush=True)


if __name__ == "__main__":
    # Bottle's default server: wsgiref's, as bottle.run(app) starts it.
    run(app, host="127.0.0.1", port=0, quiet=True, server_class=PortPrintingServer)
