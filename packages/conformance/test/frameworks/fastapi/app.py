"""The service as a FastAPI developer writes it from the spec, with FastAPI's own defaults:
Pydantic models for the body and the answers, typed query and path parameters, HTTPBearer for the
key, and exception handlers that answer validation and HTTP errors with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import os
import sys
import threading
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

# The Python apps' deprecation headers and uvicorn listener (frameworks/pet_rules.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pet_rules import DEPRECATION, serve_on_uvicorn  # noqa: E402

API_KEY = os.environ["API_KEY"]
Status = Literal["available", "pending", "sold"]
Int64 = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]


class NewPet(BaseModel):
    name: str
    categoryId: Int64
    status: Status | None = None


class Pet(NewPet):
    id: Int64


def fail(status, code, message, headers=None):
    return JSONResponse(
        {"code": code, "message": message, "status": status}, status, headers=headers
    )


bearer = HTTPBearer()


def authenticate(credentials: Annotated[HTTPAuthorizationCredentials, Depends(bearer)]):
    if credentials.credentials != API_KEY:
        raise HTTPException(401, "unknown key")


app = FastAPI(dependencies=[Depends(authenticate)])
pets: list[Pet] = []
storing = threading.Lock()


@app.exception_handler(StarletteHTTPException)
async def http_error(_request, error):
    return fail(error.status_code, "http_error", str(error.detail), error.headers)


@app.exception_handler(RequestValidationError)
async def validation_error(_request, error):
    problems = "; ".join(e["msg"] for e in error.errors())
    return fail(400, "validation_failed", problems)


@app.get("/v1/pets", response_model=list[Pet], response_model_exclude_unset=True)
def list_pets(
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    status: Status | None = None,
):
    return [pet for pet in pets if status is None or pet.status == status][:limit]


@app.post("/v1/pets", status_code=201, response_model=Pet, response_model_exclude_unset=True)
def create_pet(new_pet: NewPet, response: Response):
    # A sync handler runs in the thread pool: one pet at a time gets the next id.
    with storing:
        pet = Pet(id=len(pets) + 1, **new_pet.model_dump(exclude_unset=True))
        pets.append(pet)
    response.headers["Location"] = f"/v1/pets/{pet.id}"
    return pet


@app.get("/v1/pets/{pet_id}", response_model=Pet, response_model_exclude_unset=True)
def get_pet(pet_id: int, response: Response):
    for pet in pets:
        if pet.id == pet_id:
            response.headers.update(DEPRECATION)
            return pet
    return fail(404, "not_found", f"no pet {pet_id}", DEPRECATION)


if __name__ == "__main__":
    serve_on_uvicorn(app)
