## The Animal Store pet API as a Nim developer writes it from the spec with the standard library:
## asynchttpserver, one callback that matches the method and the path's segments, std/json for
## bodies, parseBiggestInt for integers, and an Error body for every answer that is one.
##
## Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
## when its stdin closes, so that it never outlives the test that started it)
import std/[asyncdispatch, asynchttpserver, json, os, posix, strutils, tables, uri]

const statuses = ["available", "pending", "sold"]

var pets: seq[JsonNode] # oldest first: lists and reads go in creation order
var expectedAuthorization: string

proc answer(req: Request, code: HttpCode, body: JsonNode,
            extra: seq[(string, string)] = @[]) {.async.} =
  let headers = newHttpHeaders({"Content-Type": "application/json"})
  for (name, value) in extra: headers[name] = value
  await req.respond(code, $body, headers)

## The spec's Error body.
proc fail(req: Request, code: HttpCode, error, message: string,
          extra: seq[(string, string)] = @[]) {.async.} =
  await req.answer(code, %*{"code": error, "message": message, "status": code.int}, extra)

## Whether `text` is an integer within [low, high], as parseBiggestInt reads one, put in `value`.
proc integerWithin(text: string, low, high: BiggestInt, value: var BiggestInt): bool =
  try:
    value = parseBiggestInt(text)
    result = value >= low and value <= high
  except ValueError:
    result = false

proc listPets(req: Request) {.async.} =
  var query = initTable[string, string]()
  for key, value in decodeQuery(req.url.query): query[key] = value
  var limit: BiggestInt = 20
  if query.hasKey("limit") and not integerWithin(query["limit"], 1, 100, limit):
    await req.fail(Http400, "invalid_limit", "limit is an integer from 1 to 100")
    return
  let status = query.getOrDefault("status")
  if query.hasKey("status") and status notin statuses:
    await req.fail(Http400, "invalid_status", "status is one of available, pending, sold")
    return
  var shown = newJArray()
  for pet in pets:
    if shown.len >= limit: break
    if query.hasKey("status") and pet{"status"}.getStr != status: continue
    shown.add pet
  await req.answer(Http200, shown)

proc createPet(req: Request) {.async.} =
  let mediaType = req.headers.getOrDefault("Content-Type").toString.split(';')[0]
  if mediaType.strip.toLowerAscii != "application/json":
    await req.fail(Http415, "unsupported_media_type", "the body is application/json")
    return
  var body: JsonNode
  try:
    body = parseJson(req.body)
  except JsonParsingError:
    await req.fail(Http400, "validation_failed", "the body is no JSON")
    return
  var problem = ""
  if body.kind != JObject: problem = "the body is a JSON object"
  elif body{"name"}.isNil or body["name"].kind != JString:
    problem = "name is a string, and required"
  elif body{"categoryId"}.isNil or body["categoryId"].kind != JInt:
    problem = "categoryId is an integer, and required"
  elif body.hasKey("status") and (body["status"].kind != JString or
      body["status"].getStr notin statuses):
    problem = "status is one of available, pending, sold"
  if problem != "":
    await req.fail(Http400, "validation_failed", problem)
    return
  let pet = %*{"id": pets.len + 1, "name": body["name"], "categoryId": body["categoryId"]}
  if body.hasKey("status"): pet["status"] = body["status"]
  pets.add pet
  await req.answer(Http201, pet, @{"Location": "/v1/pets/" & $pet["id"].getBiggestInt})

## getPet is deprecated: every answer says so, and names its successor.
proc getPet(req: Request, petId: string) {.async.} =
  let deprecation = @{"Deprecation": "@1767225600", "Sunset": "Thu, 05 Dec 2030 00:00:00 GMT",
                     "Link": "</v1/pets>; rel=\"successor-version\""}
  var id: BiggestInt
  if not integerWithin(petId, low(BiggestInt), high(BiggestInt), id):
    await req.fail(Http400, "invalid_pet_id", "petId is an int64 integer", deprecation)
    return
  for pet in pets:
    if pet["id"].getBiggestInt == id:
      await req.answer(Http200, pet, deprecation)
      return
  await req.fail(Http404, "not_found", "no such pet", deprecation)

proc handle(req: Request) {.async, gcsafe.} =
  let segments = req.url.path.split('/')
  let isPets = segments.len == 3 and segments[1] == "v1" and segments[2] == "pets"
  let isPet = segments.len == 4 and segments[1] == "v1" and segments[2] == "pets"
  let known = (isPets and req.reqMethod in {HttpGet, HttpPost}) or
    (isPet and req.reqMethod == HttpGet)
  if not known:
    await req.fail(Http404, "not_found", "no such resource")
  elif req.headers.getOrDefault("Authorization").toString != expectedAuthorization:
    await req.fail(Http401, "unauthorized", "send Authorization: Bearer <key>")
  elif isPet: await req.getPet(segments[3])
  elif req.reqMethod == HttpGet: await req.listPets()
  else: await req.createPet()

proc main() {.async.} =
  if not existsEnv("API_KEY"):
    stderr.writeLine "API_KEY is required"
    quit(2)
  expectedAuthorization = "Bearer " & getEnv("API_KEY")
  let server = newAsyncHttpServer()
  server.listen(Port(0), "127.0.0.1")
  echo "listening on ", server.getPort.uint16
  flushFile(stdout)
  # Stops when stdin closes.
  let input = AsyncFD(STDIN_FILENO)
  register(input)
  addRead(input, proc (fd: AsyncFD): bool =
    var buffer: array[256, char]
    if posix.read(cint(fd), addr buffer[0], buffer.len) <= 0: quit(0)
    false)
  while true:
    if server.shouldAcceptRequest():
      await server.acceptRequest(handle)
    else:
      await sleepAsync(10)

waitFor main()
