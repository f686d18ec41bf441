package store;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** An answer with an Error body, thrown by the controller and answered by ErrorAdvice. */
class ApiException extends RuntimeException {
  final HttpStatus status;
  final String code;
  final HttpHeaders headers;

  ApiException(HttpStatus status, String code, String message) {
    this(status, code, message, HttpHeaders.EMPTY);
  }

  ApiException(HttpStatus status, String code, String message, HttpHeaders headers) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}
