"""The service as a Litestar developer writes it from the spec, with Litestar's own defaults:
msgspec Structs for the body and the answers, typed query and path parameters, an authentication
middleware for the key, and exception handlers that answer HTTP errors (a 500 too) with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import os
import sys
from typing import Annotated, Literal

from litestar import Litestar, Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException, NotAuthorizedException
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from litestar.middleware.base import DefineMiddleware
from litestar.params import Parameter
from msgspec import Meta, Struct

# The Python apps' deprecation headers and uvicorn listener (frameworks/pet_rules.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pet_rules import DEPRECATION, serve_on_uvicorn  # noqa: E402

API_KEY = os.environ["API_KEY"]
Status = Literal["available", "pending", "sold"]
Int64 = Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)]


class NewPet(Struct):
    name: str
    categoryId: Int64
    status: Status | None = None


# A status left out stays out of the answer: omit_defaults leaves out what equals its default.
class Pet(Struct, omit_defaults=True):
    id: Int64
    name: str
    categoryId: Int64
    status: Status | None = None


pets: list[Pet] = []


def fail(status, code, message, headers=None):
    body = {"code": code, "message": message, "status": status}
    return Response(body, status_code=status, headers=headers)


def http_error(request: Request, error: HTTPException) -> Response:
    code = type(error).__name__.removesuffix("Exception").lower() or "http_error"
    return fail(error.status_code, code, error.detail)


def server_error(request: Request, error: Exception) -> Response:
    return fail(500, "internal", "internal error")


class KeyCheck(AbstractAuthenticationMiddleware):
    async def authenticate_request(self, connection: ASGIConnection) -> AuthenticationResult:
        if connection.headers.get("Authorization") != f"Bearer {API_KEY}":
            raise NotAuthorizedException("send Authorization: Bearer <key>")
        return AuthenticationResult(user="client", auth=None)


@get("/v1/pets")
async def list_pets(
    limit: Annotated[int, Parameter(ge=1, le=100)] = 20, status: Status | None = None
) -> list[Pet]:
    return [pet for pet in pets if status is None or pet.status == status][:limit]


@post("/v1/pets")
async def create_pet(data: NewPet) -> Response[Pet]:
    pet = Pet(id=len(pets) + 1, name=data.name, categoryId=data.categoryId, status=data.status)
    pets.append(pet)
    return Response(pet, status_code=201, headers={"Location": f"/v1/pets/{pet.id}"})


@get("/v1/pets/{pet_id:int}")
async def get_pet(pet_id: int) -> Response:
    for pet in pets:
        if pet.id == pet_id:
            return Response(pet, headers=DEPRECATION)
    return fail(404, "not_found", f"no pet {pet_id}", DEPRECATION)


app = Litestar(
    [list_pets, create_pet, get_pet],
    middleware=[DefineMiddleware(KeyCheck)],
    exception_handlers={HTTPException: http_error, Exception: server_error},
)


if __name__ == "__main__":
    serve_on_uvicorn(app)
