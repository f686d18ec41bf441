// The service as a Fiber developer writes it from the spec, with Fiber's defaults (fasthttp under
// it, not net/http): Bind().Body and Bind().Query into structs (pointers tell a missing field),
// strconv for the petId, a middleware for the key, and an ErrorHandler that answers every error
// with an Error. The pets, the deprecation headers, the listener, the Error answer and the checks
// after binding are the Go apps' shared ones (frameworks/petmodel-go).
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/animal-store/conformance/test/frameworks/petmodel"
	"github.com/gofiber/fiber/v3"
)

// answerError answers any error a handler returns, or Fiber raises, with an Error body.
func answerError(c fiber.Ctx, err error) error {
	answer := &petmodel.Problem{Status: 500, Code: "internal", Message: "internal error"}
	var fe *fiber.Error
	switch {
	case errors.As(err, &answer):
	case errors.As(err, &fe):
		answer = &petmodel.Problem{Status: fe.Code, Code: "error", Message: fe.Message}
		if fe.Code == 404 {
			answer.Code = "not_found"
		}
	}
	return c.Status(answer.Status).JSON(answer.Body())
}

func main() {
	key := os.Getenv("API_KEY")
	var pets petmodel.Store

	app := fiber.New(fiber.Config{ErrorHandler: answerError})
	app.Use(func(c fiber.Ctx) error {
		if c.Get("Authorization") != "Bearer "+key {
			return petmodel.Fail(401, "unauthorized", "send Authorization: Bearer <key>")
		}
		return c.Next()
	})
	v1 := app.Group("/v1")
	v1.Get("/pets", func(c fiber.Ctx) error {
		var q petmodel.ListQuery
		if err := c.Bind().Query(&q); err != nil {
			return petmodel.Fail(400, "invalid_query", err.Error())
		}
		limit, status, err := q.Page()
		if err != nil {
			return err
		}
		return c.JSON(pets.List(limit, status))
	})
	v1.Post("/pets", func(c fiber.Ctx) error {
		var body petmodel.NewPet
		if err := c.Bind().Body(&body); err != nil {
			return petmodel.Fail(400, "validation_failed", err.Error())
		}
		if err := body.Problem(); err != nil {
			return err
		}
		created := pets.Add(*body.Name, *body.CategoryID, body.Status)
		c.Location(fmt.Sprintf("/v1/pets/%d", created.ID))
		return c.Status(201).JSON(created)
	})
	v1.Get("/pets/:petId", func(c fiber.Ctx) error {
		for name, value := range petmodel.Deprecation {
			c.Set(name, value)
		}
		id, err := strconv.ParseInt(c.Params("petId"), 10, 64)
		if err != nil || id < 1 {
			return petmodel.Fail(400, "invalid_pet_id", "petId must be a positive integer")
		}
		if p, found := pets.Get(id); found {
			return c.JSON(p)
		}
		return petmodel.Fail(404, "not_found", fmt.Sprintf("no pet %d", id))
	})

	app.Listener(petmodel.Listen(), fiber.ListenConfig{DisableStartupMessage: true})
}
