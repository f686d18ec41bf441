// The service as a Go developer builds it from the contract's OpenAPI document (its 3.0 edition,
// which kin-openapi reads): oapi-codegen generates the types, a net/http server and its strict
// handlers into package api at build time, and kin-openapi's request validator, as
// oapi-codegen's nethttp-middleware runs it, checks every request and the bearer key against the
// document, with their defaults. The handlers fill the typed answers the document names. The
// deprecation headers and the listener are the Go apps' shared ones (frameworks/petmodel-go).
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"

	"github.com/animal-store/conformance/test/frameworks/petmodel"
	"github.com/getkin/kin-openapi/openapi3filter"
	middleware "github.com/oapi-codegen/nethttp-middleware"

	"github.com/animal-store/conformance/test/frameworks/oapi-codegen/api"
)

type service struct {
	mu   sync.Mutex
	pets []api.Pet
}

func requestID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *service) ListPets(_ context.Context, req api.ListPetsRequestObject) (api.ListPetsResponseObject, error) {
	limit := 20
	if req.Params.Limit != nil {
		limit = *req.Params.Limit
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := []api.Pet{}
	for _, pet := range s.pets {
		if len(list) == limit {
			break
		}
		if req.Params.Status != nil && pet.Status != *req.Params.Status {
			continue
		}
		if req.Params.After != nil && pet.Id <= *req.Params.After {
			continue
		}
		list = append(list, pet)
	}
	return api.ListPets200JSONResponse{
		Body:    list,
		Headers: api.ListPets200ResponseHeaders{XRequestId: requestID()},
	}, nil
}

func (s *service) CreatePet(_ context.Context, req api.CreatePetRequestObject) (api.CreatePetResponseObject, error) {
	status := api.Available
	if req.Body.Status != nil {
		status = *req.Body.Status
	}
	s.mu.Lock()
	pet := api.Pet{Id: int64(len(s.pets)) + 1, Name: req.Body.Name, CategoryId: req.Body.CategoryId, Status: status}
	s.pets = append(s.pets, pet)
	s.mu.Unlock()
	return api.CreatePet201JSONResponse{Body: pet, Headers: api.CreatePet201ResponseHeaders{
		Location:   fmt.Sprintf("/v1/pets/%d", pet.Id),
		XRequestId: requestID(),
	}}, nil
}

func (s *service) GetPet(_ context.Context, req api.GetPetRequestObject) (api.GetPetResponseObject, error) {
	deprecation, sunset, link := petmodel.Deprecation["Deprecation"], petmodel.Deprecation["Sunset"], petmodel.Deprecation["Link"]
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pet := range s.pets {
		if pet.Id == req.PetId {
			return api.GetPet200JSONResponse{Body: pet, Headers: api.GetPet200ResponseHeaders{
				Deprecation: deprecation, Sunset: sunset, Link: link, XRequestId: requestID(),
			}}, nil
		}
	}
	return api.GetPet404JSONResponse{
		Body: api.ErrorBody{Code: "not_found", Message: fmt.Sprintf("no pet %d", req.PetId), Status: 404},
		Headers: api.GetPet404ResponseHeaders{
			Deprecation: deprecation, Sunset: sunset, Link: link, XRequestId: requestID(),
		},
	}, nil
}

// The spec's Error body for every refusal the validator and the handlers make.
func fail(w http.ResponseWriter, message string, status int) {
	codes := map[int]string{400: "validation_failed", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed"}
	code, known := codes[status]
	if !known {
		code = "error"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(api.ErrorBody{Code: api.ErrorCode(code), Message: message, Status: status})
}

func main() {
	key := os.Getenv("API_KEY")
	document, err := api.GetSwagger()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The document's servers name hosts; the app serves its paths below /v1 on any host.
	document.Servers = nil
	validator := middleware.OapiRequestValidatorWithOptions(document, &middleware.Options{
		Options: openapi3filter.Options{
			AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
				if in.RequestValidationInput.Request.Header.Get("Authorization") != "Bearer "+key {
					return errors.New("send Authorization: Bearer <key>")
				}
				return nil
			},
		},
		ErrorHandler: fail,
	})
	strict := api.NewStrictHandlerWithOptions(&service{}, nil, api.StrictHTTPServerOptions{
		RequestErrorHandlerFunc: func(w http.ResponseWriter, _ *http.Request, err error) {
			fail(w, err.Error(), 400)
		},
		ResponseErrorHandlerFunc: func(w http.ResponseWriter, _ *http.Request, err error) {
			fail(w, err.Error(), 500)
		},
	})
	handler := api.HandlerWithOptions(strict, api.StdHTTPServerOptions{
		ErrorHandlerFunc: func(w http.ResponseWriter, _ *http.Request, err error) {
			fail(w, err.Error(), 400)
		},
	})
	http.Serve(petmodel.Listen(), http.StripPrefix("/v1", validator(handler)))
}
