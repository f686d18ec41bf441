package store;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers every error with the spec's Error: the controller's own, Spring MVC's (400 for a body
 * or parameter it cannot read, 404, 405, 415, ...) and any other exception (500).
 */
@RestControllerAdvice
class ErrorAdvice extends ResponseEntityExceptionHandler {

  @ExceptionHandler(ApiException.class)
  ResponseEntity<Error> api(ApiException e) {
    return ResponseEntity.status(e.status)
        .headers(e.headers)
        .body(new Error(e.code, e.getMessage(), e.status.value()));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<Error> unexpected(Exception e) {
    logger.error("unexpected error", e);
    return ResponseEntity.internalServerError()
        .body(new Error("internal_error", "internal server error", 500));
  }

  /** Spring MVC's own exceptions: the same status and headers, with an Error body. */
  @Override
  protected ResponseEntity<Object> handleExceptionInternal(
      Exception e, Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String message = body instanceof ProblemDetail problem ? problem.getDetail() : e.getMessage();
    HttpStatus known = HttpStatus.resolve(status.value());
    String code = known == null ? "error" : known.name().toLowerCase();
    return new ResponseEntity<>(new Error(code, message, status.value()), headers, status);
  }
}
