/*
 * The Animal Store pet API as a C developer writes it from the spec with Ulfius' defaults (on
 * libmicrohttpd): endpoints by method and URL format, `ulfius_get_json_body_request` and Jansson
 * for bodies, strtoll for integers, and an Error body for every answer that is one.
 *
 * Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
 * when its stdin closes, so that it never outlives the test that started it)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ulfius.h>

struct pet {
  json_int_t id;
  char *name;
  json_int_t category_id;
  char *status; /* NULL: none sent */
};

static struct pet *pets;
static size_t pet_count, pet_capacity;
static pthread_mutex_t pets_lock = PTHREAD_MUTEX_INITIALIZER;
static char *expected_authorization;

static const char *const STATUSES[] = {"available", "pending", "sold"};

static int is_status(const char *value) {
  for (size_t i = 0; i < sizeof STATUSES / sizeof *STATUSES; i++) {
    if (strcmp(value, STATUSES[i]) == 0) return 1;
  }
  return 0;
}

/* Answers with `body` as JSON, which it then frees, and ends the callbacks. */
static int answer(struct _u_response *response, unsigned int status, json_t *body) {
  ulfius_set_json_body_response(response, status, body);
  json_decref(body);
  return U_CALLBACK_COMPLETE;
}

/* The spec's Error body. */
static int fail(struct _u_response *response, unsigned int status, const char *code,
                const char *message) {
  return answer(response, status,
                json_pack("{sssssi}", "code", code, "message", message, "status", status));
}

/* Every operation needs the key: 1 when the request carries it, else the 401 is set. */
static int has_key(const struct _u_request *request, struct _u_response *response) {
  const char *given = u_map_get_case(request->map_header, "Authorization");
  if (given != NULL && strcmp(given, expected_authorization) == 0) return 1;
  fail(response, 401, "unauthorized", "send Authorization: Bearer <key>");
  return 0;
}

/* A decimal integer, as strtoll reads one: 1 when `text` is one within [min, max]. */
static int read_integer(const char *text, long long min, long long max, long long *out) {
  if (text == NULL) return 0;  // Ulfius leaves out a URL value that is no UTF-8
  char *end;
  errno = 0;
  long long value = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || value < min || value > max) return 0;
  *out = value;
  return 1;
}

static json_t *pet_json(const struct pet *pet) {
  json_t *out = json_pack("{sIsssI}", "id", pet->id, "name", pet->name, "categoryId",
                          pet->category_id);
  if (pet->status != NULL) json_object_set_new(out, "status", json_string(pet->status));
  return out;
}

static int list_pets(const struct _u_request *request, struct _u_response *response,
                     void *unused) {
  (void)unused;
  if (!has_key(request, response)) return U_CALLBACK_COMPLETE;
  long long limit = 20;
  const char *given = u_map_get(request->map_url, "limit");
  if (given != NULL && !read_integer(given, 1, 100, &limit)) {
    return fail(response, 400, "invalid_limit", "limit is an integer from 1 to 100");
  }
  const char *status = u_map_get(request->map_url, "status");
  if (status != NULL && !is_status(status)) {
    return fail(response, 400, "invalid_status", "status is one of available, pending, sold");
  }
  json_t *list = json_array();
  pthread_mutex_lock(&pets_lock);
  for (size_t i = 0; i < pet_count && (long long)json_array_size(list) < limit; i++) {
    const struct pet *pet = &pets[i];
    if (status != NULL && (pet->status == NULL || strcmp(pet->status, status) != 0)) continue;
    json_array_append_new(list, pet_json(pet));
  }
  pthread_mutex_unlock(&pets_lock);
  return answer(response, 200, list);
}

