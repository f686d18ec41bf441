"""The service as an aiohttp developer writes it from the spec, with aiohttp's own defaults:
request.json() for bodies, a {pet_id:\\d+} route for petId, web.json_response for answers, and
middlewares that check the key and answer every HTTP error (a 500 too) with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import asyncio
import os
import sys

from aiohttp import web

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


def fail(status, code, message):
    return web.json_response({"code": code, "message": message, "status": status}, status=status)


@web.middleware
async def errors(request, handler):
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return fail(error.status, error.reason.lower().replace(" ", "_"), error.reason)
    except Exception:
        return fail(500, "internal", "internal error")


@web.middleware
async def authenticate(request, handler):
    if request.headers.get("Authorization") != f"Bearer {API_KEY}":
        return fail(401, "unauthorized", "send Authorization: Bearer <key>")
    return await handler(request)


routes = web.RouteTableDef()


@routes.get("/v1/pets")
async def list_pets(request):
    page, problem = listed(pets, request.query)
    if problem is not None:
        return fail(400, *problem)
    return web.json_response(page)


@routes.post("/v1/pets")
async def create_pet(request):
    try:
        body = await request.json()
    except ValueError:
        return fail(400, "malformed_json", "the body is no JSON")
    problem = new_pet_problem(body)
    if problem is not None:
        return fail(400, "validation_failed", problem)
    pet = stored(pets, body)
    return web.json_response(pet, status=201, headers={"Location": f"/v1/pets/{pet['id']}"})


@routes.get(r"/v1/pets/{pet_id:\d+}")
async def get_pet(request):
    pet_id = int(request.match_info["pet_id"])
    for pet in pets:
        if pet["id"] == pet_id:
            return web.json_response(pet, headers=DEPRECATION)
    answer = fail(404, "not_found", f"no pet {pet_id}")
    answer.headers.extend(DEPRECATION)
    return answer


async def main():
    app = web.Application(middlewares=[errors, authenticate])
    app.add_routes(routes)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    exit_when_stdin_closes()
    print(f"listening on {runner.addresses[0][1]}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
