--[[
The Animal Store pet API as a Lua developer writes it from the spec with lua-http's server and
lua-cjson's defaults: one handler that matches the method and the path, http.util for the query
and the path's escapes, cjson for bodies, tonumber for integers, and an Error body for every
answer that is one.

Usage: API_KEY=... lua5.2 app.lua  (listens on 127.0.0.1, port 0; prints "listening on PORT";
stops when its stdin closes, so that it never outlives the test that started it)
]]
local http_server = require "http.server"
local http_headers = require "http.headers"
local http_util = require "http.util"
local cjson = require "cjson"
local cqueues_socket = require "cqueues.socket"

local key = os.getenv("API_KEY")
if key == nil then
	io.stderr:write("API_KEY is required\n")
	os.exit(2)
end
local expected_authorization = "Bearer " .. key

local pets = {} -- oldest first
local STATUSES = { available = true, pending = true, sold = true }

local function answer(stream, status, body, extra)
	local headers = http_headers.new()
	headers:append(":status", tostring(status))
	headers:append("content-type", "application/json")
	for name, value in pairs(extra or {}) do
		headers:append(name, value)
	end
	assert(stream:write_headers(headers, false))
	assert(stream:write_chunk(cjson.encode(body), true))
end

-- The spec's Error body.
local function fail(stream, status, code, message, extra)
	answer(stream, status, { code = code, message = message, status = status }, extra)
end

-- An integer, as tonumber reads a number: nil when it is none.
local function integer(text)
	local n = tonumber(text)
	if n == nil or n % 1 ~= 0 then return nil end
	return n
end

local function list_pets(stream, params)
	local limit = 20
	if params.limit ~= nil then
		limit = integer(params.limit)
		if limit == nil or limit < 1 or limit > 100 then
			return fail(stream, 400, "invalid_limit", "limit is an integer from 1 to 100")
		end
	end
	if params.status ~= nil and not STATUSES[params.status] then
		return fail(stream, 400, "invalid_status", "status is one of available, pending, sold")
	end
	local shown = {}
	for _, pet in ipairs(pets) do
		if #shown >= limit then break end
		if params.status == nil or pet.status == params.status then
			shown[#shown + 1] = pet
		end
	end
	answer(stream, 200, shown)
end

local function create_pet(stream, headers)
	local text = assert(stream:get_body_as_string())
	local content_type = headers:get("content-type") or ""
	if not content_type:match("^application/json") then
		return fail(stream, 415, "unsupported_media_type", "the body is application/json")
	end
	local ok, body = pcall(cjson.decode, text)
	if not ok or type(body) ~= "table" then
		return fail(stream, 400, "validation_failed", "the body is a JSON NewPet")
	end
	if type(body.name) ~= "string" then
		return fail(stream, 400, "validation_failed", "name is a string, and required")
	end
	if type(body.categoryId) ~= "number" or body.categoryId % 1 ~= 0 then
		return fail(stream, 400, "validation_failed", "categoryId is an integer, and required")
	end
	if body.status ~= nil and not STATUSES[body.status] then
		return fail(stream, 400, "validation_failed", "status is one of available, pending, sold")
	end
	local pet = { id = #pets + 1, name = body.name, categoryId = body.categoryId, status = body.status }
	pets[#pets + 1] = pet
	answer(stream, 201, pet, { location = "/v1/pets/" .. pet.id })
end

-- getPet is deprecated: every answer says so, and names its successor.
local DEPRECATED = {
	deprecation = "@1767225600",
	sunset = "Thu, 05 Dec 2030 00:00:00 GMT",
	link = '</v1/pets>; rel="successor-version"',
}

local function get_pet(stream, id_text)
	local id = integer(http_util.decodeURIComponent(id_text))
	if id == nil then
		return fail(stream, 400, "invalid_pet_id", "petId is an int64 integer", DEPRECATED)
	end
	local pet = pets[id]
	if pet == nil then return fail(stream, 404, "not_found", "no such pet", DEPRECATED) end
	answer(stream, 200, pet, DEPRECATED)
end

local function reply(_, stream)
	local headers = assert(stream:get_headers())
	local method = headers:get(":method")
	local path, query = headers:get(":path"):match("^([^?]*)%??(.*)$")
	local params = {}
	for name, value in http_util.query_args(query) do
		params[name] = value
	end
	local is_pets = path == "/v1/pets" and (method == "GET" or method == "POST")
	local id_text = path:match("^/v1/pets/([^/]+)$")
	local is_pet = id_text ~= nil and method == "GET"
	if (is_pets or is_pet) and headers:get("authorization") ~= expected_authorization then
		return fail(stream, 401, "unauthorized", "send Authorization: Bearer <key>")
	end
	if is_pets and method == "GET" then return list_pets(stream, params) end
	if is_pets then return create_pet(stream, headers) end
	if is_pet then return get_pet(stream, id_text) end
	fail(stream, 404, "not_found", "no such resource")
end

local server = assert(http_server.listen {
	host = "127.0.0.1",
	port = 0,
	onstream = reply,
	onerror = function(_, context, op, err)
		io.stderr:write(op .. " on " .. tostring(context) .. " failed: " .. tostring(err) .. "\n")
	end,
})
assert(server:listen())
local _, _, port = server:localname()
io.stdout:write("listening on " .. port .. "\n")
io.stdout:flush()

-- Stops when stdin closes.
local stdin = cqueues_socket.fdopen(0)
server.cq:wrap(function()
	while stdin:read(1) do end
	os.exit(0)
end)
assert(server:loop())
