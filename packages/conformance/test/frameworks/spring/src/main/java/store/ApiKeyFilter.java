package store;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/** Every request needs Authorization: Bearer API_KEY; otherwise a 401 Error. */
@Component
class ApiKeyFilter extends OncePerRequestFilter {

  private final String expected;
  private final JsonMapper json;

  ApiKeyFilter(@Value("${API_KEY}") String apiKey, JsonMapper json) {
    this.expected = "Bearer " + apiKey;
    this.json = json;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (expected.equals(request.getHeader("Authorization"))) {
      chain.doFilter(request, response);
      return;
    }
    response.setStatus(401);
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    json.writeValue(
        response.getOutputStream(),
        new Error("unauthorized", "send Authorization: Bearer <key>", 401));
  }
}
