// Package petmodel holds what the Go apps (go, gin, echo, fiber, hertz) share that no framework
// does for them: the spec's NewPet (Gin's and Hertz's apps keep their own, with binding tags) and
// Pet, getPet's deprecation headers, a store of pets kept in memory, the listener every app serves
// on, the Error body, and, for the apps whose handlers return errors, the Error answer and the
// checks after binding (problem.go). How each app reads a request and writes its answer is its
// framework's own.
package petmodel

import (
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
)

// Deprecation is the headers of every getPet answer (the spec's deprecation of the operation).
var Deprecation = map[string]string{
	"Deprecation": "@1767225600",
	"Sunset":      "Thu, 05 Dec 2030 00:00:00 GMT",
	"Link":        `</v1/pets>; rel="successor-version"`,
}

// Statuses are the PetStatus values.
var Statuses = []string{"available", "pending", "sold"}

// IsStatus tells whether s is one of Statuses.
func IsStatus(s string) bool { return slices.Contains(Statuses, s) }

// NewPet is the spec's NewPet as encoding/json reads it: a nil pointer is a missing member.
type NewPet struct {
	Name       *string `json:"name"`
	CategoryID *int64  `json:"categoryId"`
	Status     *string `json:"status"`
}

// Pet is the spec's Pet as JSON writes it.
type Pet struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	CategoryID int64   `json:"categoryId"`
	Status     *string `json:"status,omitempty"`
}

// Store holds the pets created, in order; it is safe for concurrent use.
type Store struct {
	mu   sync.Mutex
	pets []Pet
}

// List gives at most limit pets, of status when it is not empty.
func (s *Store) List(limit int, status string) []Pet {
	s.mu.Lock()
	defer s.mu.Unlock()
	listed := []Pet{}
	for _, p := range s.pets {
		if len(listed) < limit && (status == "" || (p.Status != nil && *p.Status == status)) {
			listed = append(listed, p)
		}
	}
	return listed
}

// Add stores a new pet with the next id and gives it.
func (s *Store) Add(name string, categoryID int64, status *string) Pet {
	s.mu.Lock()
	defer s.mu.Unlock()
	created := Pet{int64(len(s.pets) + 1), name, categoryID, status}
	s.pets = append(s.pets, created)
	return created
}

// Get gives the pet with id, if there is one.
func (s *Store) Get(id int64) (Pet, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.pets {
		if p.ID == id {
			return p, true
		}
	}
	return Pet{}, false
}

// Listen listens on 127.0.0.1 on a free port, prints "listening on PORT", and ends the process
// when its stdin closes, so that an app never outlives the test that started it.
func Listen() net.Listener {
	listener, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	fmt.Printf("listening on %d\n", listener.Addr().(*net.TCPAddr).Port)
	return listener
}
