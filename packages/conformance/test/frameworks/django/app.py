"""The service as a Django REST framework developer writes it from the spec, with DRF's defaults:
serializers for the body and the answers, Django's <int:> path converter, an authentication class
for the key, and an exception handler (and 404 and 500 handlers) that answer with an Error.
Served by waitress.

Usage: API_KEY=... python app.py  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
"""

import os
import sys
import threading

from django.conf import settings

# The Python apps' waitress listener (frameworks/pet_rules.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pet_rules import serve_on_waitress  # noqa: E402

settings.configure(
    DEBUG=False,
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    SECRET_KEY="a-test-app-without-secrets",
    # What `django-admin startproject` sets up that DRF's browsable API needs.
    INSTALLED_APPS=[
        "django.contrib.contenttypes",
        "django.contrib.auth",
        "django.contrib.staticfiles",
        "rest_framework",
    ],
    TEMPLATES=[
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "APP_DIRS": True,
            "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
        }
    ],
    STATIC_URL="static/",
    MIDDLEWARE=["django.middleware.common.CommonMiddleware"],
    REST_FRAMEWORK={
        "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
        "UNAUTHENTICATED_USER": None,
        "EXCEPTION_HANDLER": f"{__name__}.error_answer",
    },
)

import django  # noqa: E402

django.setup()

from django.http import JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402
from rest_framework import authentication, exceptions, serializers, status  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.views import APIView, exception_handler  # noqa: E402

STATUSES = ["available", "pending", "sold"]
DEPRECATED = {
    "Deprecation": "@1767225600",
    "Sunset": "Thu, 05 Dec 2030 00:00:00 GMT",
    "Link": '</v1/pets>; rel="successor-version"',
}
pets = []
storing = threading.Lock()


class Caller:
    is_authenticated = True


class BearerKey(authentication.BaseAuthentication):
    def authenticate(self, request):
        if request.headers.get("Authorization") != f"Bearer {os.environ['API_KEY']}":
            return None
        return (Caller(), None)

    def authenticate_header(self, request):
        return "Bearer"


def error_body(status_code, code, message):
    return {"code": code, "message": message, "status": status_code}


def error_answer(exc, context):
    response = exception_handler(exc, context)
    if response is not None:
        code = getattr(exc, "default_code", "error")
        response.data = error_body(response.status_code, code, str(exc.detail))
    return response


class NewPetSerializer(serializers.Serializer):
    name = serializers.CharField()
    categoryId = serializers.IntegerField(min_value=-(2**63), max_value=2**63 - 1)
    status = serializers.ChoiceField(choices=STATUSES, required=False)


class PetSerializer(NewPetSerializer):
    id = serializers.IntegerField()


class PetView(APIView):
    authentication_classes = [BearerKey]


class PetList(PetView):
    def get(self, request):
        try:
            limit = int(request.query_params.get("limit", 20))
        except ValueError:
            raise exceptions.ValidationError("limit is an integer from 1 to 100")
        if not 1 <= limit <= 100:
            raise exceptions.ValidationError("limit is an integer from 1 to 100")
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in STATUSES:
            raise exceptions.ValidationError("status is one of available, pending, sold")
        listed = [pet for pet in pets if wanted is None or pet.get("status") == wanted]
        return Response(PetSerializer(listed[:limit], many=True).data)

    def post(self, request):
        new_pet = NewPetSerializer(data=request.data)
        new_pet.is_valid(raise_exception=True)
        # waitress serves from several threads: one pet at a time gets the next id.
        with storing:
            pet = {"id": len(pets) + 1, **new_pet.validated_data}
            pets.append(pet)
        answer = Response(PetSerializer(pet).data, status=status.HTTP_201_CREATED)
        answer["Location"] = f"/v1/pets/{pet['id']}"
        return answer


class PetDetail(PetView):
    def get(self, request, pet_id):
        for pet in pets:
            if pet["id"] == pet_id:
                return Response(PetSerializer(pet).data, headers=DEPRECATED)
        body = error_body(404, "not_found", f"no pet {pet_id}")
        return Response(body, status=404, headers=DEPRECATED)


def not_found(request, exception=None):
    return JsonResponse(error_body(404, "not_found", "no such resource"), status=404)


def server_error(request):
    return JsonResponse(error_body(500, "internal_error", "internal server error"), status=500)


urlpatterns = [
    path("v1/pets", PetList.as_view()),
    path("v1/pets/<int:pet_id>", PetDetail.as_view()),
]
handler404 = not_found
handler500 = server_error


if __name__ == "__main__":
    from django.core.wsgi import get_wsgi_application

    serve_on_waitress(get_wsgi_application())
