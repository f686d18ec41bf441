// The scenario with a client made by oapi-codegen from the OpenAPI 3.0 document, as a client
// developer writes it. Run by test/oapi-codegen.test.ts with the generated package in
// ./animalstore and the API's address and key in ANIMAL_STORE_BASE_URL and ANIMAL_STORE_API_KEY.
// Prints what it saw as JSON. It calls the deprecated GetPet on purpose: staticcheck reports it
// with the removal date.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"

	"animalstore.example/scenario/animalstore"
)

type failure struct {
	Status int      `json:"status"`
	Code   string   `json:"code"`
	Fields []string `json:"fields"`
}

// withKey sends the API key on every request.
func withKey(key string) animalstore.ClientOption {
	return animalstore.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+key)
		return nil
	})
}

// explain says what a client does about each error code: the switch a typed enum allows.
func explain(code animalstore.ErrorCode) string {
	switch code {
	case animalstore.ErrorCodeValidationFailed, animalstore.ErrorCodeMalformedJson:
		return "fix the request"
	case animalstore.ErrorCodeUnauthorized:
		return "check the key"
	case animalstore.ErrorCodeNotFound, animalstore.ErrorCodeGone:
		return "nothing there"
	case animalstore.ErrorCodeRateLimited, animalstore.ErrorCodeServiceUnavailable, animalstore.ErrorCodeConflict:
		return "retry later"
	default:
		return "report it"
	}
}

// failed is the status and Error body of a failed call.
func failed(status int, body *animalstore.ErrorBody) failure {
	if body == nil {
		panic(fmt.Sprintf("no Error body decoded for %d", status))
	}
	if explain(body.Code) == "" {
		panic("unexplained code")
	}
	fields := []string{}
	seen := map[string]bool{}
	if body.Details != nil {
		for _, detail := range *body.Details {
			if !seen[detail.Path] {
				seen[detail.Path] = true
				fields = append(fields, detail.Path)
			}
		}
	}
	sort.Strings(fields)
	return failure{Status: status, Code: string(body.Code), Fields: fields}
}

func must[T any](value T, err error) T {
	if err != nil {
		panic(err)
	}
	return value
}

func main() {
	ctx := context.Background()
	base := os.Getenv("ANIMAL_STORE_BASE_URL")
	api := must(animalstore.NewClientWithResponses(base, withKey(os.Getenv("ANIMAL_STORE_API_KEY"))))

	pending := animalstore.Pending
	rex := animalstore.NewPet{Name: "Rex", CategoryId: 3, Status: &pending}
	random := make([]byte, 16)
	must(rand.Read(random))
	key := "go-" + hex.EncodeToString(random)
	params := &animalstore.CreatePetParams{IdempotencyKey: &key}
	created := must(api.CreatePetWithResponse(ctx, params, rex))
	retried := must(api.CreatePetWithResponse(ctx, params, rex))
	if created.JSON201 == nil || retried.JSON201 == nil {
		panic(fmt.Sprintf("create failed: %d %s", created.StatusCode(), created.Body))
	}
	for _, name := range []string{"Max", "Ida"} {
		must(api.CreatePetWithResponse(ctx, nil, animalstore.NewPet{Name: name, CategoryId: 3, Status: &pending}))
	}

	pages := [][]string{}
	limit := 2
	query := animalstore.ListPetsParams{Status: &pending, Limit: &limit}
	// From Rex on: after the id before it, so that only the pets made here show in a store others
	// share too (ids, and so after, start at 1).
	if first := created.JSON201.Id; first > 1 {
		after := first - 1
		query.After = &after
	}
	for {
		page := must(api.ListPetsWithResponse(ctx, &query))
		if page.JSON200 == nil {
			panic(fmt.Sprintf("list failed: %d", page.StatusCode()))
		}
		names := []string{}
		for _, pet := range *page.JSON200 {
			if pet.Status != animalstore.Pending {
				panic("filter ignored")
			}
			names = append(names, pet.Name)
		}
		pages = append(pages, names)
		// The next page: the same query, after the id in the declared Next-After header.
		if page.Headers200 == nil || page.Headers200.NextAfter == nil {
			break
		}
		query.After = page.Headers200.NextAfter
	}

	fetched := must(api.GetPetWithResponse(ctx, created.JSON201.Id))
	if fetched.JSON200 == nil {
		panic(fmt.Sprintf("get failed: %d", fetched.StatusCode()))
	}
	invalid := must(api.CreatePetWithResponse(ctx, nil, animalstore.NewPet{Name: "", CategoryId: 1}))
	stranger := must(animalstore.NewClientWithResponses(base, withKey("wrong")))
	unauthorized := must(stranger.ListPetsWithResponse(ctx, nil))
	missing := must(api.GetPetWithResponse(ctx, 1<<40))

	out := map[string]any{
		"created": map[string]any{"status": created.StatusCode(), "pet": created.JSON201},
		"retried": map[string]any{
			"sameId":   retried.JSON201.Id == created.JSON201.Id,
			"replayed": retried.HTTPResponse.Header.Get("Idempotency-Replayed"),
		},
		"pages": pages,
		"fetched": map[string]any{
			"name":        fetched.JSON200.Name,
			"deprecation": fetched.Headers200.Deprecation,
			"sunset":      fetched.Headers200.Sunset,
		},
		"invalid":      failed(invalid.StatusCode(), invalid.JSON400),
		"unauthorized": failed(unauthorized.StatusCode(), unauthorized.JSON401),
		"missing":      failed(missing.StatusCode(), missing.JSON404),
	}
	must(0, json.NewEncoder(os.Stdout).Encode(out))
}
