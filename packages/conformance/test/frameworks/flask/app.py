"""The service as a Flask developer writes it from the spec, with Flask's own defaults:
request.get_json() for bodies, the <int:...> converter for petId, jsonify for answers, and an
error handler that answers every HTTP error (a 500 too) with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import os
import sys

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.serving import make_server

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

app = Flask(__name__)
pets = []


def fail(status, code, message):
    return jsonify(code=code, message=message, status=status), status


@app.errorhandler(HTTPException)
def http_error(error):
    return fail(error.code, error.name.lower().replace(" ", "_"), error.description)


@app.before_request
def authenticate():
    if request.headers.get("Authorization") != f"Bearer {API_KEY}":
        return fail(401, "unauthorized", "send Authorization: Bearer <key>")
    return None


@app.get("/v1/pets")
def list_pets():
    page, problem = listed(pets, request.args)
    if problem is not None:
        return fail(400, *problem)
    return jsonify(page)


@app.post("/v1/pets")
def create_pet():
    body = request.get_json()
    problem = new_pet_problem(body)
    if problem is not None:
        return fail(400, "validation_failed", problem)
    pet = stored(pets, body)
    return jsonify(pet), 201, {"Location": f"/v1/pets/{pet['id']}"}


@app.get("/v1/pets/<int:pet_id>")
def get_pet(pet_id):
    for pet in pets:
        if pet["id"] == pet_id:
            return jsonify(pet), 200, DEPRECATION
    answer, status = fail(404, "not_found", f"no pet {pet_id}")
    return answer, status, DEPRECATION


if __name__ == "__main__":
    server = make_server("127.0.0.1", 0, app, threaded=True)
    exit_when_stdin_closes()
    print(f"listening on {server.port}", flush=True)
    server.serve_forever()
