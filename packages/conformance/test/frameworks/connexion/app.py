"""The service as a Connexion developer writes it: the contract's OpenAPI document (its 3.0
edition, for tools that read no 3.1) drives the routes, the key check and the validation of every
request, with Connexion's defaults. The handlers are named by operationId, the key check is the
bearer scheme's `x-bearerInfoFunc`, and Connexion's problems are answered with the spec's Error
body.

Usage: API_KEY=... OPENAPI_DOCUMENT=openapi-3.0.json python app.py  (listens on 127.0.0.1, port 0;
prints "listening on PORT"; stops when its stdin closes, so that it never outlives the test that
started it)
"""

import json
import os
import sys
import traceback

from connexion import AsyncApp
from connexion.exceptions import ProblemException
from connexion.lifecycle import ConnexionResponse
from connexion.options import SwaggerUIOptions
from connexion.resolver import Resolver
from starlette.exceptions import HTTPException

# The Python apps' deprecation headers, store and uvicorn listener (frameworks/pet_rules.py).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from pet_rules import DEPRECATION, serve_on_uvicorn, stored  # noqa: E402

DOCUMENT = os.environ["OPENAPI_DOCUMENT"]
API_KEY = os.environ["API_KEY"]

pets = []


def check_key(token):
    """The bearer scheme's check: the claims of a valid key, None for any other."""
    return {"sub": "client"} if token == API_KEY else None


def list_pets(limit=20, status=None, after=None):
    listed = (p for p in pets if (status is None or p.get("status") == status))
    return [p for p in listed if after is None or p["id"] > after][:limit]


def create_pet(body):
    pet = stored(pets, body)
    return pet, 201, {"Location": f"/v1/pets/{pet['id']}"}


def get_pet(petId):  # noqa: N803 (the document's name)
    for pet in pets:
        if pet["id"] == petId:
            return pet, 200, DEPRECATION
    return error_body(404, "not_found", f"no pet {petId}"), 404, DEPRECATION


HANDLERS = {"listPets": list_pets, "createPet": create_pet, "getPet": get_pet}


def error_body(status, code, message):
    return {"code": code, "message": message, "status": status}


def error_answer(status, code, message):
    return ConnexionResponse(
        status_code=status,
        content_type="application/json",
        body=json.dumps(error_body(status, code, message)),
    )


def problem(request, error: ProblemException):
    code = (error.title or "error").lower().replace(" ", "_")
    return error_answer(error.status, code, error.detail or error.title or "error")


def http_error(request, error: HTTPException):
    return error_answer(error.status_code, "http_error", error.detail or "error")


def server_error(request, error: Exception):
    traceback.print_exception(error)
    return error_answer(500, "internal", "internal error")


with open(DOCUMENT, encoding="utf-8") as file:
    document = json.load(file)
document["components"]["securitySchemes"]["bearerAuth"]["x-bearerInfoFunc"] = "__main__.check_key"

app = AsyncApp(__name__, swagger_ui_options=SwaggerUIOptions(swagger_ui=False))
app.add_api(document, resolver=Resolver(function_resolver=HANDLERS.__getitem__))
app.add_error_handler(ProblemException, problem)
app.add_error_handler(HTTPException, http_error)
app.add_error_handler(Exception, server_error)


if __name__ == "__main__":
    serve_on_uvicorn(app)
