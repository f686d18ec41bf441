"""The service as a Falcon developer writes it from the spec, with Falcon's own defaults, on
waitress: req.get_media() for bodies, req.get_param_as_int for the limit, an {pet_id:int} route
for petId, a middleware that checks the key, and an error serializer that writes every HTTP error
(a 500 too) as an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import json
import os
import sys

import falcon

# The spec's rules the Python apps share (frameworks/pet_rules.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pet_rules import (  # noqa: E402
    DEPRECATION,
    STATUSES,
    new_pet_problem,
    serve_on_waitress,
    stored,
)

API_KEY = os.environ["API_KEY"]

pets = []


def write_error(req, resp, error):
    status = error.status_code
    code = (error.title or "error").lower().replace(" ", "_")
    resp.content_type = falcon.MEDIA_JSON
    resp.text = json.dumps(
        {"code": code, "message": error.description or error.title, "status": status}
    )


class KeyCheck:
    def process_request(self, req, resp):
        if req.get_header("Authorization") != f"Bearer {API_KEY}":
            raise falcon.HTTPUnauthorized(description="send Authorization: Bearer <key>")


class Pets:
    def on_get(self, req, resp):
        limit = req.get_param_as_int("limit", min_value=1, max_value=100, default=20)
        status = req.get_param("status")
        if status is not None and status not in STATUSES:
            raise falcon.HTTPInvalidParam("status is one of " + ", ".join(STATUSES), "status")
        resp.media = [pet for pet in pets if status is None or pet.get("status") == status][:limit]

    def on_post(self, req, resp):
        body = req.get_media()
        problem = new_pet_problem(body)
        if problem is not None:
            raise falcon.HTTPBadRequest(title="validation failed", description=problem)
        pet = stored(pets, body)
        resp.status = falcon.HTTP_201
        resp.location = f"/v1/pets/{pet['id']}"
        resp.media = pet


class Pet:
    def on_get(self, req, resp, pet_id):
        resp.set_headers(DEPRECATION)
        for pet in pets:
            if pet["id"] == pet_id:
                resp.media = pet
                return
        raise falcon.HTTPNotFound(description=f"no pet {pet_id}")


def server_error(req, resp, error, params):
    raise falcon.HTTPInternalServerError(description="internal error")


app = falcon.App(middleware=[KeyCheck()])
app.set_error_serializer(write_error)
app.add_error_handler(Exception, server_error)
app.add_route("/v1/pets", Pets())
app.add_route("/v1/pets/{pet_id:int}", Pet())


if __name__ == "__main__":
    serve_on_waitress(app)
