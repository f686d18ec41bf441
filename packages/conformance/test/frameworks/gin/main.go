// The service as a Gin developer writes it from the spec, with Gin's defaults: ShouldBindJSON into
// a struct with binding tags (pointers tell a missing field), ShouldBindQuery and ShouldBindUri
// for integers, a middleware for the key, and an Error for every answer that is one. The pets, the
// deprecation headers, the Error body and the listener are the Go apps' shared ones
// (frameworks/petmodel-go).
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"fmt"
	"net/http"
	"os"

	"github.com/animal-store/conformance/test/frameworks/petmodel"
	"github.com/gin-gonic/gin"
)

type newPet struct {
	Name       *string `json:"name" binding:"required"`
	CategoryID *int64  `json:"categoryId" binding:"required"`
	Status     *string `json:"status" binding:"omitempty,oneof=available pending sold"`
}

type listQuery struct {
	Limit  *int    `form:"limit" binding:"omitempty,min=1,max=100"`
	Status *string `form:"status" binding:"omitempty,oneof=available pending sold"`
}

type petURI struct {
	PetID int64 `uri:"petId" binding:"required"`
}

func fail(c *gin.Context, status int, code, message string) {
	c.AbortWithStatusJSON(status, petmodel.ErrorBody(status, code, message))
}

func main() {
	gin.SetMode(gin.ReleaseMode)
	key := os.Getenv("API_KEY")
	var pets petmodel.Store

	r := gin.New()
	r.Use(gin.Recovery())
	r.NoRoute(func(c *gin.Context) { fail(c, 404, "not_found", "no such resource") })
	r.Use(func(c *gin.Context) {
		if c.GetHeader("Authorization") != "Bearer "+key {
			fail(c, 401, "unauthorized", "send Authorization: Bearer <key>")
		}
	})
	v1 := r.Group("/v1")
	v1.GET("/pets", func(c *gin.Context) {
		var q listQuery
		if err := c.ShouldBindQuery(&q); err != nil {
			fail(c, 400, "invalid_query", err.Error())
			return
		}
		limit := 20
		if q.Limit != nil {
			limit = *q.Limit
		}
		status := ""
		if q.Status != nil {
			status = *q.Status
		}
		c.JSON(200, pets.List(limit, status))
	})
	v1.POST("/pets", func(c *gin.Context) {
		var body newPet
		if err := c.ShouldBindJSON(&body); err != nil {
			fail(c, 400, "validation_failed", err.Error())
			return
		}
		created := pets.Add(*body.Name, *body.CategoryID, body.Status)
		c.Header("Location", fmt.Sprintf("/v1/pets/%d", created.ID))
		c.JSON(201, created)
	})
	v1.GET("/pets/:petId", func(c *gin.Context) {
		for name, value := range petmodel.Deprecation {
			c.Header(name, value)
		}
		var uri petURI
		if err := c.ShouldBindUri(&uri); err != nil {
			fail(c, 400, "invalid_pet_id", err.Error())
			return
		}
		if p, found := pets.Get(uri.PetID); found {
			c.JSON(200, p)
			return
		}
		fail(c, 404, "not_found", fmt.Sprintf("no pet %d", uri.PetID))
	})

	http.Serve(petmodel.Listen(), r)
}
