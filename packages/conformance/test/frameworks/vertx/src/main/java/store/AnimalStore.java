package store;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The Animal Store pet API as a Vert.x developer writes it from the spec, with Vert.x's defaults:
 * a Router, BodyHandler.create(), a handler for the key, the body read as a Vert.x JsonObject
 * (ctx.body().asJsonObject()) and its typed getters, ctx.queryParam and ctx.pathParam read with
 * Integer.parseInt and Long.parseLong, ctx.json for answers, and a failure handler (and the
 * router's error handlers for the statuses it answers itself) that answer errors with an Error.
 *
 * <p>Usage: API_KEY=... java -jar app.jar (listens on 127.0.0.1, port 0; prints "listening on
 * PORT"; stops when its stdin closes, so that it never outlives the test that started it)
 */
public final class AnimalStore {

  private static final Set<String> STATUSES = Set.of("available", "pending", "sold");

  /** The pets, as Pet objects: {id, name, categoryId, status?}. Touched on the event loop only. */
  private static final List<JsonObject> pets = new ArrayList<>();

  public static void main(String[] args) {
    String expected = "Bearer " + System.getenv("API_KEY");
    Thread stopper = new Thread(AnimalStore::stopWhenStdinCloses, "stdin-watch");
    stopper.setDaemon(true);
    stopper.start();

    Vertx vertx = Vertx.vertx();
    Router router = Router.router(vertx);

    router
        .route()
        .handler(
            ctx -> {
              if (expected.equals(ctx.request().getHeader("Authorization"))) {
                ctx.next();
              } else {
                fail(ctx, 401, "send Authorization: Bearer <key>");
              }
            });
    router.route().handler(BodyHandler.create());
    router.get("/v1/pets").handler(AnimalStore::listPets);
    router.post("/v1/pets").handler(AnimalStore::createPet);
    router.get("/v1/pets/:petId").handler(AnimalStore::getPet);

    // ctx.fail(status, ...) and exceptions thrown by a handler.
    router
        .route()
        .failureHandler(
            ctx -> {
              int status = ctx.statusCode();
              String message =
                  ctx.failure() != null && ctx.failure().getMessage() != null && status < 500
                      ? ctx.failure().getMessage()
                      : HttpResponseStatus.valueOf(status).reasonPhrase();
              fail(ctx, status, message);
            });
    // What the router answers itself (no route for the path, none for the method, a path or query
    // it cannot decode) and any failure no failure handler answered: an Error too.
    for (int status : new int[] {400, 404, 405, 413, 415, 500}) {
      router.errorHandler(
          status, ctx -> fail(ctx, status, HttpResponseStatus.valueOf(status).reasonPhrase()));
    }

    vertx
        .createHttpServer()
        .requestHandler(router)
        .listen(0, "127.0.0.1")
        .onSuccess(
            server -> {
              System.out.println("listening on " + server.actualPort());
              System.out.flush();
            })
        .onFailure(
            e -> {
              e.printStackTrace();
              System.exit(1);
            });
  }

  private static void listPets(RoutingContext ctx) {
    int limit;
    List<String> limits = ctx.queryParam("limit");
    try {
      limit = limits.isEmpty() ? 20 : Integer.parseInt(limits.get(0));
    } catch (NumberFormatException e) {
      ctx.fail(400, new IllegalArgumentException("limit is an integer from 1 to 100"));
      return;
    }
    if (limit < 1 || limit > 100) {
      ctx.fail(400, new IllegalArgumentException("limit is an integer from 1 to 100"));
      return;
    }
    List<String> statuses = ctx.queryParam("status");
    String status = statuses.isEmpty() ? null : statuses.get(0);
    if (status != null && !STATUSES.contains(status)) {
      ctx.fail(400, new IllegalArgumentException("status is one of available, pending, sold"));
      return;
    }
    JsonArray listed = new JsonArray();
    for (JsonObject pet : pets) {
      if (listed.size() < limit && (status == null || status.equals(pet.getString("status")))) {
        listed.add(pet);
      }
    }
    ctx.json(listed);
  }

  private static void createPet(RoutingContext ctx) {
    JsonObject body;
    String name;
    Long categoryId;
    String status;
    try {
      body = ctx.body().asJsonObject();
      if (body == null) {
        ctx.fail(400, new IllegalArgumentException("the body is a NewPet"));
        return;
      }
      name = body.getString("name");
      categoryId = body.getLong("categoryId");
      status = body.getString("status");
    } catch (DecodeException e) {
      ctx.fail(400, new IllegalArgumentException("the body is no JSON object: " + e.getMessage()));
      return;
    } catch (ClassCastException e) {
      // asJsonObject() on another JSON value, or getLong() on something other than a number.
      ctx.fail(400, new IllegalArgumentException("the body is no NewPet"));
      return;
    }
    if (name == null) {
      ctx.fail(400, new IllegalArgumentException("name is required"));
      return;
    }
    if (categoryId == null) {
      ctx.fail(400, new IllegalArgumentException("categoryId is required"));
      return;
    }
    if (status != null && !STATUSES.contains(status)) {
      ctx.fail(400, new IllegalArgumentException("status is one of available, pending, sold"));
      return;
    }
    JsonObject pet =
        new JsonObject()
            .put("id", (long) pets.size() + 1)
            .put("name", name)
            .put("categoryId", categoryId);
    if (status != null) {
      pet.put("status", status);
    }
    pets.add(pet);
    ctx.response().setStatusCode(201).putHeader("Location", "/v1/pets/" + pet.getLong("id"));
    ctx.json(pet);
  }

  private static void getPet(RoutingContext ctx) {
    ctx.response()
        .putHeader("Deprecation", "@1767225600")
        .putHeader("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
        .putHeader("Link", "</v1/pets>; rel=\"successor-version\"");
    long petId;
    try {
      petId = Long.parseLong(ctx.pathParam("petId"));
    } catch (NumberFormatException e) {
      ctx.fail(400, new IllegalArgumentException("petId is an integer"));
      return;
    }
    for (JsonObject pet : pets) {
      if (pet.getLong("id") == petId) {
        ctx.json(pet);
        return;
      }
    }
    ctx.fail(404, new IllegalArgumentException("no pet " + petId));
  }

  /** Answers with the spec's Error; its code is the status's reason phrase, in snake_case. */
  private static void fail(RoutingContext ctx, int status, String message) {
    String code =
        HttpResponseStatus.valueOf(status)
            .reasonPhrase()
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9]+", "_");
    ctx.response().setStatusCode(status);
    ctx.json(new JsonObject().put("code", code).put("message", message).put("status", status));
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
