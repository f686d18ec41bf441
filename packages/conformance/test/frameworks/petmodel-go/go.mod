module github.com/animal-store/conformance/test/frameworks/petmodel

go 1.22
