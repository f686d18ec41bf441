// The service as an Echo developer writes it from the spec, with Echo's defaults (net/http under
// it): c.Bind into structs (pointers tell a missing field; Echo binds the query of a GET and the
// body of a POST), strconv for the petId, a middleware for the key, and an HTTPErrorHandler that
// answers every error with an Error. The pets, the deprecation headers, the listener, the Error
// answer and the checks after binding are the Go apps' shared ones (frameworks/petmodel-go).
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"

	"github.com/animal-store/conformance/test/frameworks/petmodel"
	"github.com/labstack/echo/v5"
)

// answerError answers any error a handler returns, or Echo raises (each an HTTPStatusCoder, as
// Echo's own handler reads them), with an Error body.
func answerError(c *echo.Context, err error) {
	answer := &petmodel.Problem{Status: 500, Code: "internal", Message: "internal error"}
	var coded echo.HTTPStatusCoder
	switch {
	case errors.As(err, &answer):
	case errors.As(err, &coded):
		status := coded.StatusCode()
		answer = &petmodel.Problem{Status: status, Code: "error", Message: http.StatusText(status)}
		if status == http.StatusNotFound {
			answer.Code = "not_found"
		}
	}
	c.JSON(answer.Status, answer.Body())
}

func main() {
	key := os.Getenv("API_KEY")
	var pets petmodel.Store

	e := echo.New()
	e.HTTPErrorHandler = answerError
	e.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if c.Request().Header.Get("Authorization") != "Bearer "+key {
				return petmodel.Fail(401, "unauthorized", "send Authorization: Bearer <key>")
			}
			return next(c)
		}
	})
	v1 := e.Group("/v1")
	v1.GET("/pets", func(c *echo.Context) error {
		var q petmodel.ListQuery
		if err := c.Bind(&q); err != nil {
			return petmodel.Fail(400, "invalid_query", err.Error())
		}
		limit, status, err := q.Page()
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, pets.List(limit, status))
	})
	v1.POST("/pets", func(c *echo.Context) error {
		var body petmodel.NewPet
		if err := c.Bind(&body); err != nil {
			return petmodel.Fail(400, "validation_failed", err.Error())
		}
		if err := body.Problem(); err != nil {
			return err
		}
		created := pets.Add(*body.Name, *body.CategoryID, body.Status)
		c.Response().Header().Set("Location", fmt.Sprintf("/v1/pets/%d", created.ID))
		return c.JSON(http.StatusCreated, created)
	})
	v1.GET("/pets/:petId", func(c *echo.Context) error {
		for name, value := range petmodel.Deprecation {
			c.Response().Header().Set(name, value)
		}
		id, err := strconv.ParseInt(c.Param("petId"), 10, 64)
		if err != nil || id < 1 {
			return petmodel.Fail(400, "invalid_pet_id", "petId must be a positive integer")
		}
		if p, found := pets.Get(id); found {
			return c.JSON(http.StatusOK, p)
		}
		return petmodel.Fail(404, "not_found", fmt.Sprintf("no pet %d", id))
	})

	start := echo.StartConfig{Listener: petmodel.Listen(), HideBanner: true, HidePort: true}
	if err := start.Start(context.Background(), e); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
