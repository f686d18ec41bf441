// The service as a Hertz developer writes it from the spec, with Hertz's defaults: server.Default
// (netpoll, the recovery middleware), BindAndValidate into structs with json, query and path tags
// (pointers tell a missing field; the body is read by sonic, Hertz's JSON on amd64 and arm64), a
// middleware for the key, and an Error for every answer that is one. The pets, the deprecation
// headers, the Error body and the listener are the Go apps' shared ones (frameworks/petmodel-go).
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/animal-store/conformance/test/frameworks/petmodel"
	"github.com/cloudwego/hertz/pkg/app"
	"github.com/cloudwego/hertz/pkg/app/server"
)

type newPet struct {
	Name       *string `json:"name,required"`
	CategoryID *int64  `json:"categoryId,required"`
	Status     *string `json:"status"`
}

type listQuery struct {
	Limit  *int    `query:"limit"`
	Status *string `query:"status"`
}

type petPath struct {
	PetID int64 `path:"petId,required"`
}

func fail(c *app.RequestContext, status int, code, message string) {
	c.AbortWithStatusJSON(status, petmodel.ErrorBody(status, code, message))
}

func main() {
	key := os.Getenv("API_KEY")
	var pets petmodel.Store

	h := server.Default(server.WithListener(petmodel.Listen()), server.WithDisablePrintRoute(true))
	// Any other path or method: the spec's 404, with an Error.
	notFound := func(ctx context.Context, c *app.RequestContext) {
		fail(c, 404, "not_found", "no such resource")
	}
	h.NoRoute(notFound)
	h.NoMethod(notFound)
	h.Use(func(ctx context.Context, c *app.RequestContext) {
		if string(c.GetHeader("Authorization")) != "Bearer "+key {
			fail(c, 401, "unauthorized", "send Authorization: Bearer <key>")
			return
		}
		c.Next(ctx)
	})
	v1 := h.Group("/v1")
	v1.GET("/pets", func(ctx context.Context, c *app.RequestContext) {
		var q listQuery
		if err := c.BindAndValidate(&q); err != nil {
			fail(c, 400, "invalid_query", err.Error())
			return
		}
		limit := 20
		if q.Limit != nil {
			limit = *q.Limit
		}
		if limit < 1 || limit > 100 {
			fail(c, 400, "invalid_query", "limit is an integer from 1 to 100")
			return
		}
		status := ""
		if q.Status != nil {
			if !petmodel.IsStatus(*q.Status) {
				fail(c, 400, "invalid_query", "status is available, pending or sold")
				return
			}
			status = *q.Status
		}
		c.JSON(200, pets.List(limit, status))
	})
	v1.POST("/pets", func(ctx context.Context, c *app.RequestContext) {
		var body newPet
		if err := c.BindAndValidate(&body); err != nil {
			fail(c, 400, "validation_failed", err.Error())
			return
		}
		if body.Status != nil && !petmodel.IsStatus(*body.Status) {
			fail(c, 400, "validation_failed", "status is available, pending or sold")
			return
		}
		created := pets.Add(*body.Name, *body.CategoryID, body.Status)
		c.Header("Location", fmt.Sprintf("/v1/pets/%d", created.ID))
		c.JSON(201, created)
	})
	v1.GET("/pets/:petId", func(ctx context.Context, c *app.RequestContext) {
		for name, value := range petmodel.Deprecation {
			c.Header(name, value)
		}
		var p petPath
		if err := c.BindAndValidate(&p); err != nil {
			fail(c, 400, "invalid_pet_id", err.Error())
			return
		}
		if found, ok := pets.Get(p.PetID); ok {
			c.JSON(200, found)
			return
		}
		fail(c, 404, "not_found", fmt.Sprintf("no pet %d", p.PetID))
	})

	h.Spin()
}
