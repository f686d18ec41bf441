module github.com/animal-store/test-db/wrapper

go 1.24
