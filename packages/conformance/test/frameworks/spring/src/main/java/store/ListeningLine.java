package store;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/** Prints "listening on PORT" once Tomcat accepts connections. */
@Component
class ListeningLine implements ApplicationListener<WebServerInitializedEvent> {

  @Override
  public void onApplicationEvent(WebServerInitializedEvent event) {
    System.out.println("listening on " + event.getWebServer().getPort());
    System.out.flush();
  }
}
