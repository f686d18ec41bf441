module github.com/animal-store/conformance/test/frameworks/go

go 1.22

require github.com/animal-store/conformance/test/frameworks/petmodel v0.0.0

replace github.com/animal-store/conformance/test/frameworks/petmodel => ../petmodel-go
