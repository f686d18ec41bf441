package store;

import java.io.IOException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Animal Store pet API as a Spring developer writes it from the spec, with Spring Boot's
 * defaults: a @RestController with @RequestParam / @PathVariable / @RequestBody records read by
 * Jackson, a filter for the key, and a @RestControllerAdvice that answers errors with an Error.
 *
 * <p>Usage: API_KEY=... java -jar app.jar (listens on 127.0.0.1, port 0; prints "listening on
 * PORT"; stops when its stdin closes, so that it never outlives the test that started it)
 */
@SpringBootApplication
public class AnimalStoreApplication {

  public static void main(String[] args) {
    Thread stopper = new Thread(AnimalStoreApplication::stopWhenStdinCloses, "stdin-watch");
    stopper.setDaemon(true);
    stopper.start();
    SpringApplication.run(AnimalStoreApplication.class, args);
  }

  private static void stopWhenStdinCloses() {
    try {
      System.in.transferTo(java.io.OutputStream.nullOutputStream());
    } catch (IOException ignored) {
      // a broken stdin counts as a closed one
    }
    Runtime.getRuntime().halt(0);
  }
}
