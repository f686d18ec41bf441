package store;

import com.fasterxml.jackson.annotation.JsonInclude;

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
