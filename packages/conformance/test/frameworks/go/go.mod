module github.com/animal-store/conformance/test/frameworks/go

go 1.22
