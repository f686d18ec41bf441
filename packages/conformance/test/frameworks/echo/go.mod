module github.com/animal-store/conformance/test/frameworks/echo

go 1.25.0

replace github.com/animal-store/conformance/test/frameworks/petmodel => ../petmodel-go

require (
	github.com/animal-store/conformance/test/frameworks/petmodel v0.0.0
	github.com/labstack/echo/v5 v5.4.4
)
