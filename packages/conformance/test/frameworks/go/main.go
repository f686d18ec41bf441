// The service as a Go developer writes it from the spec with the standard library's defaults:
// net/http's ServeMux patterns, encoding/json's Decoder into a struct (pointers tell a missing
// field), strconv for integers, and an Error for every answer that is one.
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
)

var statuses = []string{"available", "pending", "sold"}

type newPet struct {
	Name       *string `json:"name"`
	CategoryID *int64  `json:"categoryId"`
	Status     *string `json:"status"`
}

type pet struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	CategoryID int64   `json:"categoryId"`
	Status     *string `json:"status,omitempty"`
}

type store struct {
	mu   sync.Mutex
	pets []pet
}

func answer(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func fail(w http.ResponseWriter, status int, code, message string) {
	answer(w, status, map[string]any{"code": code, "message": message, "status": status})
}

func (s *store) list(w http.ResponseWriter, r *http.Request) {
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
	if query.Has("status") && !slices.Contains(statuses, status) {
		fail(w, 400, "invalid_status", "status is one of available, pending, sold")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	listed := []pet{}
	for _, p := range s.pets {
		if len(listed) < limit && (status == "" || (p.Status != nil && *p.Status == status)) {
			listed = append(listed, p)
		}
	}
	answer(w, 200, listed)
}

func (s *store) create(w http.ResponseWriter, r *http.Request) {
	var body newPet
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		fail(w, 400, "validation_failed", err.Error())
		return
	}
	if body.Name == nil || body.CategoryID == nil {
		fail(w, 400, "validation_failed", "name and categoryId are required")
		return
	}
	if body.Status != nil && !slices.Contains(statuses, *body.Status) {
		fail(w, 400, "validation_failed", "status is one of available, pending, sold")
		return
	}
	s.mu.Lock()
	created := pet{int64(len(s.pets) + 1), *body.Name, *body.CategoryID, body.Status}
	s.pets = append(s.pets, created)
	s.mu.Unlock()
	w.Header().Set("Location", fmt.Sprintf("/v1/pets/%d", created.ID))
	answer(w, 201, created)
}

func (s *store) get(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Deprecation", "@1767225600")
	w.Header().Set("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
	w.Header().Set("Link", `</v1/pets>; rel="successor-version"`)
	id, err := strconv.ParseInt(r.PathValue("petId"), 10, 64)
	if err != nil {
		fail(w, 400, "invalid_pet_id", "petId is an int64 integer")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.pets {
		if p.ID == id {
			answer(w, 200, p)
			return
		}
	}
	fail(w, 404, "not_found", fmt.Sprintf("no pet %d", id))
}

func main() {
	key := os.Getenv("API_KEY")
	s := &store{}
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
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	fmt.Printf("listening on %d\n", listener.Addr().(*net.TCPAddr).Port)
	http.Serve(listener, authenticated)
}
