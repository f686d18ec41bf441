/**
 * The Animal Store pet API as a Ktor developer writes it from the spec, with Ktor's defaults:
 * routes, an application plugin that checks the key on every call, query and path parameters read
 * as strings and converted with Kotlin's toIntOrNull/toLongOrNull, a body read by call.receive
 * through ContentNegotiation's json() (kotlinx.serialization with Ktor's DefaultJson, left as it
 * is), and StatusPages handlers that answer every error with an Error.
 *
 * Usage: API_KEY=... java -jar app.jar (listens on 127.0.0.1, port 0; prints "listening on
 * PORT"; stops when its stdin closes, so that it never outlives the test that started it)
 */
@file:JvmName("AnimalStore")
@file:OptIn(ExperimentalSerializationApi::class)

package store

import io.ktor.http.HttpStatusCode
import io.ktor.serialization.kotlinx.json.json
import io.ktor.server.application.Application
import io.ktor.server.application.ApplicationCall
import io.ktor.server.application.ServerReady
import io.ktor.server.application.createApplicationPlugin
import io.ktor.server.application.install
import io.ktor.server.engine.embeddedServer
import io.ktor.server.netty.Netty
import io.ktor.server.plugins.BadRequestException
import io.ktor.server.plugins.ContentTransformationException
import io.ktor.server.plugins.NotFoundException
import io.ktor.server.plugins.UnsupportedMediaTypeException
import io.ktor.server.plugins.contentnegotiation.ContentNegotiation
import io.ktor.server.plugins.statuspages.StatusPages
import io.ktor.server.request.receive
import io.ktor.server.response.header
import io.ktor.server.response.respond
import io.ktor.server.routing.get
import io.ktor.server.routing.post
import io.ktor.server.routing.route
import io.ktor.server.routing.routing
import java.util.concurrent.CopyOnWriteArrayList
import kotlin.concurrent.thread
import kotlin.system.exitProcess
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.EncodeDefault
import kotlinx.serialization.ExperimentalSerializationApi
import kotlinx.serialization.SerialName
import kotlinx.serialization.Serializable

@Serializable
enum class PetStatus {
  @SerialName("available") AVAILABLE,
  @SerialName("pending") PENDING,
  @SerialName("sold") SOLD,
}

@Serializable data class NewPet(val name: String, val categoryId: Long, val status: PetStatus? = null)

/** A Pet with no status has no status member (json() encodes defaults, so it is said here). */
@Serializable
data class Pet(
  val id: Long,
  val name: String,
  val categoryId: Long,
  @EncodeDefault(EncodeDefault.Mode.NEVER) val status: PetStatus? = null,
)

/** The spec's Error body. */
@Serializable data class Error(val code: String, val message: String, val status: Int)

/** An error the app answers with a status of its own (401); StatusPages turns it into an Error. */
class HttpError(val status: HttpStatusCode, message: String) : RuntimeException(message)

private val pets = CopyOnWriteArrayList<Pet>()

fun main() {
  val expected = "Bearer " + System.getenv("API_KEY")
  thread(isDaemon = true, name = "stdin-watch") { stopWhenStdinCloses() }

  val server = embeddedServer(Netty, port = 0, host = "127.0.0.1") { animalStore(expected) }
  // Netty's threads do not keep the JVM alive: start(wait = true) does, so the port is printed
  // once the server is ready.
  server.monitor.subscribe(ServerReady) {
    val port = runBlocking { server.engine.resolvedConnectors().first().port }
    println("listening on $port")
    System.out.flush()
  }
  server.start(wait = true)
}

fun Application.animalStore(expected: String) {
  install(ContentNegotiation) { json() }

  install(StatusPages) {
    // Ktor's own errors (a body call.receive could not read, ...) and ours.
    exception<HttpError> { call, e -> call.fail(e.status, e.message) }
    exception<BadRequestException> { call, e -> call.fail(HttpStatusCode.BadRequest, e.message) }
    exception<ContentTransformationException> { call, e ->
      call.fail(HttpStatusCode.BadRequest, e.message)
    }
    exception<UnsupportedMediaTypeException> { call, e ->
      call.fail(HttpStatusCode.UnsupportedMediaType, e.message)
    }
    exception<NotFoundException> { call, e -> call.fail(HttpStatusCode.NotFound, e.message) }
    exception<Throwable> { call, _ ->
      call.fail(HttpStatusCode.InternalServerError, "internal server error")
    }
    // An error status that no exception answered (no route, no such method): an Error too.
    status(
      HttpStatusCode.BadRequest,
      HttpStatusCode.Unauthorized,
      HttpStatusCode.NotFound,
      HttpStatusCode.MethodNotAllowed,
      HttpStatusCode.UnsupportedMediaType,
      HttpStatusCode.InternalServerError,
    ) { call, status ->
      call.fail(status, status.description)
    }
  }

  install(
    createApplicationPlugin("ApiKey") {
      onCall { call ->
        if (call.request.headers["Authorization"] != expected) {
          throw HttpError(HttpStatusCode.Unauthorized, "send Authorization: Bearer <key>")
        }
      }
    }
  )

  routing {
    route("/v1/pets") {
      get { listPets(call) }
      post { createPet(call) }
      get("/{petId}") { getPet(call) }
    }
  }
}

private suspend fun listPets(call: ApplicationCall) {
  val limitParam = call.request.queryParameters["limit"]
  val limit = if (limitParam == null) 20 else limitParam.toIntOrNull() ?: 0
  if (limit < 1 || limit > 100) {
    throw BadRequestException("limit is an integer from 1 to 100")
  }
  val statusParam = call.request.queryParameters["status"]
  val status =
    statusParam?.let { value ->
      PetStatus.entries.firstOrNull { it.name.lowercase() == value }
        ?: throw BadRequestException("status is one of available, pending, sold")
    }
  call.respond(pets.filter { status == null || it.status == status }.take(limit))
}

private suspend fun createPet(call: ApplicationCall) {
  val body = call.receive<NewPet>()
  val pet: Pet
  synchronized(pets) {
    pet = Pet(pets.size + 1L, body.name, body.categoryId, body.status)
    pets.add(pet)
  }
  call.response.header("Location", "/v1/pets/${pet.id}")
  call.respond(HttpStatusCode.Created, pet)
}

private suspend fun getPet(call: ApplicationCall) {
  call.response.header("Deprecation", "@1767225600")
  call.response.header("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
  call.response.header("Link", "</v1/pets>; rel=\"successor-version\"")
  val petId =
    call.parameters["petId"]?.toLongOrNull() ?: throw BadRequestException("petId is an integer")
  val found = pets.firstOrNull { it.id == petId } ?: throw NotFoundException("no pet $petId")
  call.respond(found)
}

/** Answers with the spec's Error; its code is the status's name, in snake_case. */
private suspend fun ApplicationCall.fail(status: HttpStatusCode, message: String?) {
  val code = status.description.lowercase().replace(' ', '_')
  respond(status, Error(code, message ?: status.description, status.value))
}

private fun stopWhenStdinCloses() {
  try {
    System.`in`.transferTo(java.io.OutputStream.nullOutputStream())
  } catch (ignored: java.io.IOException) {
    // a broken stdin counts as a closed one
  }
  exitProcess(0)
}
