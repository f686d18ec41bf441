package store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * The Animal Store pet API as a JAX-RS developer writes it from the spec, with Jersey's defaults:
 * a resource class whose parameters JAX-RS converts (@QueryParam, @PathParam, an entity read by
 * Jersey's Jackson provider), a request filter for the key, and exception mappers that answer
 * every error (a 500 too) with an Error.
 *
 * <p>Usage: API_KEY=... java -jar app.jar (listens on 127.0.0.1, port 0; prints "listening on
 * PORT"; stops when its stdin closes, so that it never outlives the test that started it)
 */
@Path("/v1/pets")
@Produces(MediaType.APPLICATION_JSON)
public final class AnimalStore {

  public enum Status {
    available,
    pending,
    sold
  }

  public record NewPet(String name, Long categoryId, Status status) {}

  /** A Pet with no status has no status member. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Pet(long id, String name, long categoryId, Status status) {}

  /** The spec's Error body. */
  public record Error(String code, String message, int status) {}

  private static final List<Pet> pets = new CopyOnWriteArrayList<>();

  @GET
  public List<Pet> listPets(
      @QueryParam("limit") @DefaultValue("20") int limit, @QueryParam("status") Status status) {
    if (limit < 1 || limit > 100) {
      throw new BadRequestException("limit is an integer from 1 to 100");
    }
    return pets.stream()
        .filter(pet -> status == null || pet.status() == status)
        .limit(limit)
        .toList();
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response createPet(NewPet body) {
    if (body == null || body.name() == null) {
      throw new BadRequestException("name is required");
    }
    if (body.categoryId() == null) {
      throw new BadRequestException("categoryId is required");
    }
    Pet pet;
    synchronized (pets) {
      pet = new Pet(pets.size() + 1, body.name(), body.categoryId(), body.status());
      pets.add(pet);
    }
    return Response.status(201).header("Location", "/v1/pets/" + pet.id()).entity(pet).build();
  }

  @GET
  @Path("{petId}")
  public Response getPet(@PathParam("petId") long petId) {
    Response.ResponseBuilder answer =
        pets.stream()
            .filter(pet -> pet.id() == petId)
            .findFirst()
            .map(Response::ok)
            .orElseGet(() -> error(404, "no pet " + petId));
    return answer
        .header("Deprecation", "@1767225600")
        .header("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
        .header("Link", "</v1/pets>; rel=\"successor-version\"")
        .build();
  }

  /** The spec's Error; its code is the status's name, in snake_case. */
  static Response.ResponseBuilder error(int status, String message) {
    Response.Status known = Response.Status.fromStatusCode(status);
    String code = known == null ? "error" : known.name().toLowerCase(Locale.ROOT);
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(new Error(code, message, status));
  }

  /** Refuses a request without the key. */
  public static final class KeyCheck implements ContainerRequestFilter {
    private static final String EXPECTED = "Bearer " + System.getenv("API_KEY");

    @Override
    public void filter(ContainerRequestContext request) {
      if (!EXPECTED.equals(request.getHeaderString("Authorization"))) {
        request.abortWith(error(401, "send Authorization: Bearer <key>").build());
      }
    }
  }

  /** JAX-RS's and our own HTTP errors: 400, 404, 405, 415 ... */
  public static final class HttpErrors implements ExceptionMapper<WebApplicationException> {
    @Override
    public Response toResponse(WebApplicationException e) {
      return error(e.getResponse().getStatus(), e.getMessage()).build();
    }
  }

  /** A body that is no JSON, or that Jackson cannot read into a NewPet. */
  public static final class JsonErrors implements ExceptionMapper<JsonProcessingException> {
    @Override
    public Response toResponse(JsonProcessingException e) {
      return error(400, e.getOriginalMessage()).build();
    }
  }

  /** Anything else. */
  public static final class ServerErrors implements ExceptionMapper<Throwable> {
    @Override
    public Response toResponse(Throwable e) {
      return error(500, "internal server error").build();
    }
  }

  public static void main(String[] args) {
    Thread stopper = new Thread(AnimalStore::stopWhenStdinCloses, "stdin-watch");
    stopper.setDaemon(true);
    stopper.start();
    ResourceConfig config =
        new ResourceConfig(
                AnimalStore.class,
                KeyCheck.class,
                HttpErrors.class,
                JsonErrors.class,
                ServerErrors.class)
            // Jersey's own mappers of Jackson's errors answer plain text: ours answer an Error.
            .register(JacksonFeature.withoutExceptionMappers());
    HttpServer server =
        GrizzlyHttpServerFactory.createHttpServer(URI.create("http://127.0.0.1:0/"), config);
    System.out.println("listening on " + server.getListener("grizzly").getPort());
    System.out.flush();
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
