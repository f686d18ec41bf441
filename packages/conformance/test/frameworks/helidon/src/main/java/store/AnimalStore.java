package store;

import io.helidon.common.mapper.MapperException;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.NotFoundException;
import io.helidon.http.Status;
import io.helidon.http.UnauthorizedException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.JsonbException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The Animal Store pet API as a Helidon developer writes it from the spec, with Helidon SE's
 * defaults: routes on HttpRouting, a filter for the key, the query's and the path's parameters
 * read with Helidon's mappers (asInt, asLong), bodies read and written as records by its JSON-B
 * media support (Yasson), and error handlers that answer errors with an Error.
 *
 * <p>Usage: API_KEY=... java -jar app.jar (listens on 127.0.0.1, port 0; prints "listening on
 * PORT"; stops when its stdin closes, so that it never outlives the test that started it)
 */
public final class AnimalStore {

  public enum PetStatus {
    available,
    pending,
    sold
  }

  public record NewPet(String name, Long categoryId, PetStatus status) {}

  /** JSON-B leaves out a null member: a Pet with no status has no status member. */
  public record Pet(long id, String name, long categoryId, PetStatus status) {}

  /** The spec's Error body. */
  public record Error(String code, String message, int status) {}

  private static final List<Pet> pets = new CopyOnWriteArrayList<>();

  public static void main(String[] args) {
    String expected = "Bearer " + System.getenv("API_KEY");
    Thread stopper = new Thread(AnimalStore::stopWhenStdinCloses, "stdin-watch");
    stopper.setDaemon(true);
    stopper.start();

    WebServer server =
        WebServer.builder()
            .host("127.0.0.1")
            .port(0)
            // Without TCP_NODELAY (Helidon's default is off), Nagle's algorithm holds an answer's
            // last segment until the client's delayed ACK, some 40 ms a request.
            .connectionOptions(options -> options.tcpNoDelay(true))
            .routing(routing -> routes(routing, expected))
            .build()
            .start();
    System.out.println("listening on " + server.port());
    System.out.flush();
  }

  private static void routes(HttpRouting.Builder routing, String expected) {
    routing
        .addFilter(
            (chain, req, res) -> {
              String given = req.headers().first(HeaderNames.AUTHORIZATION).orElse(null);
              if (!expected.equals(given)) {
                throw new UnauthorizedException("send Authorization: Bearer <key>");
              }
              chain.proceed();
            })
        .get("/v1/pets", AnimalStore::listPets)
        .post("/v1/pets", AnimalStore::createPet)
        .get("/v1/pets/{petId}", AnimalStore::getPet)
        // Any other path or method: the spec's 404, with an Error.
        .any((req, res) -> fail(res, Status.NOT_FOUND_404, "no such resource"))
        // Helidon's own (a body it cannot read, ...) and ours.
        .error(HttpException.class, (req, res, e) -> fail(res, e.status(), e.getMessage()))
        // A parameter that is no number, a body that is no NewPet, a status outside the enum.
        .error(
            MapperException.class,
            (req, res, e) -> fail(res, Status.BAD_REQUEST_400, e.getMessage()))
        .error(
            JsonbException.class,
            (req, res, e) -> fail(res, Status.BAD_REQUEST_400, e.getMessage()))
        .error(
            IllegalArgumentException.class,
            (req, res, e) -> fail(res, Status.BAD_REQUEST_400, e.getMessage()))
        .error(
            Exception.class,
            (req, res, e) -> {
              System.err.println("server error: " + e);
              fail(res, Status.INTERNAL_SERVER_ERROR_500, "internal server error");
            });
  }

  private static void listPets(ServerRequest req, ServerResponse res) {
    int limit = req.query().first("limit").asInt().orElse(20);
    if (limit < 1 || limit > 100) {
      throw new IllegalArgumentException("limit is an integer from 1 to 100");
    }
    PetStatus status = req.query().first("status").map(PetStatus::valueOf).orElse(null);
    res.send(
        pets.stream()
            .filter(pet -> status == null || pet.status() == status)
            .limit(limit)
            .toList());
  }

  private static void createPet(ServerRequest req, ServerResponse res) {
    NewPet body = req.content().as(NewPet.class);
    if (body == null || body.name() == null) {
      throw new IllegalArgumentException("name is required");
    }
    if (body.categoryId() == null) {
      throw new IllegalArgumentException("categoryId is required");
    }
    Pet pet;
    synchronized (pets) {
      pet = new Pet(pets.size() + 1, body.name(), body.categoryId(), body.status());
      pets.add(pet);
    }
    res.status(Status.CREATED_201).header("Location", "/v1/pets/" + pet.id()).send(pet);
  }

  private static void getPet(ServerRequest req, ServerResponse res) {
    res.header("Deprecation", "@1767225600");
    res.header("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
    res.header("Link", "</v1/pets>; rel=\"successor-version\"");
    long petId = req.path().pathParameters().first("petId").asLong().get();
    Pet found =
        pets.stream()
            .filter(pet -> pet.id() == petId)
            .findFirst()
            .orElseThrow(() -> new NotFoundException("no pet " + petId));
    res.send(found);
  }

  /** Answers with the spec's Error; its code is the status's reason phrase, in snake_case. */
  private static void fail(ServerResponse res, Status status, String message) {
    String code = status.reasonPhrase().toLowerCase(java.util.Locale.ROOT).replace(' ', '_');
    res.status(status).send(new Error(code, message, status.code()));
  }

  private static void stopWhenStdinCloses() {
    try {
      System.in.transferTo(java.io.OutputStream.nullOutputStream());
    } catch (IOException ignored) {
      // a broken stdin counts as a closed one
    }
    System.exit(0);
  }
}
