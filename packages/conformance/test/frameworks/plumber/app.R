# The Animal Store pet API as a plumber developer writes it from the spec, with plumber's defaults:
# a router built with pr(), a filter for the key, query parameters handed to the handler as
# arguments, req$body as plumber's JSON parser (jsonlite) reads it, the unboxed JSON serializer,
# and Error bodies from the 404 and error handlers; served by httpuv.
#
# Usage: API_KEY=... Rscript app.R  (listens on 127.0.0.1 on a free port; prints "listening on
# PORT"; stops when its stdin closes, so that it never outlives the test that started it)
library(plumber)

expected <- paste("Bearer", Sys.getenv("API_KEY"))
statuses <- c("available", "pending", "sold")
store <- new.env()
store$pets <- list()

# The spec's Error body, with the answer's status set.
error_body <- function(res, status, code, message) {
  res$status <- status
  list(code = code, message = message, status = status)
}

# A pet as the spec's Pet: no status member when it has none.
pet_of <- function(id, name, category_id, status) {
  pet <- list(id = id, name = name, categoryId = category_id)
  if (!is.null(status)) pet$status <- status
  pet
}

list_pets <- function(req, res, limit = "20", status = NULL) {
  limit <- as.integer(limit)
  if (is.na(limit) || limit < 1 || limit > 100) {
    return(error_body(res, 400, "invalid_query", "limit is an integer from 1 to 100"))
  }
  if (!is.null(status) && !(status %in% statuses)) {
    return(error_body(res, 400, "invalid_query", "status is available, pending or sold"))
  }
  listed <- Filter(function(pet) is.null(status) || identical(pet$status, status), store$pets)
  head(unname(listed), limit)
}

create_pet <- function(req, res) {
  body <- req$body
  if (!is.list(body) || !is.character(body$name) || length(body$name) != 1) {
    return(error_body(res, 400, "validation_failed", "name is a string"))
  }
  id <- body$categoryId
  if (!is.numeric(id) || length(id) != 1 || id != round(id)) {
    return(error_body(res, 400, "validation_failed", "categoryId is an integer"))
  }
  if (!is.null(body$status) && !(identical(length(body$status), 1L) && body$status %in% statuses)) {
    return(error_body(res, 400, "validation_failed", "status is available, pending or sold"))
  }
  pet <- pet_of(length(store$pets) + 1, body$name, id, body$status)
  store$pets[[length(store$pets) + 1]] <- pet
  res$status <- 201
  res$setHeader("Location", paste0("/v1/pets/", pet$id))
  pet
}

get_pet <- function(req, res, petId) {
  res$setHeader("Deprecation", "@1767225600")
  res$setHeader("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
  res$setHeader("Link", "</v1/pets>; rel=\"successor-version\"")
  for (pet in store$pets) if (pet$id == petId) return(pet)
  error_body(res, 404, "not_found", paste("no pet", petId))
}

api <- pr() |>
  # Every answer, those of the endpoints added after it included: a length-one value is a scalar.
  pr_set_serializer(serializer_unboxed_json()) |>
  pr_filter("key", function(req, res) {
    if (!identical(req$HTTP_AUTHORIZATION, expected)) {
      return(error_body(res, 401, "unauthorized", "send Authorization: Bearer <key>"))
    }
    forward()
  }) |>
  pr_get("/v1/pets", list_pets) |>
  pr_post("/v1/pets", create_pet) |>
  pr_get("/v1/pets/<petId:int>", get_pet) |>
  pr_set_404(function(req, res) error_body(res, 404, "not_found", "no such resource")) |>
  pr_set_error(function(req, res, err) {
    message("server error: ", conditionMessage(err))
    error_body(res, 500, "internal_server_error", "internal server error")
  })

# Stops when stdin closes: a shell beside R waits for its end, then ends R. R runs it in the
# background, whose stdin the shell makes /dev/null: R's own goes to it as fd 3.
system(sprintf("exec 3<&0; sh -c 'cat <&3 >/dev/null; kill %d' 3<&3", Sys.getpid()), wait = FALSE)
port <- httpuv::randomPort(host = "127.0.0.1")
server <- httpuv::startServer("127.0.0.1", port, api)
cat(sprintf("listening on %d\n", port))
flush(stdout())
httpuv::service(Inf)
