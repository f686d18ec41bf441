"""The spec's NewPet rules as plain Python, for the apps whose framework validates nothing itself
(flask, aiohttp): a name that is a string, an int64 categoryId, a status of the enumeration."""

STATUSES = ("available", "pending", "sold")


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
