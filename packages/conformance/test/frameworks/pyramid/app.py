"""The service as a Pyramid developer writes it from the spec, with Pyramid's own defaults, on
waitress: routes with a `{pet_id:\\d+}` placeholder, view_config views with the json renderer,
request.json_body for bodies, a security policy and a default permission that ask every view for
the key (its forbidden view answers 401), and exception views that answer every HTTP error (a 500
too) with an Error.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import os
import sys

from pyramid.config import Configurator
from pyramid.httpexceptions import HTTPBadRequest, HTTPException
from pyramid.response import Response
from pyramid.security import Allowed, Denied
from pyramid.view import exception_view_config, forbidden_view_config, view_config

# The spec's rules the Python apps share (frameworks/pet_rules.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pet_rules import (  # noqa: E402
    DEPRECATION,
    listed,
    new_pet_problem,
    serve_on_waitress,
    stored,
)

API_KEY = os.environ["API_KEY"]

pets = []


def fail(status, code, message, headers=None):
    response = Response(
        json_body={"code": code, "message": message, "status": status}, status=status
    )
    response.headers.update(headers or {})
    return response


class BearerKeyPolicy:
    """Every view needs the permission "use", which the valid key grants."""

    def identity(self, request):
        if request.headers.get("Authorization") == f"Bearer {API_KEY}":
            return "client"
        return None

    def authenticated_userid(self, request):
        return self.identity(request)

    def permits(self, request, context, permission):
        if self.identity(request) is None:
            return Denied("no valid key")
        return Allowed("valid key")

    def remember(self, request, userid, **kw):
        return []

    def forget(self, request, **kw):
        return []


@forbidden_view_config()
def unauthorized(exc, request):
    return fail(401, "unauthorized", "send Authorization: Bearer <key>")


@exception_view_config(HTTPException)
def http_error(exc, request):
    return fail(exc.code, exc.title.lower().replace(" ", "_"), exc.detail or exc.explanation)


@exception_view_config(Exception)
def server_error(exc, request):
    return fail(500, "internal_error", "internal error")


@view_config(route_name="pets", request_method="GET", renderer="json")
def list_pets(request):
    page, problem = listed(pets, request.GET)
    if problem is not None:
        return fail(400, *problem)
    return page


@view_config(route_name="pets", request_method="POST", renderer="json")
def create_pet(request):
    try:
        body = request.json_body
    except ValueError:
        raise HTTPBadRequest("the body is no JSON")
    problem = new_pet_problem(body)
    if problem is not None:
        return fail(400, "validation_failed", problem)
    pet = stored(pets, body)
    request.response.status = 201
    request.response.location = f"/v1/pets/{pet['id']}"
    return pet


@view_config(route_name="pet", request_method="GET", renderer="json")
def get_pet(request):
    pet_id = int(request.matchdict["pet_id"])
    for pet in pets:
        if pet["id"] == pet_id:
            request.response.headers.update(DEPRECATION)
            return pet
    return fail(404, "not_found", f"no pet {pet_id}", DEPRECATION)


def make_app():
    with Configurator() as config:
        config.set_security_policy(BearerKeyPolicy())
        config.set_default_permission("use")
        config.add_route("pets", "/v1/pets")
        config.add_route("pet", r"/v1/pets/{pet_id:\d+}")
        config.scan()
        return config.make_wsgi_app()


app = make_app()


if __name__ == "__main__":
    serve_on_waitress(app)
