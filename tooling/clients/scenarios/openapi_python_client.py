"""The scenario with a client made by openapi-python-client, as a client developer writes it.

Run by test/openapi-python-client.test.ts with the generated package on PYTHONPATH and the API's
address and key in ANIMAL_STORE_BASE_URL and ANIMAL_STORE_API_KEY. Prints what it saw as JSON.
"""

import json
import os
import uuid

from animal_store_client import AuthenticatedClient
from animal_store_client.api.pets import create_pet, get_pet, list_pets
from animal_store_client.models import ErrorBody, ErrorCode, NewPet, Pet, PetStatus
from animal_store_client.types import UNSET

base_url = os.environ["ANIMAL_STORE_BASE_URL"]
api = AuthenticatedClient(base_url=base_url, token=os.environ["ANIMAL_STORE_API_KEY"])


def explain(code):
    """What a client does about an error, by its code: the generated ErrorCode enum."""
    match code:
        case ErrorCode.VALIDATION_FAILED | ErrorCode.MALFORMED_JSON:
            return "fix the request"
        case ErrorCode.UNAUTHORIZED:
            return "check the key"
        case ErrorCode.NOT_FOUND | ErrorCode.GONE:
            return "nothing there"
        case _:
            return "report it"


def failure(response):
    """The status and Error body of a failed call."""
    assert isinstance(response.parsed, ErrorBody), response.content
    code = response.parsed.code
    assert isinstance(code, ErrorCode) and explain(code), code
    return {
        "status": response.status_code,
        "code": code.value,
        "fields": sorted({detail.path for detail in response.parsed.details or []}),
    }


rex = NewPet(name="Rex", category_id=3, status=PetStatus.PENDING)
key = f"py-{uuid.uuid4()}"
created = create_pet.sync_detailed(client=api, body=rex, idempotency_key=key)
retried = create_pet.sync_detailed(client=api, body=rex, idempotency_key=key)
assert isinstance(created.parsed, Pet) and isinstance(retried.parsed, Pet), created.content
for name in ("Max", "Ida"):
    create_pet.sync_detailed(
        client=api, body=NewPet(name=name, category_id=3, status=PetStatus.PENDING)
    )

pages = []
# From Rex on: after the id before it, so that only the pets made here show in a store others
# share too (ids, and so after, start at 1).
after = created.parsed.id - 1 if created.parsed.id > 1 else None
while True:
    page = list_pets.sync_detailed(
        client=api, status=PetStatus.PENDING, limit=2, after=UNSET if after is None else after
    )
    assert isinstance(page.parsed, list), page.content
    assert all(pet.status is PetStatus.PENDING for pet in page.parsed)
    pages.append([pet.name for pet in page.parsed])
    # The next page: the same query, after the id in the declared Next-After header.
    after = page.headers.get("Next-After")
    if after is None:
        break
    after = int(after)

fetched = get_pet.sync_detailed(client=api, pet_id=created.parsed.id)
assert isinstance(fetched.parsed, Pet), fetched.content
stranger = AuthenticatedClient(base_url=base_url, token="wrong")

print(
    json.dumps(
        {
            "created": {"status": created.status_code, "pet": created.parsed.to_dict()},
            "retried": {
                "sameId": retried.parsed.id == created.parsed.id,
                "replayed": retried.headers.get("Idempotency-Replayed"),
            },
            "pages": pages,
            "fetched": {
                "name": fetched.parsed.name,
                "deprecation": fetched.headers.get("Deprecation"),
                "sunset": fetched.headers.get("Sunset"),
            },
            "invalid": failure(
                create_pet.sync_detailed(client=api, body=NewPet(name="", category_id=1))
            ),
            "unauthorized": failure(list_pets.sync_detailed(client=stranger)),
            "missing": failure(get_pet.sync_detailed(client=api, pet_id=2**40)),
        }
    )
)
