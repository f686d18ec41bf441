// The service as a Gin developer writes it from the spec, with Gin's defaults: ShouldBindJSON into
// a struct with binding tags (pointers tell a missing field), ShouldBindQuery and ShouldBindUri
// for integers, a middleware for the key, and an Error for every answer that is one.
//
// Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
// when its stdin closes, so that it never outlives the test that started it)
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"

	"github.com/gin-gonic/gin"
)

type newPet struct {
	Name       *string `json:"name" binding:"required"`
	CategoryID *int64  `json:"categoryId" binding:"required"`
	Status     *string `json:"status" binding:"omitempty,oneof=available pending sold"`
}

type pet struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	CategoryID int64   `json:"categoryId"`
	Status     *string `json:"status,omitempty"`
}

type listQuery struct {
	Limit  *int    `form:"limit" binding:"omitempty,min=1,max=100"`
	Status *string `form:"status" binding:"omitempty,oneof=available pending sold"`
}

type petURI struct {
	PetID int64 `uri:"petId" binding:"required"`
}

func fail(c *gin.Context, status int, code, message string) {
	c.AbortWithStatusJSON(status, gin.H{"code": code, "message": message, "status": status})
}

func main() {
	gin.SetMode(gin.ReleaseMode)
	key := os.Getenv("API_KEY")
	var mu sync.Mutex
	pets := []pet{}

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
		mu.Lock()
		defer mu.Unlock()
		listed := []pet{}
		for _, p := range pets {
			if len(listed) < limit && (q.Status == nil || (p.Status != nil && *p.Status == *q.Status)) {
				listed = append(listed, p)
			}
		}
		c.JSON(200, listed)
	})
	v1.POST("/pets", func(c *gin.Context) {
		var body newPet
		if err := c.ShouldBindJSON(&body); err != nil {
			fail(c, 400, "validation_failed", err.Error())
			return
		}
		mu.Lock()
		created := pet{int64(len(pets) + 1), *body.Name, *body.CategoryID, body.Status}
		pets = append(pets, created)
		mu.Unlock()
		c.Header("Location", fmt.Sprintf("/v1/pets/%d", created.ID))
		c.JSON(201, created)
	})
	v1.GET("/pets/:petId", func(c *gin.Context) {
		c.Header("Deprecation", "@1767225600")
		c.Header("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
		c.Header("Link", `</v1/pets>; rel="successor-version"`)
		var uri petURI
		if err := c.ShouldBindUri(&uri); err != nil {
			fail(c, 400, "invalid_pet_id", err.Error())
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, p := range pets {
			if p.ID == uri.PetID {
				c.JSON(200, p)
				return
			}
		}
		fail(c, 404, "not_found", fmt.Sprintf("no pet %d", uri.PetID))
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
	http.Serve(listener, r)
}
