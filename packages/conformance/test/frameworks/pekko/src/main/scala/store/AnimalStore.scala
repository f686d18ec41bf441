package store

import org.apache.pekko.actor.ActorSystem
import org.apache.pekko.http.scaladsl.Http
import org.apache.pekko.http.scaladsl.marshallers.sprayjson.SprayJsonSupport._
import org.apache.pekko.http.scaladsl.model.headers.RawHeader
import org.apache.pekko.http.scaladsl.model.{ContentTypes, HttpEntity, HttpResponse, StatusCode, StatusCodes}
import org.apache.pekko.http.scaladsl.server.Directives._
import org.apache.pekko.http.scaladsl.server.directives.Credentials
import org.apache.pekko.http.scaladsl.server.{ExceptionHandler, RejectionHandler, Route}
import spray.json._

import java.util.concurrent.atomic.AtomicLong
import scala.collection.concurrent.TrieMap
import scala.concurrent.Await
import scala.concurrent.duration.Duration

/** The spec's bodies, and their spray-json formats (a None member is left out). */
object Model extends DefaultJsonProtocol {
  final case class NewPet(name: String, categoryId: Long, status: Option[String])
  final case class Pet(id: Long, name: String, categoryId: Long, status: Option[String])
  final case class Error(code: String, message: String, status: Int)

  implicit val newPetFormat: RootJsonFormat[NewPet] = jsonFormat3(NewPet.apply)
  implicit val petFormat: RootJsonFormat[Pet] = jsonFormat4(Pet.apply)
  implicit val errorFormat: RootJsonFormat[Error] = jsonFormat3(Error.apply)

  val Statuses: Set[String] = Set("available", "pending", "sold")
}

/**
 * The Animal Store pet API as a Pekko HTTP developer writes it from the spec, with Pekko HTTP's
 * defaults: its routing DSL (authenticateOAuth2 for the key, parameters, entity(as[...]) with
 * SprayJsonSupport, LongNumber for the id), and its default rejection and exception handlers, whose
 * answers are turned into Error bodies as Pekko's documentation shows.
 *
 * Usage: API_KEY=... java -jar app.jar (listens on 127.0.0.1, port 0; prints "listening on PORT";
 * stops when its stdin closes, so that it never outlives the test that started it)
 */
object AnimalStore {
  import Model._

  private val pets = TrieMap.empty[Long, Pet]
  private val lastId = new AtomicLong(0)

  /** An Error body in place of the text of Pekko's own answer of `status`. */
  private def errorEntity(status: StatusCode, message: String): HttpEntity.Strict = {
    val code = status.reason.toLowerCase.replace(' ', '_')
    HttpEntity(ContentTypes.`application/json`, Error(code, message, status.intValue).toJson.compactPrint)
  }

  /** Pekko's default rejection handler, its answers' text put in an Error. */
  implicit val rejectionHandler: RejectionHandler =
    RejectionHandler.default.mapRejectionResponse {
      case response @ HttpResponse(status, _, entity: HttpEntity.Strict, _) =>
        response.withEntity(errorEntity(status, entity.data.utf8String))
      case response => response
    }

  implicit val exceptionHandler: ExceptionHandler = ExceptionHandler { case e: Exception =>
    System.err.println(s"server error: $e")
    complete(HttpResponse(StatusCodes.InternalServerError, entity = errorEntity(StatusCodes.InternalServerError, "internal server error")))
  }

  private def fail(status: StatusCode, message: String): Route =
    complete(HttpResponse(status, entity = errorEntity(status, message)))

  def routes(apiKey: String): Route =
    Route.seal(
      pathPrefix("v1" / "pets") {
        authenticateOAuth2[String]("animal-store", {
          case provided @ Credentials.Provided(key) if provided.verify(apiKey) => Some(key)
          case _ => None
        }) { _ =>
          concat(
            pathEnd {
              concat(
                get {
                  parameters("limit".as[Int].withDefault(20), "status".optional) { (limit, status) =>
                    if (limit < 1 || limit > 100) fail(StatusCodes.BadRequest, "limit is an integer from 1 to 100")
                    else if (status.exists(s => !Statuses.contains(s))) fail(StatusCodes.BadRequest, "status is available, pending or sold")
                    else complete(pets.values.toSeq.sortBy(_.id).filter(p => status.forall(p.status.contains)).take(limit))
                  }
                },
                post {
                  entity(as[NewPet]) { body =>
                    if (body.status.exists(s => !Statuses.contains(s))) fail(StatusCodes.BadRequest, "status is available, pending or sold")
                    else {
                      val pet = Pet(lastId.incrementAndGet(), body.name, body.categoryId, body.status)
                      pets.put(pet.id, pet)
                      respondWithHeader(RawHeader("Location", s"/v1/pets/${pet.id}")) {
                        complete(StatusCodes.Created, pet)
                      }
                    }
                  }
                }
              )
            },
            path(LongNumber) { petId =>
              get {
                respondWithHeaders(
                  RawHeader("Deprecation", "@1767225600"),
                  RawHeader("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
                  RawHeader("Link", "</v1/pets>; rel=\"successor-version\"")
                ) {
                  pets.get(petId) match {
                    case Some(pet) => complete(pet)
                    case None => fail(StatusCodes.NotFound, s"no pet $petId")
                  }
                }
              }
            }
          )
        }
      }
    )

  def main(args: Array[String]): Unit = {
    implicit val system: ActorSystem = ActorSystem("animal-store")
    val stopper = new Thread(() => stopWhenStdinCloses(), "stdin-watch")
    stopper.setDaemon(true)
    stopper.start()
    val binding = Await.result(Http().newServerAt("127.0.0.1", 0).bind(routes(sys.env("API_KEY"))), Duration.Inf)
    println(s"listening on ${binding.localAddress.getPort}")
    System.out.flush()
  }

  private def stopWhenStdinCloses(): Unit = {
    try System.in.transferTo(java.io.OutputStream.nullOutputStream())
    catch { case _: java.io.IOException => () } // a broken stdin counts as a closed one
    System.exit(0)
  }
}
