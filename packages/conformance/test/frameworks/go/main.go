// The service as a Go developer writes it from the spec with the standard library's defaults:
// net/http's ServeMux patterns, encoding/json's Decoder into a struct (pointers tell a missing
// field), strconv for integers, and an Error for every answer that is one. The pets, the
// deprecation headers, the Error body and the listener are the Go apps' shared ones
// (frameworks/petmodel-go).
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"

	"github.com/animal-store/conformance/test/frameworks/petmodel"
)

type service struct {
	pets petmodel.Store
}

func answer(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func fail(w http.ResponseWriter, status int, code, message string) {
	answer(w, status, petmodel.ErrorBody(status, code, message))
}

func (s *service) list(w http.ResponseWriter, r *http.Request) {
	query := r.URL.Query()
	limit := 20
	if query.Has("limit") {
		n, err := strconv.Atoi(query.Get("limit"))
		if err != nil || n < 1 || n > 100 {
			fail(w, 400, "invalid_limit", "limit is an integer from 1 to 100")
			return
		}
		limit = n
	}
	status := query.Get("status")
	if query.Has("status") && !petmodel.IsStatus(status) {
		fail(w, 400, "invalid_status", "status is one of available, pending, sold")
		return
	}
	answer(w, 200, s.pets.List(limit, status))
}

func (s *service) create(w http.ResponseWriter, r *http.Request) {
	var body petmodel.NewPet
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		fail(w, 400, "validation_failed", err.Error())
		return
	}
	if body.Name == nil || body.CategoryID == nil {
		fail(w, 400, "validation_failed", "name and categoryId are required")
		return
	}
	if body.Status != nil && !petmodel.IsStatus(*body.Status) {
		fail(w, 400, "validation_failed", "status is one of available, pending, sold")
		return
	}
	created := s.pets.Add(*body.Name, *body.CategoryID, body.Status)
	w.Header().Set("Location", fmt.Sprintf("/v1/pets/%d", created.ID))
	answer(w, 201, created)
}

func (s *service) get(w http.ResponseWriter, r *http.Request) {
	for name, value := range petmodel.Deprecation {
		w.Header().Set(name, value)
	}
	id, err := strconv.ParseInt(r.PathValue("petId"), 10, 64)
	if err != nil {
		fail(w, 400, "invalid_pet_id", "petId is an int64 integer")
		return
	}
	if p, found := s.pets.Get(id); found {
		answer(w, 200, p)
		return
	}
	fail(w, 404, "not_found", fmt.Sprintf("no pet %d", id))
}

func main() {
	key := os.Getenv("API_KEY")
	s := &service{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/pets", s.list)
	mux.HandleFunc("POST /v1/pets", s.create)
	mux.HandleFunc("GET /v1/pets/{petId}", s.get)
	authenticated := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			fail(w, 401, "unauthorized", "send Authorization: Bearer <key>")
			return
		}
		mux.ServeHTTP(w, r)
	})
	http.Serve(petmodel.Listen(), authenticated)
}
