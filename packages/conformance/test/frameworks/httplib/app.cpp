// The Animal Store pet API as a C++ developer writes it from the spec with cpp-httplib's
// defaults: handlers on regular-expression routes, nlohmann::json for bodies, std::stoll for
// integers, and an Error body for every answer that is one (the error handler fills in those that
// cpp-httplib answers itself).
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
#include <httplib.h>

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using nlohmann::json;

namespace {

struct Pet {
  long long id;
  std::string name;
  long long categoryId;
  std::optional<std::string> status;
};

std::vector<Pet> pets;  // oldest first: lists and reads go in creation order
std::mutex petsLock;
std::string expectedAuthorization;

bool isStatus(const std::string &value) {
  return value == "available" || value == "pending" || value == "sold";
}

json petJson(const Pet &pet) {
  json out = {{"id", pet.id}, {"name", pet.name}, {"categoryId", pet.categoryId}};
  if (pet.status) out["status"] = *pet.status;
  return out;
}

void answer(httplib::Response &res, int status, const json &body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

// The spec's Error body.
void fail(httplib::Response &res, int status, const std::string &code,
          const std::string &message) {
  answer(res, status, {{"code", code}, {"message", message}, {"status", status}});
}

// Every operation needs the key: true when the request carries it, else the 401 is set.
bool hasKey(const httplib::Request &req, httplib::Response &res) {
  if (req.get_header_value("Authorization") == expectedAuthorization) return true;
  fail(res, 401, "unauthorized", "send Authorization: Bearer <key>");
  return false;
}

// A decimal integer within [min, max], as std::stoll reads one, all of the text.
std::optional<long long> readInteger(const std::string &text, long long min, long long max) {
  try {
    std::size_t end = 0;
    long long value = std::stoll(text, &end, 10);
    if (end != text.size() || value < min || value > max) return std::nullopt;
    return value;
  } catch (const std::exception &) {  // no digits, or out of range
    return std::nullopt;
  }
}

void listPets(const httplib::Request &req, httplib::Response &res) {
  if (!hasKey(req, res)) return;
  long long limit = 20;
  if (req.has_param("limit")) {
    auto given = readInteger(req.get_param_value("limit"), 1, 100);
    if (!given) return fail(res, 400, "invalid_limit", "limit is an integer from 1 to 100");
    limit = *given;
  }
  std::optional<std::string> status;
  if (req.has_param("status")) {
    status = req.get_param_value("status");
    if (!isStatus(*status)) {
      return fail(res, 400, "invalid_status", "status is one of available, pending, sold");
    }
  }
  json list = json::array();
  std::lock_guard<std::mutex> guard(petsLock);
  for (const Pet &pet : pets) {
    if (static_cast<long long>(list.size()) >= limit) break;
    if (status && pet.status != status) continue;
    list.push_back(petJson(pet));
  }
  answer(res, 200, list);
}

void createPet(const httplib::Request &req, httplib::Response &res) {
  if (!hasKey(req, res)) return;
  std::string type = req.get_header_value("Content-Type");
  if (type.substr(0, type.find(';')) != "application/json") {
    return fail(res, 415, "unsupported_media_type", "the body is application/json");
  }
  json body;
  try {
    body = json::parse(req.body);
  } catch (const json::parse_error &error) {
    return fail(res, 400, "validation_failed", std::string("the body is no JSON: ") + error.what());
  }
  if (!body.is_object()) return fail(res, 400, "validation_failed", "the body is a JSON object");
  if (!body.contains("name") || !body["name"].is_string()) {
    return fail(res, 400, "validation_failed", "name is a string, and required");
  }
  if (!body.contains("categoryId") || !body["categoryId"].is_number_integer()) {
    return fail(res, 400, "validation_failed", "categoryId is an integer, and required");
  }
  std::optional<std::string> status;
  if (body.contains("status")) {
    if (!body["status"].is_string() || !isStatus(body["status"].get<std::string>())) {
      return fail(res, 400, "validation_failed", "status is one of available, pending, sold");
    }
    status = body["status"].get<std::string>();
  }
  std::lock_guard<std::mutex> guard(petsLock);
  Pet pet{static_cast<long long>(pets.size()) + 1, body["name"].get<std::string>(),
          body["categoryId"].get<long long>(), status};
  pets.push_back(pet);
  res.set_header("Location", "/v1/pets/" + std::to_string(pet.id));
  answer(res, 201, petJson(pet));
}

// getPet is deprecated: every answer says so, and names its successor.
void getPet(const httplib::Request &req, httplib::Response &res) {
  if (!hasKey(req, res)) return;
  res.set_header("Deprecation", "@1767225600");
  res.set_header("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
  res.set_header("Link", "</v1/pets>; rel=\"successor-version\"");
  auto id = readInteger(req.matches[1], LLONG_MIN, LLONG_MAX);
  if (!id) return fail(res, 400, "invalid_pet_id", "petId is an int64 integer");
  std::lock_guard<std::mutex> guard(petsLock);
  for (const Pet &pet : pets) {
    if (pet.id == *id) return answer(res, 200, petJson(pet));
  }
  fail(res, 404, "not_found", "no such pet");
}

}  // namespace

int main() {
  const char *key = std::getenv("API_KEY");
  if (key == nullptr) {
    std::cerr << "API_KEY is required\n";
    return 2;
  }
  expectedAuthorization = std::string("Bearer ") + key;

  httplib::Server server;
  // cpp-httplib writes an answer's head and body apart: without TCP_NODELAY, Nagle's algorithm
  // holds the body until the client's delayed ACK of the head, some 40 ms a request.
  server.set_tcp_nodelay(true);
  server.Get("/v1/pets", listPets);
  server.Post("/v1/pets", createPet);
  server.Get(R"(/v1/pets/([^/]+))", getPet);
  // What cpp-httplib answers itself (no route, a request it cannot read, an exception) has no
  // body: an Error body for its status. The handlers' own Error bodies stay as they are.
  server.set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request &, httplib::Response &res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        if (res.status == 404) fail(res, 404, "not_found", "no such resource");
        else if (res.status < 500)
          fail(res, res.status, "bad_request", "the request is unreadable");
        else fail(res, res.status, "internal", "the request failed");
        return httplib::Server::HandlerResponse::Handled;
      }));

  int port = server.bind_to_any_port("127.0.0.1");
  if (port < 0) {
    std::cerr << "could not listen on 127.0.0.1\n";
    return 1;
  }
  std::thread serving([&server] { server.listen_after_bind(); });
  std::cout << "listening on " << port << std::endl;

  // Stops when stdin closes.
  for (std::string line; std::getline(std::cin, line);) {
  }
  server.stop();
  serving.join();
  return 0;
}
