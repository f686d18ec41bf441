package store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * The Animal Store pet API as a Java developer writes it from the spec with no web framework: the
 * JDK's own HTTP server (com.sun.net.httpserver) with its defaults, one context for /v1/pets whose
 * handler matches the method and the path by hand, the query split and URLDecoder-decoded by hand,
 * Integer.parseInt and Long.parseLong for integers, records read and written by a default Jackson
 * ObjectMapper, and an Error body for every answer that is one.
 *
 * <p>Usage: API_KEY=... java -jar app.jar (listens on 127.0.0.1, port 0; prints "listening on
 * PORT"; stops when its stdin closes, so that it never outlives the test that started it)
 */
public final class AnimalStore {

  enum Status {
    available,
    pending,
    sold
  }

  record NewPet(String name, Long categoryId, Status status) {}

  /** A Pet with no status has no status member. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Pet(long id, String name, long categoryId, Status status) {}

  /** The spec's Error body. */
  record Error(String code, String message, int status) {}

  /** An answer that is an Error, thrown from a handler and answered by {@link #handle}. */
  static final class Failure extends Exception {
    final int status;

    Failure(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  private static final String PETS = "/v1/pets";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<Pet> pets = new CopyOnWriteArrayList<>();
  private static String expected;

  public static void main(String[] args) throws IOException {
    expected = "Bearer " + System.getenv("API_KEY");
    Thread stopper = new Thread(AnimalStore::stopWhenStdinCloses, "stdin-watch");
    stopper.setDaemon(true);
    stopper.start();

    // The server writes an answer's head and body apart: without TCP_NODELAY, Nagle's algorithm
    // holds the body until the client's delayed ACK of the head, some 40 ms a request. The JDK
    // reads this property once, when the server's configuration class loads.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(PETS, AnimalStore::handle);
    // Without an executor the server runs every handler on its one dispatcher thread.
    server.setExecutor(Executors.newFixedThreadPool(16));
    server.start();
    System.out.println("listening on " + server.getAddress().getPort());
    System.out.flush();
  }

  /** Every request under /v1/pets: the key, then the route. */
  private static void handle(HttpExchange exchange) throws IOException {
    try {
      if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        throw new Failure(401, "send Authorization: Bearer <key>");
      }
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (path.equals(PETS)) {
        switch (method) {
          case "GET" -> listPets(exchange);
          case "POST" -> createPet(exchange);
          default -> notAllowed(exchange, "GET, POST");
        }
      } else if (path.startsWith(PETS + "/")) {
        if (method.equals("GET")) {
          getPet(exchange, path.substring(PETS.length() + 1));
        } else {
          notAllowed(exchange, "GET");
        }
      } else {
        throw new Failure(404, "no such resource");
      }
    } catch (Failure failure) {
      fail(exchange, failure.status, failure.getMessage());
    } catch (Exception e) {
      fail(exchange, 500, "internal server error");
    } finally {
      exchange.close();
    }
  }

  private static void listPets(HttpExchange exchange) throws IOException, Failure {
    Map<String, String> query = query(exchange.getRequestURI());
    int limit = 20;
    if (query.containsKey("limit")) {
      try {
        limit = Integer.parseInt(query.get("limit"));
      } catch (NumberFormatException e) {
        throw new Failure(400, "limit is an integer from 1 to 100");
      }
    }
    if (limit < 1 || limit > 100) {
      throw new Failure(400, "limit is an integer from 1 to 100");
    }
    Status status = null;
    if (query.containsKey("status")) {
      try {
        status = Status.valueOf(query.get("status"));
      } catch (IllegalArgumentException e) {
        throw new Failure(400, "status is one of available, pending, sold");
      }
    }
    Status wanted = status;
    send(
        exchange,
        200,
        pets.stream().filter(pet -> wanted == null || pet.status() == wanted).limit(limit).toList());
  }

  private static void createPet(HttpExchange exchange) throws IOException, Failure {
    NewPet body;
    try {
      body = JSON.readValue(exchange.getRequestBody(), NewPet.class);
    } catch (JacksonException e) {
      throw new Failure(400, "the body is no NewPet: " + e.getOriginalMessage());
    }
    if (body == null || body.name() == null) {
      throw new Failure(400, "name is required");
    }
    if (body.categoryId() == null) {
      throw new Failure(400, "categoryId is required");
    }
    Pet pet;
    synchronized (pets) {
      pet = new Pet(pets.size() + 1, body.name(), body.categoryId(), body.status());
      pets.add(pet);
    }
    exchange.getResponseHeaders().set("Location", PETS + "/" + pet.id());
    send(exchange, 201, pet);
  }

  /** getPet is deprecated: every answer says so, and names its successor. */
  private static void getPet(HttpExchange exchange, String petIdText)
      throws IOException, Failure {
    exchange.getResponseHeaders().set("Deprecation", "@1767225600");
    exchange.getResponseHeaders().set("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
    exchange.getResponseHeaders().set("Link", "</v1/pets>; rel=\"successor-version\"");
    long petId;
    try {
      petId = Long.parseLong(petIdText);
    } catch (NumberFormatException e) {
      throw new Failure(400, "petId is an int64 integer");
    }
    Pet found =
        pets.stream()
            .filter(pet -> pet.id() == petId)
            .findFirst()
            .orElseThrow(() -> new Failure(404, "no pet " + petId));
    send(exchange, 200, found);
  }

  private static void notAllowed(HttpExchange exchange, String allow) throws Failure {
    exchange.getResponseHeaders().set("Allow", allow);
    throw new Failure(405, "method not allowed");
  }

  /**
   * The query's parameters, each decoded by URLDecoder (UTF-8); the first of a repeated one.
   */
  private static Map<String, String> query(URI uri) throws Failure {
    Map<String, String> params = new HashMap<>();
    String raw = uri.getRawQuery();
    if (raw == null) {
      return params;
    }
    try {
      for (String pair : raw.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        params.putIfAbsent(
            URLDecoder.decode(name, StandardCharsets.UTF_8),
            URLDecoder.decode(value, StandardCharsets.UTF_8));
      }
    } catch (IllegalArgumentException e) {
      throw new Failure(400, "malformed query: " + e.getMessage());
    }
    return params;
  }

  private static void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Answers with the spec's Error; its code is the status's name, in snake_case. */
  private static void fail(HttpExchange exchange, int status, String message) throws IOException {
    String code =
        switch (status) {
          case 400 -> "bad_request";
          case 401 -> "unauthorized";
          case 404 -> "not_found";
          case 405 -> "method_not_allowed";
          default -> "internal_server_error";
        };
    send(exchange, status, new Error(code, message, status));
  }

  private static void stopWhenStdinCloses() {
    try {
      System.in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException ignored) {
      // a broken stdin counts as a closed one
    }
    System.exit(0);
  }
}
