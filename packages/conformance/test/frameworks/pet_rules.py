"""The spec's rules as plain Python, for the apps whose framework validates nothing itself (flask,
aiohttp, tornado, sanic, falcon, bottle): a NewPet's name is a string, its categoryId an int64, its status
one of the enumeration; a list's limit an integer from 1 to 100 (20 when absent), its status filter
one of the enumeration; a pet is a NewPet's members and the next id; getPet answers with the
deprecation headers (which every Python app sends); and how every app stops with its stdin, with
the listeners of the apps on uvicorn and on waitress."""

import os
import socket
import sys
import threading

STATUSES = ("available", "pending", "sold")

# The headers of every getPet answer (the spec's deprecation of the operation).
DEPRECATION = {
    "Deprecation": "@1767225600",
    "Sunset": "Thu, 05 Dec 2030 00:00:00 GMT",
    "Link": '</v1/pets>; rel="successor-version"',
}


def is_int64(value):
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and -(2**63) <= value < 2**63
    )


def new_pet_problem(body):
    """Why `body` is no NewPet, or None when it is one."""
    if not isinstance(body, dict):
        return "the body is a NewPet object"
    if not isinstance(body.get("name"), str):
        return "name is a string"
    if not is_int64(body.get("categoryId")):
        return "categoryId is an int64 integer"
    if "status" in body and body["status"] not in STATUSES:
        return "status is one of " + ", ".join(STATUSES)
    return None


def listed(pets, query):
    """`pets` as listPets answers the query mapping `query`, and None; or None and the (code,
    message) of the 400 it answers."""
    try:
        limit = int(query.get("limit", "20"))
    except ValueError:
        return None, ("invalid_limit", "limit is an integer from 1 to 100")
    if not 1 <= limit <= 100:
        return None, ("invalid_limit", "limit is an integer from 1 to 100")
    status = query.get("status")
    if status is not None and status not in STATUSES:
        return None, ("invalid_status", "status is one of " + ", ".join(STATUSES))
    return [pet for pet in pets if status is None or pet.get("status") == status][:limit], None


# A threaded server (Flask's) stores from several threads: one pet at a time gets the next id.
_storing = threading.Lock()


def stored(pets, body):
    """The pet the NewPet `body` makes, with the next id, added to `pets`."""
    pet = {"name": body["name"], "categoryId": body["categoryId"]}
    if "status" in body:
        pet["status"] = body["status"]
    with _storing:
        pet = {"id": len(pets) + 1, **pet}
        pets.append(pet)
    return pet


def exit_when_stdin_closes():
    """Ends the process once its stdin closes (watched from a daemon thread), so that an app never
    outlives the test that started it."""

    def wait_then_exit():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=wait_then_exit, daemon=True).start()


def serve_on_uvicorn(app):
    """Serves the ASGI app `app` on uvicorn (the fastapi and litestar apps): on 127.0.0.1, port 0;
    prints "listening on PORT"; stops when stdin closes."""
    import uvicorn  # only the venvs of the apps on uvicorn have it

    # A TCP socket by name (protocol IPPROTO_TCP, as uvicorn's own binding makes it): asyncio turns
    # Nagle's algorithm off only on those, and with it on every answer on a kept-alive connection
    # waits for the client's delayed ACK (40 ms).
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    exit_when_stdin_closes()
    print(f"listening on {listener.getsockname()[1]}", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[listener])


def serve_on_waitress(app):
    """Serves the WSGI app `app` on waitress (the django and falcon apps): on 127.0.0.1, port 0;
    prints "listening on PORT"; stops when stdin closes."""
    from waitress import create_server  # only the venvs of the apps on waitress have it

    server = create_server(app, host="127.0.0.1", port=0)
    exit_when_stdin_closes()
    print(f"listening on {server.effective_port}", flush=True)
    server.run()
