"""The service as a CherryPy developer writes it from the spec, with CherryPy's own defaults, on
its own server (cheroot): the json_in and json_out tools for bodies and answers, the
MethodDispatcher with a GET and a POST per resource, a tool that checks the key before the
handler, and an error page that writes every HTTP error (a 500 too) as an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import json
import os
import sys

import cherrypy

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


def error_body(status, code, message):
    cherrypy.response.headers["Content-Type"] = "application/json"
    return json.dumps({"code": code, "message": message, "status": status})


def error_page(status, message, traceback, version):
    code = int(status.split(" ")[0])
    return error_body(code, status.split(" ", 1)[1].lower().replace(" ", "_"), message)


def server_error():
    cherrypy.response.status = 500
    cherrypy.response.body = [error_body(500, "internal_error", "internal error").encode()]


def check_key():
    if cherrypy.request.headers.get("Authorization") != f"Bearer {API_KEY}":
        raise cherrypy.HTTPError(401, "send Authorization: Bearer <key>")


cherrypy.tools.check_key = cherrypy.Tool("before_handler", check_key, priority=10)


def fail(status, code, message):
    cherrypy.response.status = status
    return {"code": code, "message": message, "status": status}


@cherrypy.expose
@cherrypy.popargs("pet_id")
class Pets:
    @cherrypy.tools.json_out()
    def GET(self, pet_id=None, **query):
        if pet_id is not None:
            return self.get_pet(pet_id)
        found, problem = listed(pets, query)
        if problem is not None:
            return fail(400, *problem)
        return found

    @cherrypy.tools.json_in()
    @cherrypy.tools.json_out()
    def POST(self, pet_id=None, **query):
        if pet_id is not None:
            raise cherrypy.HTTPError(405)
        body = cherrypy.request.json
        problem = new_pet_problem(body)
        if problem is not None:
            return fail(400, "validation_failed", problem)
        pet = stored(pets, body)
        cherrypy.response.status = 201
        cherrypy.response.headers["Location"] = f"/v1/pets/{pet['id']}"
        return pet

    def get_pet(self, pet_id):
        cherrypy.response.headers.update(DEPRECATION)
        try:
            wanted = int(pet_id)
        except ValueError:
            return fail(400, "invalid_pet_id", "petId is an integer")
        for pet in pets:
            if pet["id"] == wanted:
                return pet
        return fail(404, "not_found", f"no pet {wanted}")


if __name__ == "__main__":
    cherrypy.config.update(
        {
            "server.socket_host": "127.0.0.1",
            "server.socket_port": 0,
            "environment": "production",
            "log.screen": False,
            "error_page.default": error_page,
            "request.error_response": server_error,
        }
    )
    config = {
        "/": {
            "request.dispatch": cherrypy.dispatch.MethodDispatcher(),
            "tools.check_key.on": True,
        }
    }
    cherrypy.tree.mount(Pets(), "/v1/pets", config)
    exit_when_stdin_closes()
    cherrypy.engine.start()
    print(f"listening on {cherrypy.server.bound_addr[1]}", flush=True)
    cherrypy.engine.block()