static int create_pet(const struct _u_request *request, struct _u_response *response,
                      void *unused) {
  (void)unused;
  if (!has_key(request, response)) return U_CALLBACK_COMPLETE;
  json_error_t error;
  json_t *body = ulfius_get_json_body_request(request, &error);
  if (body == NULL) return fail(response, 400, "validation_failed", "the body is no JSON NewPet");
  json_t *name = json_object_get(body, "name");
  json_t *category = json_object_get(body, "categoryId");
  json_t *status = json_object_get(body, "status");
  const char *problem = NULL;
  if (!json_is_string(name)) problem = "name is a string, and required";
  else if (!json_is_integer(category)) problem = "categoryId is an integer, and required";
  else if (status != NULL && !(json_is_string(status) && is_status(json_string_value(status))))
    problem = "status is one of available, pending, sold";
  if (problem != NULL) {
    json_decref(body);
    return fail(response, 400, "validation_failed", problem);
  }
  pthread_mutex_lock(&pets_lock);
  if (pet_count == pet_capacity) {
    pet_capacity = pet_capacity == 0 ? 64 : pet_capacity * 2;
    pets = realloc(pets, pet_capacity * sizeof *pets);
  }
  struct pet *pet = &pets[pet_count];
  pet->id = (json_int_t)pet_count + 1;
  pet->name = strdup(json_string_value(name));
  pet->category_id = json_integer_value(category);
  pet->status = status == NULL ? NULL : strdup(json_string_value(status));
  pet_count++;
  json_t *created = pet_json(pet);
  pthread_mutex_unlock(&pets_lock);
  json_decref(body);
  char location[64];
  snprintf(location, sizeof location, "/v1/pets/%lld",
           (long long)json_integer_value(json_object_get(created, "id")));
  ulfius_add_header_to_response(response, "Location", location);
  return answer(response, 201, created);
}

static int get_pet(const struct _u_request *request, struct _u_response *response,
                   void *unused) {
  (void)unused;
  if (!has_key(request, response)) return U_CALLBACK_COMPLETE;
  ulfius_add_header_to_response(response, "Deprecation", "@1767225600");
  ulfius_add_header_to_response(response, "Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
  ulfius_add_header_to_response(response, "Link", "</v1/pets>; rel=\"successor-version\"");
  long long id;
  if (!read_integer(u_map_get(request->map_url, "petId"), LLONG_MIN, LLONG_MAX, &id)) {
    return fail(response, 400, "invalid_pet_id", "petId is an int64 integer");
  }
  json_t *found = NULL;
  pthread_mutex_lock(&pets_lock);
  for (size_t i = 0; i < pet_count && found == NULL; i++) {
    if (pets[i].id == id) found = pet_json(&pets[i]);
  }
  pthread_mutex_unlock(&pets_lock);
  if (found == NULL) return fail(response, 404, "not_found", "no such pet");
  return answer(response, 200, found);
}

static int not_found(const struct _u_request *request, struct _u_response *response,
                     void *unused) {
  (void)request;
  (void)unused;
  return fail(response, 404, "not_found", "no such resource");
}

int main(void) {
  const char *key = getenv("API_KEY");
  if (key == NULL) {
    fprintf(stderr, "API_KEY is required\n");
    return 2;
  }
  expected_authorization = malloc(strlen(key) + sizeof "Bearer ");
  sprintf(expected_authorization, "Bearer %s", key);

  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0};
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  struct _u_instance instance;
  // Ulfius takes no port 0 (a free one): the instance is made for a nominal port, then started
  // with the flags and options ulfius_start_framework passes, bound to 127.0.0.1 port 0.
  if (ulfius_init_instance(&instance, 1, &address, NULL) != U_OK) {
    fprintf(stderr, "ulfius_init_instance failed\n");
    return 1;
  }
  ulfius_add_endpoint_by_val(&instance, "GET", "/v1", "/pets", 0, &list_pets, NULL);
  ulfius_add_endpoint_by_val(&instance, "POST", "/v1", "/pets", 0, &create_pet, NULL);
  ulfius_add_endpoint_by_val(&instance, "GET", "/v1", "/pets/:petId", 0, &get_pet, NULL);
  ulfius_set_default_endpoint(&instance, &not_found, NULL);
  struct MHD_OptionItem options[] = {
      {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)mhd_request_completed, NULL},
      {MHD_OPTION_SOCK_ADDR, 0, &address},
      {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)ulfius_uri_logger, NULL},
      {MHD_OPTION_END, 0, NULL},
  };
  unsigned int flags =
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_UPGRADE;
  if (ulfius_start_framework_with_mhd_options(&instance, flags, options) != U_OK) {
    fprintf(stderr, "ulfius_start_framework_with_mhd_options failed\n");
    return 1;
  }
  const union MHD_DaemonInfo *info =
      MHD_get_daemon_info(instance.mhd_daemon, MHD_DAEMON_INFO_LISTEN_FD);
  struct sockaddr_in bound;
  socklen_t length = sizeof bound;
  getsockname(info->listen_fd, (struct sockaddr *)&bound, &length);
  printf("listening on %u\n", (unsigned)ntohs(bound.sin_port));
  fflush(stdout);

  // Stops when stdin closes.
  while (getchar() != EOF) {
  }
  ulfius_stop_framework(&instance);
  ulfius_clean_instance(&instance);
  return 0;
}
