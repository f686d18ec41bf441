package store;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.javalin.Javalin;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.UnauthorizedResponse;
import io.javalin.validation.ValidationException;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The Animal Store pet API as a Javalin developer writes it from the spec, with Javalin's
 * defaults: routes, a before-handler for the key, Javalin's validators for the parameters
 * (queryParamAsClass, pathParamAsClass), bodyValidator with records read by Javalin's default
 * Jackson mapper, and exception and error handlers that answer errors with an Error.
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

  private static final List<Pet> pets = new CopyOnWriteArrayList<>();

  public static void main(String[] args) {
    String expected = "Bearer " + System.getenv("API_KEY");
    Thread stopper = new Thread(AnimalStore::stopWhenStdinCloses, "stdin-watch");
    stopper.setDaemon(true);
    stopper.start();

    Javalin app =
        Javalin.create(
            config -> {
              config.jetty.host = "127.0.0.1";
              config.jetty.port = 0;

              config.routes.before(
                  ctx -> {
                    if (!expected.equals(ctx.header("Authorization"))) {
                      throw new UnauthorizedResponse("send Authorization: Bearer <key>");
                    }
                  });
              config.routes.get("/v1/pets", AnimalStore::listPets);
              config.routes.post("/v1/pets", AnimalStore::createPet);
              config.routes.get("/v1/pets/{petId}", AnimalStore::getPet);

              // Javalin's own errors (BadRequestResponse, 404 for an unknown path, ...) and ours.
              config.routes.exception(
                  HttpResponseException.class,
                  (e, ctx) -> fail(ctx, e.getStatus(), e.getMessage()));
              // A parameter or body that Javalin's validators refuse.
              config.routes.exception(
                  ValidationException.class,
                  (e, ctx) -> fail(ctx, 400, describe(e)));
              config.routes.exception(
                  Exception.class,
                  (e, ctx) -> fail(ctx, 500, "internal server error"));
              // An error status that no exception answered: give it an Error body too.
              for (int status : new int[] {400, 401, 404, 405, 415, 500}) {
                config.routes.error(
                    status,
                    ctx -> {
                      if (ctx.result() == null || ctx.result().isEmpty()) {
                        fail(ctx, status, HttpStatus.forStatus(status).getMessage());
                      }
                    });
              }
            });
    app.start();
    System.out.println("listening on " + app.port());
    System.out.flush();
  }

  private static void listPets(Context ctx) {
    int limit = ctx.queryParamAsClass("limit", Integer.class).getOrDefault(20);
    if (limit < 1 || limit > 100) {
      throw new BadRequestResponse("limit is an integer from 1 to 100");
    }
    Status status = ctx.queryParamAsClass("status", Status.class).getOrNull();
    ctx.json(
        pets.stream()
            .filter(pet -> status == null || pet.status() == status)
            .limit(limit)
            .toList());
  }

  private static void createPet(Context ctx) {
    NewPet body =
        ctx.bodyValidator(NewPet.class)
            .check("name", pet -> pet != null && pet.name() != null, "name is required")
            .check(
                "categoryId",
                pet -> pet != null && pet.categoryId() != null,
                "categoryId is required")
            .get();
    Pet pet;
    synchronized (pets) {
      pet = new Pet(pets.size() + 1, body.name(), body.categoryId(), body.status());
      pets.add(pet);
    }
    ctx.status(HttpStatus.CREATED).header("Location", "/v1/pets/" + pet.id()).json(pet);
  }

  private static void getPet(Context ctx) {
    ctx.header("Deprecation", "@1767225600");
    ctx.header("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
    ctx.header("Link", "</v1/pets>; rel=\"successor-version\"");
    long petId = ctx.pathParamAsClass("petId", Long.class).get();
    Pet found =
        pets.stream()
            .filter(pet -> pet.id() == petId)
            .findFirst()
            .orElseThrow(() -> new NotFoundResponse("no pet " + petId));
    ctx.json(found);
  }

  /** Answers with the spec's Error; its code is the status's name, in snake_case. */
  private static void fail(Context ctx, int status, String message) {
    String code = HttpStatus.forStatus(status).name().toLowerCase(Locale.ROOT);
    ctx.status(status).json(new Error(code, message, status));
  }

  /** "limit: TYPE_CONVERSION_FAILED; ..." from what the validators found. */
  private static String describe(ValidationException e) {
    return e.getErrors().entrySet().stream()
        .map(
            field ->
                field.getKey()
                    + ": "
                    + field.getValue().stream()
                        .map(error -> error.getMessage())
                        .collect(Collectors.joining(", ")))
        .collect(Collectors.joining("; "));
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
