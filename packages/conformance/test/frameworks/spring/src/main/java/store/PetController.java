package store;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/v1/pets")
class PetController {

  private static final HttpHeaders DEPRECATED = new HttpHeaders();

  static {
    DEPRECATED.set("Deprecation", "@1767225600");
    DEPRECATED.set("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
    DEPRECATED.set(HttpHeaders.LINK, "</v1/pets>; rel=\"successor-version\"");
  }

  private final List<Pet> pets = new ArrayList<>();

  @GetMapping
  synchronized List<Pet> listPets(
      @RequestParam(defaultValue = "20") int limit,
      @RequestParam(required = false) Status status) {
    if (limit < 1 || limit > 100) {
      throw new ApiException(
          HttpStatus.BAD_REQUEST, "invalid_limit", "limit is an integer from 1 to 100");
    }
    return pets.stream()
        .filter(pet -> status == null || pet.status() == status)
        .limit(limit)
        .toList();
  }

  @PostMapping
  synchronized ResponseEntity<Pet> createPet(@RequestBody NewPet body) {
    if (body.name() == null) {
      throw new ApiException(HttpStatus.BAD_REQUEST, "validation_failed", "name is required");
    }
    if (body.categoryId() == null) {
      throw new ApiException(
          HttpStatus.BAD_REQUEST, "validation_failed", "categoryId is required");
    }
    Pet pet = new Pet(pets.size() + 1, body.name(), body.categoryId(), body.status());
    pets.add(pet);
    return ResponseEntity.created(URI.create("/v1/pets/" + pet.id())).body(pet);
  }

  @GetMapping("/{petId}")
  synchronized ResponseEntity<Pet> getPet(@PathVariable long petId) {
    return pets.stream()
        .filter(pet -> pet.id() == petId)
        .findFirst()
        .map(pet -> ResponseEntity.ok().headers(DEPRECATED).body(pet))
        .orElseThrow(
            () ->
                new ApiException(
                    HttpStatus.NOT_FOUND, "not_found", "no pet " + petId, DEPRECATED));
  }
}
